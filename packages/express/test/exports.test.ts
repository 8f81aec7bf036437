import { describe, expect, it } from 'vitest';
import * as kit from '../src/index.js';
import * as protocol from '../src/protocol.js';

describe('public exports', () => {
  it('stay this small', () => {
    expect(Object.keys(kit).sort()).toMatchInlineSnapshot(`
      [
        "ERROR_CODE",
        "FINAL_PHASES",
        "MAX_WAIT_SECONDS",
        "PHASE",
        "PHASES",
        "VerifyKitError",
        "createMemoryStatusBus",
        "createVerifyKit",
        "isVerifyKitError",
      ]
    `);
  });

  it('the protocol entry point is type-only for the widget, plus its constants', () => {
    expect(Object.keys(protocol).sort()).toMatchInlineSnapshot(`
      [
        "FINAL_PHASES",
        "MAX_WAIT_SECONDS",
        "PHASE",
        "PHASES",
      ]
    `);
  });

  it('names every error code once, with the client’s', () => {
    expect(Object.entries(kit.ERROR_CODE).every(([key, value]) => key === value)).toBe(true);
    expect(kit.ERROR_CODE).toMatchObject({
      UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
      NOT_APPROVED: 'NOT_APPROVED',
    });
  });
});
