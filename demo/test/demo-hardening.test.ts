import { Browser, rawExchange } from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningDemo } from '../src/start-demo.js';
import { startStandInDemo } from './support/stand-in-demo.js';

/*
 * Issue 15's attacks on the demo server, over real sockets: a slow client, an oversized webhook
 * body, and a flood of unsigned webhooks aimed at the activity log.
 */

let demo: RunningDemo;

beforeAll(async () => {
  demo = await startStandInDemo();
});

afterAll(async () => {
  await demo?.close();
});

describe('the demo server under attack', () => {
  it('answers 408 and hangs up on a client that never finishes its headers', async () => {
    const answer = await rawExchange(demo.port, ['GET / HTTP/1.1\r\nHost: localhost\r\nX-Drip: a']);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('refuses a declared 1 GB webhook body with 413 without reading it (the kit reads webhooks first)', async () => {
    const answer = await rawExchange(demo.port, [
      'POST /identity/webhook HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1073741824\r\n\r\n{"type":"identification.approved"',
    ]);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('keeps unsigned webhooks out of the activity log', async () => {
    const browser = new Browser(demo.url);
    await browser.post('/api/demo/sign-in', { name: 'Ada', email: 'ada@example.com' });
    expect((await browser.post('/identity/session', {})).status).toBe(201);
    const { identificationId } = (await browser.get<{ identificationId: string }>('/api/demo/activity')).json;

    const forged = JSON.stringify({
      type: 'identification.approved',
      data: { identificationId, status: 'APPROVED' },
    });
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${demo.url}/identity/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: forged,
      });
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
    const { entries } = (
      await browser.get<{ entries: { kind: string; type?: string }[] }>('/api/demo/activity')
    ).json;
    expect(entries.filter((e) => e.kind === 'webhook' && e.type === 'identification.approved')).toEqual([]);
  });
});
