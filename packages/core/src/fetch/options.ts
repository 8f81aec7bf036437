import { VerifyKitError } from '@verify-kit/protocol/errors';
import { z } from 'zod';
import { type CookieSecret, cookieSecrets } from '../web/sealed-cookie.js';

/** Whether the browser's connection is https, for the visitor's cookie (`https`). */
export type HttpsOption = boolean | 'auto' | 'x-forwarded-proto';

/** What the Fetch kit adds to the engine's options. */
export interface FetchOptions {
  /** Where the routes answer, e.g. `/identity`: starts with `/`, no trailing slash. */
  basePath: string;
  /**
   * Seals the anonymous visitor's cookie (AES-GCM, HKDF): at least 32 characters. `[current,
   * previous]` while rotating: the first seals, any opens.
   */
  secret: CookieSecret;
  /**
   * Whether browsers reach the app over https, which makes the visitor's cookie `__Host-vk_visitor`
   * with `Secure` (no sibling subdomain and no plain-http answer can plant one, and only that name is
   * read):
   * - `true` (the default in production: NODE_ENV=production, Workers, Lambda, Deno Deploy): always,
   *   whatever scheme the request arrived with (a TLS-terminating proxy in front);
   * - `'x-forwarded-proto'`: as the proxy's `X-Forwarded-Proto` says (only behind a proxy that
   *   overwrites it: a client can write it too);
   * - `'auto'` (the default elsewhere): the request URL's scheme, or what the shell says;
   * - `false`: never (a plain cookie, plantable; production warns).
   */
  https?: HttpsOption;
}

/** The Fetch kit's options once checked: `https` resolved. */
export interface ResolvedFetchOptions extends FetchOptions {
  https: HttpsOption;
}

const BasePathSchema = z
  .string({ error: 'must be a path such as "/identity"' })
  .regex(/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/, {
    error: 'must start with "/" and be a URL path, e.g. "/identity"',
  })
  .refine((path) => path === '/' || !path.endsWith('/'), { error: 'must not end with "/", e.g. "/identity"' })
  .refine((path) => !path.includes('//'), { error: 'must not hold "//"' });

/** basePath, secret and https, checked once; throws INVALID_OPTIONS naming the option (never a secret). */
export function parseFetchOptions(
  input: { basePath?: unknown; secret?: unknown; https?: unknown },
  production: boolean,
): ResolvedFetchOptions {
  const basePath = BasePathSchema.safeParse(input.basePath);
  if (!basePath.success) {
    const message = basePath.error.issues[0]?.message ?? 'is invalid';
    throw new VerifyKitError('INVALID_OPTIONS', `createVerifyKit: basePath ${message}`);
  }
  if (input.secret === undefined) {
    throw new VerifyKitError(
      'INVALID_OPTIONS',
      'createVerifyKit: secret is required (it seals the anonymous visitor’s cookie): at least 32 random characters, e.g. process.env.VERIFY_KIT_SECRET',
    );
  }
  try {
    cookieSecrets(input.secret as CookieSecret);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new VerifyKitError('INVALID_OPTIONS', `createVerifyKit: ${message}`);
  }
  const { https = production ? true : 'auto' } = input;
  if (typeof https !== 'boolean' && https !== 'auto' && https !== 'x-forwarded-proto') {
    throw new VerifyKitError(
      'INVALID_OPTIONS',
      "createVerifyKit: https must be true, false, 'auto' or 'x-forwarded-proto'",
    );
  }
  return {
    basePath: basePath.data === '/' ? '' : basePath.data,
    secret: input.secret as CookieSecret,
    https,
  };
}

/** A cookie written without `Secure` in production: plantable by a sibling subdomain or any http answer. */
export const PLAIN_COOKIE_WARNING =
  'the visitor cookie is written without Secure and the __Host- prefix in production: a sibling ' +
  'subdomain or any plain-http answer can plant one. Behind a TLS-terminating proxy pass ' +
  "createVerifyKit({ https: true }) (the default in production), or 'x-forwarded-proto' when your proxy overwrites that header";
