import { describe, expect, it } from 'vitest';
import * as protocol from '../src/index.js';
import {
  FINAL_PHASES,
  isFinalPhase,
  isPhase,
  MAX_RETRY_AFTER_MS,
  PHASES,
  parseRetryAfter,
} from '../src/index.js';

describe('@verify-kit/protocol', () => {
  it('exports only data and pure functions', () => {
    expect(Object.keys(protocol).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_MAX_WAIT_SECONDS",
        "ERROR_CODE",
        "FINAL_PHASES",
        "LOCALES",
        "MAX_RETRY_AFTER_MS",
        "MAX_WAIT_SECONDS",
        "PHASE",
        "PHASES",
        "isErrorCode",
        "isFinalPhase",
        "isPhase",
        "parseRetryAfter",
        "sameOriginPath",
      ]
    `);
  });

  it('every error code is its own name (the wire carries the name)', () => {
    for (const [name, code] of Object.entries(protocol.ERROR_CODE)) expect(code).toBe(name);
  });

  it('final phases are phases, and only they are final', () => {
    for (const phase of FINAL_PHASES) expect(isPhase(phase)).toBe(true);
    expect(PHASES.filter(isFinalPhase)).toEqual(['approved', 'rejected', 'expired']);
    expect(isPhase('in_manual_review')).toBe(true);
    expect(isPhase('IN_REVIEW')).toBe(false);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-23T10:00:00Z');
  it.each([
    ['0', 0],
    ['3', 3000],
    [' 12 ', 12_000],
    ['100000', MAX_RETRY_AFTER_MS],
    ['Mon, 23 Nov 2026 10:00:05 GMT', 5000],
    ['Mon, 23 Nov 2026 09:00:00 GMT', 0],
    ['Monday, 23-Nov-26 10:00:02 GMT', 2000],
  ])('reads %j as %d ms', (value, ms) => {
    expect(parseRetryAfter(value, now)).toBe(ms);
  });

  it.each(['', '1.5', '-1', '0x10', '1e3', '+5', 'soon', 'Mon, not a date'])('refuses %j', (value) => {
    expect(parseRetryAfter(value, now)).toBeUndefined();
  });

  it('takes the first of repeated headers, and nothing from nothing', () => {
    expect(parseRetryAfter(['2', '9'], now)).toBe(2000);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});
