// The third red team's findings 3 and 4 (issue 33) as a suite every shell runs: red-team/app.ts says how.
import { generateWebhookSecret } from '@verify-kit/client';
import { describe, expect, it } from 'vitest';
import type { FakeUpstream } from '../fake-upstream.js';
import { until } from '../until.js';
import { deliverWebhook } from '../webhooks.js';
import {
  type GatedApp,
  gatedEvery,
  inVisit,
  onFakeUpstream,
  type RedTeamOptions,
  type StartApp,
  sleep,
} from './app.js';
/**
 * Findings 3 and 4, on the fake upstream (the service whose answers a test sets): a 404 is a
 * decision, not an outage; a verified refusal holds against reads that lag it, and a grant that
 * overrode one is read again soon.
 */
export function describeDefinitiveAnswers(apiKey: string, start: StartApp): void {
  const secret = generateWebhookSecret();
  const withApp = (
    options: Partial<RedTeamOptions>,
    run: (app: GatedApp, upstream: FakeUpstream) => Promise<void>,
  ) => onFakeUpstream((upstream) => start({ baseUrl: upstream.url, apiKey, ...options }), run);
  const refuse = (app: GatedApp, identificationId: string) =>
    deliverWebhook(app.browser(), {
      secret,
      identificationId,
      type: 'identification.rejected',
      status: 'REJECTED',
    });

  const approve = (app: GatedApp, identificationId: string, occurredAt: number) =>
    deliverWebhook(app.browser(), {
      secret,
      identificationId,
      type: 'identification.approved',
      status: 'APPROVED',
      occurredAt,
    });
  /** An approval event whose payload gives no time of its own: from before the refusal or after, unknown. */
  const approveUntimed = (app: GatedApp, identificationId: string) =>
    deliverWebhook(app.browser(), {
      secret,
      identificationId,
      rawBody: JSON.stringify({
        type: 'identification.approved',
        data: { identificationId, status: 'APPROVED' },
      }),
    });

  describe('a definitive answer is a decision, not an outage', () => {
    it('the service no longer has the identification (404): the visit ends, the person is asked to verify again', async () => {
      await withApp({ maxAgeMs: 100 }, async (app, upstream) => {
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
      await withApp({ maxAgeMs: 100 }, async (app, upstream) => {
        const { person } = await inVisit(app, upstream);
        upstream.mode = '500';
        await sleep(150);
        expect(await gatedEvery(person, 5, 100)).toEqual(Array(5).fill(200));
      });
    });
  });

  describe('a verified refusal holds against a read that lags it', () => {
    it('the service’s reads lag its webhooks by 1.5 s: the revoked person is refused throughout', async () => {
      await withApp({ webhookSecret: secret }, async (app, upstream) => {
        const { person, id } = await inVisit(app, upstream);
        expect((await refuse(app, id)).status).toBe(204);
        // The read path still says APPROVED for 1.5 s, then catches up.
        const caughtUp = sleep(1500).then(() => upstream.statuses.set(id, 'REJECTED'));
        const statuses = await gatedEvery(person, 25, 100);
        await caughtUp;
        expect(statuses).toEqual(Array(25).fill(403));
      });
    });

    it('a review step delivered after the approving read, while the service is down, never displaces it: the visit is served 200 (issue 40, finding 6)', async () => {
      await withApp({ webhookSecret: secret }, async (app, upstream) => {
        const submittedAt = Date.now();
        const { person, id } = await inVisit(app, upstream);
        upstream.mode = '500'; // the service's reads are down; its webhook queue still delivers
        // The submission's event, from before the approval, arrives late (or is retried) now.
        const late = await deliverWebhook(app.browser(), {
          secret,
          identificationId: id,
          type: 'identification.submitted',
          status: 'IN_AUTOMATIC_REVIEW',
          occurredAt: submittedAt,
        });
        expect(late.status).toBe(204);
        expect(await gatedEvery(person, 5, 50)).toEqual(Array(5).fill(200));
      });
    });

    it('an approval the service gives after the refusal ends the hold at once; its event from before the refusal, delivered late, or one with no time, does not', async () => {
      await withApp({ webhookSecret: secret }, async (app, upstream) => {
        const approvedAt = Date.now();
        const { person, id } = await inVisit(app, upstream);
        expect((await refuse(app, id)).status).toBe(204);
        expect((await person.get('/api/data')).status).toBe(403);
        // The first approval's event, retried after the refusal: the hold (5 s by default) stands.
        expect((await approve(app, id, approvedAt)).status).toBe(204);
        expect(await gatedEvery(person, 3, 50)).toEqual([403, 403, 403]);
        // One that does not say when it happened could be that same late event: the hold stands.
        expect((await approveUntimed(app, id)).status).toBe(204);
        expect(await gatedEvery(person, 3, 50)).toEqual([403, 403, 403]);
        // A reviewer approves again: its event is newer than the refusal; the next request reads.
        expect((await approve(app, id, Date.now())).status).toBe(204);
        expect((await person.get('/api/data')).status).toBe(200);
      });
    });

    it('a read agreeing with APPROVED after the settling time grants, and is read again after it, not after maxAgeMs', async () => {
      await withApp({ webhookSecret: secret, refusalSettleMs: 500 }, async (app, upstream) => {
        const { person, id } = await inVisit(app, upstream);
        // A refusal the service then takes back (a reviewer's overturn): its reads say APPROVED.
        expect((await refuse(app, id)).status).toBe(204);
        expect((await person.get('/api/data')).status).toBe(403);
        await sleep(600);
        expect((await person.get('/api/data')).status).toBe(200);
        // Rejected again without a webhook: the grant is re-read after 500 ms, not after 5 minutes
        // (the default maxAgeMs): a gated request finds it due and re-reads it in the background.
        upstream.statuses.set(id, 'REJECTED');
        await sleep(600);
        const reads = upstream.reads;
        await person.get('/api/data');
        await until(() => upstream.reads > reads, 'the grant re-read');
        await until(async () => (await person.get('/api/data')).status === 403, 'the re-read refusal');
      });
    });
  });
}
