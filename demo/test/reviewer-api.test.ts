import { createSandboxControl, type SandboxControl } from '@verify-kit/sandbox/control';
import { Browser, until } from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningDemo } from '../src/start-demo.js';
import { startStandInDemo } from './support/stand-in-demo.js';

/*
 * The reviewer buttons' server route, POST /api/demo/review, over real sockets with the embedded
 * sandbox: it decides only the verification the kit bound to the signed-in account, and only while a
 * reviewer would be checking it.
 */

let demo: RunningDemo;
let control: SandboxControl;

beforeAll(async () => {
  demo = await startStandInDemo();
  control = createSandboxControl({ url: demo.sandbox!.url, apiKey: demo.sandbox!.apiKey });
});

afterAll(async () => {
  await demo?.close();
});

async function signedIn(email: string): Promise<Browser> {
  const browser = new Browser(demo.url);
  expect((await browser.post('/api/demo/sign-in', { name: 'Ada', email })).status).toBe(200);
  return browser;
}

/** A person whose document went to manual review; answers their browser and identification id. */
async function inManualReview(email: string): Promise<{ browser: Browser; identificationId: string }> {
  const browser = await signedIn(email);
  expect((await browser.post('/identity/session', {})).status).toBe(201);
  const { url } = (await browser.get<{ url: string }>('/api/demo/simulator-url')).json;
  const sessionId = url.split('/').pop() ?? '';
  const { identificationId } = (await browser.get<{ identificationId: string }>('/api/demo/activity')).json;
  await control.submitDocument(sessionId, { scenario: 'manual_review' });
  await control.waitForStatus(identificationId, 'IN_MANUAL_REVIEW');
  return { browser, identificationId };
}

const review = (browser: Browser, body: unknown) =>
  browser.post<{ error?: { code: string }; status?: string }>('/api/demo/review', body);

describe('POST /api/demo/review', () => {
  it('needs a signed-in person, a bound verification, and one waiting for a reviewer', async () => {
    const anonymous = await review(new Browser(demo.url), { decision: 'APPROVED' });
    expect([anonymous.status, anonymous.json.error?.code]).toEqual([401, 'SIGN_IN_REQUIRED']);

    const browser = await signedIn('ada.review.1@example.com');
    const none = await review(browser, { decision: 'APPROVED' });
    expect([none.status, none.json.error?.code]).toEqual([404, 'NO_SESSION']);

    expect((await browser.post('/identity/session', {})).status).toBe(201);
    const awaiting = await review(browser, { decision: 'APPROVED' });
    expect([awaiting.status, awaiting.json.error?.code]).toEqual([409, 'NOT_IN_MANUAL_REVIEW']);
    expect((await browser.get('/api/demo/account')).status).toBe(403);
  });

  it('decides the account’s own verification: the browser names a decision, never an id', async () => {
    const ada = await inManualReview('ada.review.2@example.com');
    const grace = await inManualReview('grace.review.2@example.com');

    const withId = await review(ada.browser, {
      decision: 'APPROVED',
      identificationId: grace.identificationId,
    });
    expect([withId.status, withId.json.error?.code]).toEqual([400, 'INVALID_BODY']);
    const unknown = await review(ada.browser, { decision: 'MAYBE' });
    expect([unknown.status, unknown.json.error?.code]).toEqual([400, 'INVALID_BODY']);

    const approved = await review(ada.browser, { decision: 'APPROVED' });
    expect([approved.status, approved.json.status]).toEqual([200, 'APPROVED']);
    // The kit hears of the decision by the service's webhook, moments after the reviewer's call.
    await until(async () => (await ada.browser.get('/api/demo/account')).status === 200, 'the account opens');
    // Grace's verification is untouched, and hers is decided by her own reviewer's call.
    expect(await control.readStatus(grace.identificationId)).toBe('IN_MANUAL_REVIEW');
    const resubmit = await review(grace.browser, { decision: 'RESUBMISSION_REQUIRED' });
    expect([resubmit.status, resubmit.json.status]).toEqual([200, 'RESUBMISSION_REQUIRED']);
    expect((await grace.browser.get('/api/demo/account')).status).toBe(403);
  });
});
