import type { VerifyKitOptions as FetchDoorOptions } from '@verify-kit/core';
import type { VerifyKitOptions as EngineOptions } from '@verify-kit/core/internal/wiring/options';
import type { VerifyKitOptions as ExpressOptions } from '@verify-kit/express';
import type { VerifyKitOptions as HonoOptions } from '@verify-kit/hono';
import type { VerifyKitOptions as NextOptions } from '@verify-kit/next';

// The options a server adds to the engine's (the Fetch door's basePath and secret, Hono's and
// Next.js's clientAddress): plain TypeScript, no schema, so their list is checked by the compiler.

type Own<Options> = Exclude<keyof Options, keyof EngineOptions<never, never>>;
type ShellOption = Own<FetchDoorOptions> | Own<ExpressOptions> | Own<HonoOptions> | Own<NextOptions>;

/** Every option a server adds; `pnpm lint` fails when a server adds one this list lacks. */
export const SHELL_OPTIONS = [
  'basePath',
  'secret',
  'clientAddress',
  'https',
] as const satisfies readonly ShellOption[];

type Unlisted = Exclude<ShellOption, (typeof SHELL_OPTIONS)[number]>;
/** `true` only when SHELL_OPTIONS names them all; else the type names the missing ones. */
export const everyShellOptionListed: [Unlisted] extends [never] ? true : { unlisted: Unlisted } = true;
