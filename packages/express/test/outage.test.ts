// The service stops: the verified people inside their visits keep reaching the gated page on every
// instance, a revoked one is refused on every instance, a new visit fails closed, and once the stored
// decisions are older than staleIfErrorMs everyone fails closed. Two kit instances on one real
// redis-server (Redis binding store and status bus), the real sandbox sending signed webhooks to A.
import { generateWebhookSecret } from '@verify-kit/client';
import { createSandboxControl } from '@verify-kit/sandbox/control';
import { type Browser, until } from '@verify-kit/testkit';
import { describe, expect, it } from 'vitest';
import { verifyIn } from './support/fixtures.js';
import { useRedisPair } from './support/redis.js';

const API_KEY = 'sk_test_outage_0b7d';
const STALE_IF_ERROR_MS = 10 * 60_000;

// Both instances' clock: the test moves it past staleIfErrorMs at the end.
const clock = { advance: 0 };
const env = useRedisPair(
  API_KEY,
  generateWebhookSecret(),
  {
    sessionLimit: false,
    maxAgeMs: 60_000,
    staleIfErrorMs: STALE_IF_ERROR_MS,
    now: () => Date.now() + clock.advance,
  },
  { bus: true },
);

interface Person {
  user: string;
  identificationId: string;
  /** The person's browser on instance A and on instance B (each its own sign-in session). */
  onA: Browser;
  onB: Browser;
}

async function approvedPerson(user: string): Promise<Person> {
  const onA = await env.a.signedIn(user);
  const identificationId = await verifyIn(env.sandbox, onA);
  const onB = await env.b.signedIn(user);
  return { user, identificationId, onA, onB };
}

/** Every person's gated request on both instances: the statuses, A's then B's. */
async function gated(people: Person[]): Promise<number[]> {
  return Promise.all(
    people.flatMap(({ onA, onB }) => [onA, onB].map(async (d) => (await d.get('/api/data')).status)),
  );
}

describe('the service down', () => {
  it('the verified keep going on both instances, the revoked are refused on both, a new visit fails closed', async () => {
    const people = await Promise.all(Array.from({ length: 20 }, (_, i) => approvedPerson(`person-${i}`)));
    // Each opens the gated page on both instances: a visit starts with one read on each.
    expect(await gated(people)).toEqual(Array(40).fill(200));
    const revoked = people.slice(0, 5);
    const kept = people.slice(5);
    const control = createSandboxControl(env.sandbox);
    for (const { identificationId } of revoked) await control.setStatus(identificationId, 'REJECTED');
    // The sandbox's signed webhooks reached instance A (B hears of them through Redis only).
    await until(async () => {
      const deliveries = await Promise.all(
        revoked.map(({ identificationId }) => control.deliveries({ identificationId })),
      );
      return deliveries.every((list) => list.some((d) => d.eventType === 'identification.rejected' && d.ok));
    }, 'the five revocations delivered');
    await env.sandbox.close();

    expect(await gated(kept)).toEqual(Array(30).fill(200));
    expect(await gated(revoked)).toEqual(Array(10).fill(403));
    const newVisit = await env.b.signedIn(kept[0]?.user ?? '');
    const refused = await newVisit.get<{ error: { code: string } }>('/api/data');
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toMatch(/^UPSTREAM_/);

    // Past staleIfErrorMs since their last successful read: every gated request fails closed.
    clock.advance += STALE_IF_ERROR_MS + 1;
    expect(await gated(people)).toEqual(Array(40).fill(503));
  });
});
