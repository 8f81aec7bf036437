import { createClient, KNOWN_STATUSES } from '@verify-kit/client';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAULT_KINDS, type FaultKind, startFaultProxy } from '../src/fault-proxy.js';
import { seededRandom } from '../src/random.js';

let sandbox: Sandbox;
/** An identification the sandbox approved: what every read through the proxy asks for. */
let identificationId: string;

beforeAll(async () => {
  sandbox = await startSandbox({ reviewDelayMs: 0 });
  const client = createClient({ baseUrl: sandbox.url, apiKey: sandbox.apiKey });
  const session = await client.createSession({ workflowId: 'default', locale: 'en', sendOTP: false });
  await client.close();
  identificationId = session.identificationId;
  const control = createSandboxControl(sandbox);
  await control.submitDocument(session.id);
  await control.waitForStatus(identificationId, 'APPROVED');
});
afterAll(() => sandbox.close());

/** Reads the approved identification through a proxy that always does `kind`. */
async function readThrough(kind: FaultKind | 'pass') {
  const proxy = await startFaultProxy({
    target: sandbox.url,
    rates: kind === 'pass' ? {} : { [kind]: 1 },
    delayMs: [30, 40],
    random: seededRandom(7),
  });
  try {
    const response = await request(`${proxy.url}/api/v1/identifications/${identificationId}`, {
      headers: { 'x-api-key': sandbox.apiKey },
    });
    const text = await response.body.text();
    return {
      outcome: { status: response.statusCode, text },
      records: proxy.records(),
      stats: proxy.stats(),
    };
  } catch (error) {
    return { outcome: { error }, records: proxy.records(), stats: proxy.stats() };
  } finally {
    await proxy.close();
  }
}

/** The body as JSON, or undefined when it is none. */
function parsed(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? '');
  } catch {
    return undefined;
  }
}

describe('the fault proxy', () => {
  it('passes through and counts each upstream call by route', async () => {
    const { outcome, stats } = await readThrough('pass');
    expect(outcome).toMatchObject({ status: 200 });
    expect(JSON.parse((outcome as { text: string }).text)).toMatchObject({
      id: identificationId,
      status: 'APPROVED',
    });
    expect(stats).toMatchObject({ requests: 1, byRoute: { read: 1 }, byOutcome: { pass: 1 } });
  });

  it.each(FAULT_KINDS)('%s: misbehaves as documented and records it', async (kind) => {
    const { outcome, records } = await readThrough(kind);
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ outcome: kind, route: 'read' });
    const answered = outcome as { status?: number; text?: string; error?: unknown };
    switch (kind) {
      case 'drop':
      case 'reset':
        expect(answered.error).toBeInstanceOf(Error);
        break;
      case 'server_error':
        expect([500, 502, 503]).toContain(answered.status);
        break;
      case 'delay':
        expect(answered.status).toBe(200);
        expect(records[0]?.detail).toMatch(/^(30|31|32|33|34|35|36|37|38|39|40) ms$/);
        break;
      case 'wrong_json': {
        const body = parsed(answered.text);
        const valid =
          typeof body === 'object' &&
          body !== null &&
          (body as { id?: unknown }).id === identificationId &&
          (KNOWN_STATUSES as readonly unknown[]).includes((body as { status?: unknown }).status);
        expect(valid).toBe(false);
        break;
      }
      case 'unknown_status': {
        const body = JSON.parse(answered.text ?? '') as { id: string; status: string };
        expect(body.id).toBe(identificationId);
        expect(body.status).not.toBe('APPROVED');
        expect(KNOWN_STATUSES).not.toContain(body.status);
        break;
      }
    }
  });
});
