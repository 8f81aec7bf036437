import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../src/index.js';
import { body, headersFor, id, now, otherSecret, secret } from './helpers/webhook-fixture.js';

describe('generateWebhookSecret', () => {
  it('is whsec_ + base64 of 24 random bytes, different each time', () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(24);
    expect(otherSecret).not.toBe(secret);
  });
});

describe('against the standardwebhooks library as an oracle', () => {
  it('ours signs, theirs verifies', () => {
    const timestamp = now();
    const signature = signWebhook({ secret, id, timestamp, body });
    expect(signature).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headersFor(timestamp, signature))).toEqual(JSON.parse(body));
  });

  it('theirs signs, ours verifies', () => {
    const timestamp = now();
    const signature = new Webhook(secret).sign(id, new Date(timestamp * 1000), body);
    expect(verifyWebhook({ secret, headers: headersFor(timestamp, signature), body })).toEqual({
      id,
      timestamp,
    });
  });

  it('produces the same signature byte for byte', () => {
    const timestamp = 1_700_000_000;
    expect(signWebhook({ secret, id, timestamp, body })).toBe(
      new Webhook(secret).sign(id, new Date(timestamp * 1000), body),
    );
  });

  it('accepts a raw base64 secret without the whsec_ prefix, as the library does', () => {
    const raw = secret.slice('whsec_'.length);
    const timestamp = now();
    const signature = new Webhook(raw).sign(id, new Date(timestamp * 1000), body);
    expect(signWebhook({ secret: raw, id, timestamp, body })).toBe(signature);
    expect(verifyWebhook({ secret: raw, headers: headersFor(timestamp, signature), body }).id).toBe(id);
    expect(verifyWebhook({ secret, headers: headersFor(timestamp, signature), body }).id).toBe(id);
  });

  it('theirs rejects what ours signed with another secret', () => {
    const timestamp = now();
    const signature = signWebhook({ secret: otherSecret, id, timestamp, body });
    expect(() => new Webhook(secret).verify(body, headersFor(timestamp, signature))).toThrow();
  });
});
