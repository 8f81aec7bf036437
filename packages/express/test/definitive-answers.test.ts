// The third red team's findings 3 and 4, over real HTTP on the fake upstream (the service whose
// answers a test sets): a 404 is a decision, not an outage; a verified refusal holds against reads
// that lag it, and a grant that overrode one is read again soon.
import { generateWebhookSecret } from '@verify-kit/client';
import { type Browser, deliverWebhook, type FakeUpstream } from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import { type TestApp, withFakeUpstreamApp } from './support/app.js';
import { startVerificationOn } from './support/fixtures.js';

const API_KEY = 'sk_test_definitive_9d4e';
const SECRET = generateWebhookSecret();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A person approved at the service who opened the gated page: a visit with a stored APPROVED. */
async function inVisit(app: TestApp, upstream: FakeUpstream): Promise<{ person: Browser; id: string }> {
  const person = app.browser();
  const id = await startVerificationOn(upstream, person);
  upstream.statuses.set(id, 'APPROVED');
  expect((await person.get('/api/data')).status).toBe(200);
  return { person, id };
}

/** The statuses of `count` gated requests, `everyMs` apart. */
async function gatedEvery(person: Browser, count: number, everyMs: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    statuses.push((await person.get('/api/data')).status);
    await sleep(everyMs);
  }
  return statuses;
}

describe('a definitive answer is a decision, not an outage', () => {
  it('the service no longer has the identification (404): the visit ends, the person is asked to verify again', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY, maxAgeMs: 100 }, async (app, upstream) => {
      const { person, id } = await inVisit(app, upstream);
      upstream.statuses.delete(id); // retention, erasure, a reset at the vendor: 404 from now on
      await sleep(150); // the stored decision is due for its re-read
      const statuses = await gatedEvery(person, 15, 100);
      // At most the request that found it due is answered from the store; then refused, for good.
      expect(statuses.slice(2)).toEqual(Array(13).fill(403));
      const refused = await person.get<{ status: string | null }>('/api/data');
      expect(refused.json.status).toBeNull();
      expect((await person.get('/account', { accept: 'text/html' })).status).toBe(303);
      const status = await person.get<{ error: { code: string } }>('/identity/status');
      expect([status.status, status.json.error.code]).toEqual([404, 'NO_VERIFICATION_SESSION']);
      // The widget starts again: a new verification, not an error.
      expect((await person.post('/identity/session')).status).toBe(201);
      expect(upstream.lastIdentificationId()).not.toBe(id);
    });
  });

  it('an outage (5xx) still serves the stored APPROVED inside the visit', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY, maxAgeMs: 100 }, async (app, upstream) => {
      const { person } = await inVisit(app, upstream);
      upstream.mode = '500';
      await sleep(150);
      expect(await gatedEvery(person, 5, 100)).toEqual(Array(5).fill(200));
    });
  });
});

describe('a verified refusal holds against a read that lags it', () => {
  it('the service’s reads lag its webhooks by 1.5 s: the revoked person is refused throughout', async () => {
    await withFakeUpstreamApp({ apiKey: API_KEY, webhookSecret: SECRET }, async (app, upstream) => {
      const { person, id } = await inVisit(app, upstream);
      const type = 'identification.rejected';
      const revoked = await deliverWebhook(app.browser(), {
        secret: SECRET,
        identificationId: id,
        type,
        status: 'REJECTED',
      });
      expect(revoked.status).toBe(204);
      // The read path still says APPROVED for 1.5 s, then catches up.
      const caughtUp = sleep(1500).then(() => upstream.statuses.set(id, 'REJECTED'));
      const statuses = await gatedEvery(person, 25, 100);
      await caughtUp;
      expect(statuses).toEqual(Array(25).fill(403));
    });
  });

  it('a read agreeing with APPROVED after the settling time grants, and is read again after it, not after maxAgeMs', async () => {
    const options = { apiKey: API_KEY, webhookSecret: SECRET, refusalSettleMs: 500 };
    await withFakeUpstreamApp(options, async (app, upstream) => {
      const { person, id } = await inVisit(app, upstream);
      // A refusal the service then takes back (a reviewer's overturn): its reads say APPROVED.
      const type = 'identification.rejected';
      await deliverWebhook(app.browser(), { secret: SECRET, identificationId: id, type, status: 'REJECTED' });
      expect((await person.get('/api/data')).status).toBe(403);
      await sleep(600);
      expect((await person.get('/api/data')).status).toBe(200);
      // Rejected again without a webhook: the grant is re-read after 500 ms, not after 5 minutes.
      upstream.statuses.set(id, 'REJECTED');
      await sleep(600);
      await person.get('/api/data'); // finds the grant due: re-read in the background
      await sleep(100);
      expect((await person.get('/api/data')).status).toBe(403);
    });
  });
});
