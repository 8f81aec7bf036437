/**
 * `true` only when A and B are the same type (not merely assignable either way): a README that
 * declares a package's interface is checked against the package's own declaration by `pnpm lint`.
 */
export type SameType<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
