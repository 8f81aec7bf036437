// One rule for identification ids (issue 26, finding 10): the service's ids are UUIDs, and a UUID
// names the same identification in capitals or not. A verified webhook that spells the id in
// capitals must reach everything the kit keeps of it: the cached read a gate with `maxAgeMs` reuses,
// the long-polls, the status record behind onStatusChange. Over real HTTP on the fake upstream.
import { generateWebhookSecret } from '@verify-kit/client';
import { deliverWebhook, until } from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import type { StatusChangeEvent, StatusResponseBody } from '../src/index.js';
import { type AppSetup, withFakeUpstreamApp } from './support/app.js';
import { startVerificationOn } from './support/fixtures.js';

const API_KEY = 'sk_test_identification_case_2d5f';

/** A gate that reuses a read for a minute: only a webhook can end a grant within that minute. */
const cachedGate: AppSetup = {
  routes: (app, kit) =>
    app.get('/cached', kit.requireApproved({ maxAgeMs: 60_000 }), (_req, res) => {
      res.json({ ok: true });
    }),
};

describe('a webhook whose identification id differs only in letter case', () => {
  it('revokes: a gate with maxAgeMs refuses the very next request', async () => {
    const secret = generateWebhookSecret();
    await withFakeUpstreamApp(
      { apiKey: API_KEY, webhookSecret: secret },
      async (app, upstream) => {
        const person = app.browser();
        const identificationId = await startVerificationOn(upstream, person);
        expect(identificationId).not.toBe(identificationId.toUpperCase());
        upstream.statuses.set(identificationId, 'APPROVED');
        expect((await person.get('/cached')).status).toBe(200);
        expect((await person.get('/cached')).status).toBe(200);

        upstream.statuses.set(identificationId, 'REJECTED');
        const shouted = identificationId.toUpperCase();
        const res = await deliverWebhook(app.browser(), {
          secret,
          identificationId: shouted,
          type: 'identification.rejected',
        });
        expect(res.status).toBe(204);
        expect((await person.get('/cached')).status).toBe(403);
      },
      cachedGate,
    );
  });

  it('wakes the long-poll and tells onStatusChange of the same identification', async () => {
    const secret = generateWebhookSecret();
    const events: StatusChangeEvent[] = [];
    const options = {
      apiKey: API_KEY,
      webhookSecret: secret,
      pollIntervalMs: 60_000,
      onStatusChange: (event: StatusChangeEvent) => {
        events.push(event);
      },
    };
    await withFakeUpstreamApp(options, async (app, upstream) => {
      const person = app.browser();
      const identificationId = await startVerificationOn(upstream, person);
      const poll = person.get<StatusResponseBody>('/identity/status?wait=20&since=awaiting_user');
      await until(() => upstream.reads >= 1);
      upstream.statuses.set(identificationId, 'IN_MANUAL_REVIEW');
      const type = 'identification.in_manual_review';
      const res = await deliverWebhook(app.browser(), {
        secret,
        identificationId: identificationId.toUpperCase(),
        type,
      });
      expect(res.status).toBe(204);
      expect((await poll).json.phase).toBe('in_manual_review');
      await until(() => events.length > 0);
      expect(events).toEqual([
        expect.objectContaining({
          identificationId,
          status: 'IN_MANUAL_REVIEW',
          previousStatus: 'IN_AUTOMATIC_REVIEW',
        }),
      ]);
    });
  });
});
