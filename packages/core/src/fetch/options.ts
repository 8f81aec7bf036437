import { VerifyKitError } from '@verify-kit/protocol/errors';
import { z } from 'zod';
import { type CookieSecret, cookieSecrets } from '../web/sealed-cookie.js';

/** What the Fetch kit adds to the engine's options. */
export interface FetchOptions {
  /** Where the routes answer, e.g. `/identity`: starts with `/`, no trailing slash. */
  basePath: string;
  /**
   * Seals the anonymous visitor's cookie (AES-GCM, HKDF): at least 32 characters. `[current,
   * previous]` while rotating: the first seals, any opens.
   */
  secret: CookieSecret;
}

const BasePathSchema = z
  .string({ error: 'must be a path such as "/identity"' })
  .regex(/^\/[A-Za-z0-9._~!$&'()*+,;=:@%/-]*$/, {
    error: 'must start with "/" and be a URL path, e.g. "/identity"',
  })
  .refine((path) => path === '/' || !path.endsWith('/'), { error: 'must not end with "/", e.g. "/identity"' })
  .refine((path) => !path.includes('//'), { error: 'must not hold "//"' });

/** basePath and secret, checked once; throws INVALID_OPTIONS naming the option (never a secret). */
export function parseFetchOptions(input: { basePath?: unknown; secret?: unknown }): FetchOptions {
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
  return { basePath: basePath.data === '/' ? '' : basePath.data, secret: input.secret as CookieSecret };
}
