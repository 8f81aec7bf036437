import { randomInt } from 'node:crypto';

/** Upper-case letters and digits without the look-alikes 0/O and 1/I/L (docs/architecture.md, decision 10). */
export const SESSION_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const SESSION_CODE_LENGTH = 8;

export function randomSessionCode(): string {
  let code = '';
  for (let i = 0; i < SESSION_CODE_LENGTH; i++)
    code += SESSION_CODE_ALPHABET[randomInt(SESSION_CODE_ALPHABET.length)];
  return code;
}

/** How a typed code is looked up: case-insensitive, spaces and dashes ignored. */
export function normalizeSessionCode(input: string): string {
  return input.replace(/[\s-]+/g, '').toUpperCase();
}
