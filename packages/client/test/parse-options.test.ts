import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateWebhookSecret, isVerifyKitError, parseOptions, WebhookSecretSchema } from '../src/index.js';

const Schema = z.strictObject({ size: z.int().min(1).default(3), name: z.string().optional() });

function failureOf(input: unknown) {
  try {
    parseOptions(Schema, input, 'createThing');
  } catch (error) {
    if (isVerifyKitError(error, 'INVALID_OPTIONS')) return error;
    throw error;
  }
  throw new Error('the options were accepted');
}

describe('parseOptions', () => {
  it('answers the parsed options with the defaults filled in', () => {
    expect(parseOptions(Schema, { name: 'a' })).toEqual({ size: 3, name: 'a' });
  });

  it('throws INVALID_OPTIONS naming the factory and each option, details as { path, message }', () => {
    const error = failureOf({ size: 0, colour: 'secret-value' });
    expect(error.message).toMatch(/^createThing: invalid options: /);
    expect(error.details).toEqual([
      { path: 'size', message: expect.any(String) },
      { path: 'colour', message: 'is not an option of createThing (known: size, name)' },
    ]);
    expect(JSON.stringify(error)).not.toContain('secret-value');
  });
});

describe('WebhookSecretSchema (Standard Webhooks: base64, whsec_ prefix optional)', () => {
  const secret = generateWebhookSecret();
  it.each([
    ['a generated secret', secret],
    ['the same without its whsec_ prefix', secret.slice('whsec_'.length)],
  ])('accepts %s', (_name, value) => {
    expect(WebhookSecretSchema.safeParse(value).success).toBe(true);
  });

  it.each([
    ['an empty prefix', 'whsec_'],
    ['not base64', 'whsec_not base64!'],
    ['base64 of fewer than 16 bytes', 'whsec_YWJj'],
    ['a non-string', 42],
  ])('refuses %s', (_name, value) => {
    expect(WebhookSecretSchema.safeParse(value).success).toBe(false);
  });
});
