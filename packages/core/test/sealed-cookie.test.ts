import { createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isVerifyKitError, MAX_SEALED_COOKIE_BYTES, sealCookie, unsealCookie } from '../src/index.js';

const current = randomBytes(32).toString('base64');
const previous = randomBytes(32).toString('base64');
const stranger = randomBytes(32).toString('base64');

/** What the engine will keep for an anonymous visitor: no API key, no contact. */
const typical = () => ({
  identificationId: randomUUID(),
  browserId: randomBytes(16).toString('base64url'),
  createdAt: Date.now(),
  visitAt: Date.now() + 1234,
});

const bytesOf = (text: string) => Buffer.from(text, 'base64url');
const textOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

async function thrown(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('sealCookie / unsealCookie', () => {
  it('round trip: the object comes back; each seal differs (a random IV); base64url only', async () => {
    const value = { ...typical(), name: 'ŞEYMA IŞIK', nested: { a: [1, 2] } };
    const one = await sealCookie(value, current);
    const two = await sealCookie(value, current);
    expect(one).not.toBe(two);
    expect(one).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await unsealCookie(one, current)).toEqual(value);
    expect(await unsealCookie(two, [current])).toEqual(value);
  });

  it('a typical visitor cookie (an identificationId, a browser id, two timestamps) seals to under 250 bytes', async () => {
    const value = typical();
    const sealed = await sealCookie(value, current);
    // 1 version byte + 12 IV + JSON + 16 tag, in base64url.
    expect(sealed.length).toBe(Math.ceil(((29 + JSON.stringify(value).length) * 4) / 3));
    expect(sealed.length).toBeLessThan(250);
  });

  it('rotation: [current, previous] seals with current and opens either; without previous, its cookies are gone', async () => {
    const value = typical();
    const old = await sealCookie(value, previous);
    const rotated = await sealCookie(value, [current, previous]);
    expect(await unsealCookie(old, [current, previous])).toEqual(value);
    expect(await unsealCookie(rotated, [current, previous])).toEqual(value);
    expect(await unsealCookie(rotated, current)).toEqual(value); // sealed with the first
    expect(await unsealCookie(rotated, previous)).toBeUndefined();
    expect(await unsealCookie(old, current)).toBeUndefined(); // previous retired
  });

  it('a cookie sealed under an unknown secret reads as undefined', async () => {
    const sealed = await sealCookie(typical(), stranger);
    expect(await unsealCookie(sealed, [current, previous])).toBeUndefined();
  });

  it('tampering with any byte (version, IV, ciphertext, GCM tag) reads as undefined', async () => {
    const sealed = await sealCookie(typical(), current);
    const bytes = bytesOf(sealed);
    const regions = {
      version: [0],
      iv: [1, 12],
      ciphertext: [13, bytes.length - 17],
      tag: [bytes.length - 16],
    };
    expect(regions.ciphertext[1]! - regions.ciphertext[0]!).toBeGreaterThan(50);
    for (let index = 0; index < bytes.length; index++) {
      for (const flip of [0x01, 0x80]) {
        const changed = Uint8Array.from(bytes);
        changed[index]! ^= flip;
        expect(await unsealCookie(textOf(changed), current), `byte ${index} ^ ${flip}`).toBeUndefined();
      }
    }
  });

  it('truncated, extended, re-encoded or garbage reads as undefined, never throws', async () => {
    const sealed = await sealCookie(typical(), current);
    const bytes = bytesOf(sealed);
    const texts = [
      '',
      'garbage',
      '!!!!',
      'a',
      sealed.slice(0, -1),
      sealed.slice(0, -4),
      sealed.slice(0, 40),
      sealed.slice(1),
      `${sealed}A`,
      `${sealed}AAAA`,
      Buffer.from(bytes).toString('base64'), // padded base64, + and /
      `${sealed} `,
      `"${sealed}"`,
      textOf(bytes.subarray(0, 29)),
      textOf(new Uint8Array(29)),
      'A'.repeat(MAX_SEALED_COOKIE_BYTES + 4),
    ];
    for (let cut = 0; cut < bytes.length; cut++) texts.push(textOf(bytes.subarray(0, cut)));
    for (const text of texts) {
      expect(await unsealCookie(text, current), JSON.stringify(text.slice(0, 60))).toBeUndefined();
    }
    expect(await unsealCookie(undefined, current)).toBeUndefined();
  });

  it(`refuses to seal more than ${MAX_SEALED_COOKIE_BYTES} bytes, saying how much fits`, async () => {
    const json = (size: number) => ({ p: 'x'.repeat(size - '{"p":""}'.length) });
    expect(JSON.stringify(json(871))).toHaveLength(871);
    const fits = await sealCookie(json(871), current);
    expect(fits).toHaveLength(MAX_SEALED_COOKIE_BYTES);
    expect(await unsealCookie(fits, current)).toEqual(json(871));
    const error = await thrown(() => sealCookie(json(872), current));
    expect(isVerifyKitError(error, 'INTERNAL_ERROR')).toBe(true);
    expect((error as Error).message).toBe(
      'a sealed cookie of 872 bytes of JSON would be 1202 bytes, over its limit of 1200 (at most 871 bytes of JSON fit)',
    );
  });

  it('seals JSON objects only', async () => {
    for (const value of [null, [1, 2], { toJSON: () => 'text' }]) {
      expect(
        isVerifyKitError(await thrown(() => sealCookie(value as object, current)), 'INTERNAL_ERROR'),
      ).toBe(true);
    }
  });

  it('a secret shorter than 32 characters, or none, is INVALID_OPTIONS, and the message never holds a secret', async () => {
    const short = 'too-short-secret-0123456789abcd'; // 31
    for (const secret of [short, [], [current, short], [current, 42]] as never[]) {
      for (const run of [() => sealCookie({}, secret), () => unsealCookie('x', secret)]) {
        const error = await thrown(run);
        expect(isVerifyKitError(error, 'INVALID_OPTIONS')).toBe(true);
        expect((error as Error).message).not.toContain(current);
        expect((error as Error).message).not.toContain(short);
      }
    }
    expect((await thrown(() => sealCookie({}, [current, short]))) as Error).toHaveProperty(
      'message',
      expect.stringMatching(/^secret\[1\] must be a string of at least 32 characters \(got 31 characters\)/),
    );
  });

  it('the format as documented, opened by an independent implementation on node:crypto', async () => {
    const value = typical();
    const bytes = bytesOf(await sealCookie(value, current));
    const key = Buffer.from(
      hkdfSync(
        'sha256',
        current,
        'verify-kit',
        'verify-kit/core sealed-cookie v1: anonymous visitor session',
        32,
      ),
    );
    expect(bytes[0]).toBe(1);
    const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(1, 13));
    decipher.setAAD(bytes.subarray(0, 1));
    decipher.setAuthTag(bytes.subarray(-16));
    const plain = Buffer.concat([decipher.update(bytes.subarray(13, -16)), decipher.final()]);
    expect(JSON.parse(plain.toString('utf8'))).toEqual(value);
    // The derived key is not the secret itself: an AES key of the secret's own bytes does not open it.
    const raw = createDecipheriv('aes-256-gcm', Buffer.from(current, 'base64'), bytes.subarray(1, 13));
    raw.setAAD(bytes.subarray(0, 1));
    raw.setAuthTag(bytes.subarray(-16));
    raw.update(bytes.subarray(13, -16));
    expect(() => raw.final()).toThrow();
  });
});
