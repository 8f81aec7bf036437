import { createSandboxControl } from '@verify-kit/sandbox/control';
import { Browser } from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningDemo } from '../src/start-demo.js';
import { startStandInDemo } from './support/stand-in-demo.js';

/*
 * Issue 26, finding 8: typing someone's e-mail at the demo's sign-in made you their account (their
 * approval passed your gate; the reviewer buttons decided their verification). Demo accounts are
 * now keyed on a random id only the browser holds, with the e-mail. Over real sockets with the
 * demo's embedded sandbox.
 */

let demo: RunningDemo;

beforeAll(async () => {
  demo = await startStandInDemo();
});

afterAll(async () => {
  await demo?.close();
});

const ADA = { name: 'Ada', email: 'ada@example.com' };

async function signIn(browser: Browser, user: { name: string; email: string }) {
  expect((await browser.post('/api/demo/sign-in', user)).status).toBe(200);
}

async function phaseOf(browser: Browser): Promise<string | null> {
  const res = await browser.get<{ phase?: string }>('/identity/status');
  return res.status === 404 ? null : (res.json.phase ?? null);
}

describe('a demo account belongs to the browser that signed in, not to the typed e-mail', () => {
  it('someone typing Ada’s e-mail elsewhere gets a new, empty account; Ada stays verified across sign-outs', async () => {
    const ada = new Browser(demo.url);
    await signIn(ada, ADA);
    const started = await ada.post<{ sessionCode: string }>('/identity/session', {});
    expect(started.status).toBe(201);
    const control = createSandboxControl({ url: demo.sandbox!.url, apiKey: demo.sandbox!.apiKey });
    const { identificationId } = await control.submitByCode(started.json.sessionCode, 'approve');
    await control.waitForStatus(identificationId, 'APPROVED');
    expect(await phaseOf(ada)).toBe('approved');

    const attacker = new Browser(demo.url);
    await signIn(attacker, { name: 'Mallory', email: 'ADA@example.com' });
    expect(await phaseOf(attacker)).toBeNull();
    expect(
      (await attacker.get<{ identificationId: string | null }>('/api/demo/activity')).json.identificationId,
    ).toBeNull();
    // The reviewer buttons decide only the attacker's own verification (there is none).
    const review = await attacker.post('/api/demo/review', { decision: 'REJECTED' });
    expect(review.status).toBeGreaterThanOrEqual(400);
    expect(review.status).toBeLessThan(500);
    expect(await control.readStatus(identificationId)).toBe('APPROVED');

    // Ada signs out and in again in her own browser: still her account, still verified.
    expect((await ada.post('/api/demo/sign-out', {})).status).toBe(204);
    expect(await phaseOf(ada)).toBeNull();
    await signIn(ada, ADA);
    expect(await phaseOf(ada)).toBe('approved');
  });

  it('the browser’s id is an HttpOnly, SameSite=Lax cookie of its own, kept for a year and across sign-out', async () => {
    const browser = new Browser(demo.url);
    const res = await browser.post('/api/demo/sign-in', ADA);
    const setCookies = [res.headers['set-cookie'] ?? []].flat();
    const cookie = setCookies.find((line) => line.startsWith('verify-kit-demo.browser=')) ?? '';
    expect(cookie).toMatch(/^verify-kit-demo\.browser=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain(`Max-Age=${365 * 24 * 3600}`);
    const id = browser.cookies.get('verify-kit-demo.browser');
    await browser.post('/api/demo/sign-out', {});
    await browser.post('/api/demo/sign-in', ADA);
    expect(browser.cookies.get('verify-kit-demo.browser')).toBe(id);
  });
});
