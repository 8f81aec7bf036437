import { VerifyKitError } from '@verify-kit/protocol/errors';
import { base64UrlLength, decodeBase64Url, encodeBase64Url } from './base64.js';

/** crypto.subtle's key type, named without the DOM lib (Node's types name it elsewhere). */
type SubtleKey = Awaited<ReturnType<typeof crypto.subtle.importKey>>;

/*
 * The anonymous visitor's sealed cookie: a JSON object encrypted and authenticated with AES-256-GCM,
 * under a key derived by HKDF-SHA-256 from the kit's `secret` for this purpose alone. The text is
 * base64url of
 *
 *   version (1 byte, 1) | IV (12 random bytes) | ciphertext | GCM tag (16 bytes)
 *
 * with the version byte as additional authenticated data. `secret: [current, previous, …]` rotates:
 * a cookie is sealed with the first secret and opened with any. Opening never throws: a tampered,
 * truncated or foreign cookie, or one sealed under a secret no longer listed, reads as undefined.
 */

/** One secret of at least 32 characters, or several while rotating: the first seals, any opens. */
export type CookieSecret = string | readonly string[];

/** The longest sealed text: what browsers and proxies keep comfortably beside the app's own cookies. */
export const MAX_SEALED_COOKIE_BYTES = 1200;
export const MIN_COOKIE_SECRET_LENGTH = 32;

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const OVERHEAD = 1 + IV_BYTES + TAG_BYTES;
/** HKDF's info: a key derived for this cookie is used for nothing else. */
const PURPOSE = 'verify-kit/core sealed-cookie v1: anonymous visitor session';
const SALT = 'verify-kit';
const AAD = new Uint8Array([VERSION]);

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** The secrets as a non-empty list, each checked; throws INVALID_OPTIONS (never echoing a secret). */
export function cookieSecrets(secret: CookieSecret): readonly string[] {
  const list = typeof secret === 'string' ? [secret] : Array.isArray(secret) ? [...secret] : [];
  if (list.length === 0) {
    throw new VerifyKitError('INVALID_OPTIONS', 'secret must be a string or a non-empty list of strings');
  }
  list.forEach((one, index) => {
    if (typeof one !== 'string' || one.length < MIN_COOKIE_SECRET_LENGTH) {
      const which = list.length === 1 ? 'secret' : `secret[${index}]`;
      const got = typeof one === 'string' ? `${one.length} characters` : typeof one;
      throw new VerifyKitError(
        'INVALID_OPTIONS',
        `${which} must be a string of at least ${MIN_COOKIE_SECRET_LENGTH} characters (got ${got}); e.g. 32 random bytes in base64: openssl rand -base64 32`,
      );
    }
  });
  return list;
}

// Derived keys, by secret: HKDF runs once per secret, not per cookie. Bounded, for tests that make many.
const KEY_CACHE_LIMIT = 16;
const keys = new Map<string, Promise<SubtleKey>>();

function keyOf(secret: string): Promise<SubtleKey> {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= KEY_CACHE_LIMIT) keys.clear();
    key = deriveKey(secret);
    keys.set(secret, key);
    key.catch(() => keys.delete(secret));
  }
  return key;
}

async function deriveKey(secret: string): Promise<SubtleKey> {
  const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey(
    { name: 'HKDF', hash: 'SHA-256', salt: encoder.encode(SALT), info: encoder.encode(PURPOSE) },
    material,
    { name: 'AES-GCM', length: 256 },
    false,
    ['encrypt', 'decrypt'],
  );
}

/**
 * Seals a JSON object with the first secret. Throws INVALID_OPTIONS for a bad secret, and
 * INTERNAL_ERROR when the sealed text would exceed MAX_SEALED_COOKIE_BYTES (what is sealed is the
 * kit's choice: a kit that seals more is a bug, not something to truncate).
 */
export async function sealCookie(value: object, secret: CookieSecret): Promise<string> {
  const [current] = cookieSecrets(secret);
  const json = JSON.stringify(value);
  if (value === null || Array.isArray(value) || typeof json !== 'string' || !json.startsWith('{')) {
    throw new VerifyKitError('INTERNAL_ERROR', 'a sealed cookie holds a JSON object');
  }
  const plaintext = encoder.encode(json);
  const length = base64UrlLength(OVERHEAD + plaintext.length);
  if (length > MAX_SEALED_COOKIE_BYTES) {
    const fits = Math.floor((MAX_SEALED_COOKIE_BYTES * 3) / 4) - OVERHEAD;
    throw new VerifyKitError(
      'INTERNAL_ERROR',
      `a sealed cookie of ${plaintext.length} bytes of JSON would be ${length} bytes, over its limit of ${MAX_SEALED_COOKIE_BYTES} (at most ${fits} bytes of JSON fit)`,
    );
  }
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const key = await keyOf(current!);
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: AAD }, key, plaintext),
  );
  const out = new Uint8Array(1 + IV_BYTES + sealed.length);
  out[0] = VERSION;
  out.set(iv, 1);
  out.set(sealed, 1 + IV_BYTES);
  return encodeBase64Url(out);
}

/**
 * The object sealed in `text` by any of the secrets, or undefined: for a missing, tampered,
 * truncated or malformed cookie, or one no listed secret sealed. Throws only for a bad `secret`
 * (a configuration error, not a visitor's doing).
 */
export async function unsealCookie(
  text: string | undefined,
  secret: CookieSecret,
): Promise<Record<string, unknown> | undefined> {
  const secrets = cookieSecrets(secret);
  if (typeof text !== 'string' || text.length > MAX_SEALED_COOKIE_BYTES) return undefined;
  const bytes = decodeBase64Url(text);
  if (bytes === undefined || bytes.length < OVERHEAD || bytes[0] !== VERSION) return undefined;
  const iv = bytes.subarray(1, 1 + IV_BYTES);
  const sealed = bytes.subarray(1 + IV_BYTES);
  for (const one of secrets) {
    let plaintext: ArrayBuffer;
    try {
      plaintext = await crypto.subtle.decrypt(
        { name: 'AES-GCM', iv, additionalData: AAD },
        await keyOf(one),
        sealed,
      );
    } catch {
      continue; // another key, or tampered: try the next secret
    }
    return parseObject(plaintext);
  }
  return undefined;
}

function parseObject(plaintext: ArrayBuffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(decoder.decode(plaintext));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
