// The gate's one decision (core.decide) through every rule, as a table: in a visit, idle, another
// owner's; fresh, past maxAgeMs, within and past staleIfErrorMs; retired; a verified refusal; a read
// failing with a timeout, a 5xx, a 429, a 404. A fake clock and the memory store; the service's
// answers come from undici's MockAgent (no socket).
import { createClient } from '@verify-kit/client';
import type { StoredDecision } from '@verify-kit/core/internal/bindings/binding-store';
import type { KitRequest, VisitMarker } from '@verify-kit/core/internal/bindings/kit-request';
import { RETIRED_AT } from '@verify-kit/core/internal/decisions/stored-decision';
import { KitCore } from '@verify-kit/core/internal/wiring/core';
import { resolveOptions } from '@verify-kit/core/internal/wiring/options';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';

const ORIGIN = 'https://idv.example.com';
const ID = 'id-1';
const T0 = 1_800_000_000_000;
const MAX_AGE = 60_000;
const STALE_IF_ERROR = 600_000;
const VISIT_IDLE = 1_800_000;

type Answer = 'APPROVED' | 'REJECTED' | 500 | 429 | 404 | 'timeout' | 'none';

interface Row {
  rule: string;
  bound?: false;
  /** The visit marker in the session: this account's, idle too long, or another account's. */
  visit?: 'in' | 'idle' | 'other-owner';
  /** The stored decision, `age` ms old. */
  stored?: Omit<StoredDecision, 'at'> & { age: number };
  freshness?: 'visit' | 'every-request';
  /** What the service answers a read (`none`: the test fails if one is made at once). */
  service: Answer;
  verdict: [kind: string, reason: string];
  /** Reads the decision made, its own and one in the background. */
  reads?: number;
}

const approved = (age: number) => ({ status: 'APPROVED', source: 'read' as const, age });

const TABLE: Row[] = [
  { rule: 'nothing bound', bound: false, service: 'none', verdict: ['unbound', 'no-binding'], reads: 0 },
  { rule: 'a new visit reads: approved', service: 'APPROVED', verdict: ['granted', 'read'], reads: 1 },
  { rule: 'a new visit reads: rejected', service: 'REJECTED', verdict: ['refused', 'read'] },
  {
    rule: 'a new visit, the service down: fail closed',
    service: 500,
    verdict: ['unavailable', 'UPSTREAM_UNAVAILABLE'],
  },
  { rule: 'a new visit, the service gone (404)', service: 404, verdict: ['unbound', 'gone'] },
  { rule: 'a new visit, a timeout', service: 'timeout', verdict: ['unavailable', 'UPSTREAM_TIMEOUT'] },
  {
    rule: 'in a visit, a fresh stored APPROVED: no read',
    visit: 'in',
    stored: approved(1000),
    service: 'none',
    verdict: ['granted', 'visit-stored'],
    reads: 0,
  },
  {
    rule: 'in a visit, past maxAgeMs: granted, re-read in the background',
    visit: 'in',
    stored: approved(MAX_AGE + 1),
    service: 'APPROVED',
    verdict: ['granted', 'visit-stored'],
    reads: 1,
  },
  {
    rule: 'in a visit, past maxAgeMs and within staleIfErrorMs, the service down: served',
    visit: 'in',
    stored: approved(MAX_AGE + 1),
    service: 500,
    verdict: ['granted', 'visit-stored'],
  },
  {
    rule: 'in a visit, past staleIfErrorMs, the service down: fail closed',
    visit: 'in',
    stored: approved(STALE_IF_ERROR + 1),
    service: 500,
    verdict: ['unavailable', 'UPSTREAM_UNAVAILABLE'],
  },
  {
    rule: 'in a visit, past staleIfErrorMs, a 429: fail closed',
    visit: 'in',
    stored: approved(STALE_IF_ERROR + 1),
    service: 429,
    verdict: ['unavailable', 'UPSTREAM_RATE_LIMITED'],
  },
  {
    rule: 'in a visit, a stored refusal is read again: approved since',
    visit: 'in',
    stored: { status: 'REJECTED', source: 'read', age: 1000 },
    service: 'APPROVED',
    verdict: ['granted', 'read'],
  },
  {
    rule: 'in a visit, a stored refusal, the service down: refused as it last said',
    visit: 'in',
    stored: { status: 'REJECTED', source: 'read', age: 1000 },
    service: 500,
    verdict: ['refused', 'stored-refusal'],
  },
  {
    rule: 'in a visit, a stored refusal, a 404: gone, nothing stored stands in',
    visit: 'in',
    stored: { status: 'REJECTED', source: 'read', age: 1000 },
    service: 404,
    verdict: ['unbound', 'gone'],
  },
  {
    rule: 'a verified refusal moments ago holds against a read still saying APPROVED',
    visit: 'in',
    stored: { status: 'REJECTED', source: 'webhook', age: 1000 },
    service: 'APPROVED',
    verdict: ['refused', 'read'],
  },
  {
    rule: 'a verified refusal past the settling time: a read saying APPROVED grants',
    visit: 'in',
    stored: { status: 'REJECTED', source: 'webhook', age: 10_000 },
    service: 'APPROVED',
    verdict: ['granted', 'read'],
  },
  {
    rule: 'retired (a new verification, forget): read, never the stored decision',
    visit: 'in',
    stored: { status: null, source: 'webhook', age: 0 },
    service: 'REJECTED',
    verdict: ['refused', 'read'],
  },
  {
    rule: 'an idle visit is a new one: read',
    visit: 'idle',
    stored: approved(1000),
    service: 500,
    verdict: ['unavailable', 'UPSTREAM_UNAVAILABLE'],
  },
  {
    rule: 'another owner’s visit marker counts for nothing: read',
    visit: 'other-owner',
    stored: approved(1000),
    service: 'REJECTED',
    verdict: ['refused', 'read'],
  },
  {
    rule: 'every-request: a read even inside a visit',
    visit: 'in',
    stored: approved(1000),
    freshness: 'every-request',
    service: 'REJECTED',
    verdict: ['refused', 'read'],
    reads: 1,
  },
];

/** A kit on the fake clock, with `row`'s service, binding, stored decision and session. */
function setUp(row: Row) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(ORIGIN);
  let reads = 0;
  const read = pool.intercept({ path: `/api/v1/identifications/${ID}`, method: 'GET' });
  const answer = row.service;
  if (answer !== 'none') {
    const reply = (): { statusCode: number; data: string } => {
      reads++;
      if (typeof answer === 'number') return { statusCode: answer, data: '{"error":{"code":"X"}}' };
      const status = answer === 'timeout' ? 'APPROVED' : answer;
      return { statusCode: 200, data: JSON.stringify({ id: ID, status }) };
    };
    const scope = read.reply(reply).persist();
    if (answer === 'timeout') scope.delay(500);
  }
  const core = new KitCore(
    resolveOptions({
      baseUrl: ORIGIN,
      apiKey: 'sk_test_decide',
      workflowId: 'default',
      accountOf: () => 'ada',
      dispatcher: agent,
      retries: 0,
      timeoutMs: 100,
      maxAgeMs: MAX_AGE,
      staleIfErrorMs: STALE_IF_ERROR,
      visitIdleMs: VISIT_IDLE,
      now: () => T0,
      logger: {},
    }),
    { connect: (config) => createClient({ ...config, dispatcher: agent }) },
  );
  const store = core.bindings.store;
  if (row.bound !== false) {
    store.bindings.set('ada', {
      verificationSessionId: 'vs-1',
      identificationId: ID,
      deepLink: 'idv://x',
      sessionCode: 'ABCD2345',
      sessionPageLink: `${ORIGIN}/p`,
      expiresAt: new Date(T0 + 600_000).toISOString(),
    });
  }
  if (row.stored !== undefined) {
    const { age, ...decision } = row.stored;
    const at = decision.status === null ? RETIRED_AT : T0 - age;
    store.decisions.put(ID.toLowerCase(), { ...decision, at }, STALE_IF_ERROR * 2);
  }
  const session: { visit?: VisitMarker | undefined } = {};
  if (row.visit !== undefined) {
    const seenAt = row.visit === 'idle' ? T0 - VISIT_IDLE - 1 : T0 - 1000;
    const accountId = row.visit === 'other-owner' ? 'eve' : 'ada';
    session.visit = { identificationId: ID, accountId, seenAt };
  }
  // The account's request: its browser session holds the visit marker and no anonymous binding.
  const req: KitRequest = {
    raw: {},
    address: '192.0.2.1',
    sessionKey: 'session-1',
    present: async () => true,
    visitor: {
      binding: () => undefined,
      heldBinding: () => undefined,
      bind: async () => undefined,
      approve: async () => undefined,
      forget: () => undefined,
      visit: () => session.visit,
      setVisit: (marker) => {
        session.visit = marker;
      },
      clientId: () => undefined,
      setClientId: () => undefined,
    },
  };
  return { core, req, session, reads: () => reads, close: () => agent.close() };
}

describe('core.decide: one verdict per gated request, through every rule', () => {
  it.each(TABLE)('$rule', async (row) => {
    const { core, req, session, reads, close } = setUp(row);
    try {
      const options = row.freshness === undefined ? {} : { freshness: row.freshness };
      const verdict = await core.decide(req, options);
      expect([verdict.kind, verdict.reason]).toEqual(row.verdict);
      // A grant from a read outside a visit starts one.
      if (verdict.kind === 'granted' && verdict.reason === 'read' && row.visit !== 'in') {
        expect(session.visit).toMatchObject({ identificationId: ID, accountId: 'ada', seenAt: T0 });
      }
      if (row.reads !== undefined) {
        await new Promise((resolve) => setTimeout(resolve, 20)); // a background re-read lands
        expect(reads()).toBe(row.reads);
      }
    } finally {
      await core.close();
      await close();
    }
  });

  it('inside a visit with the memory store the verdict is there at once, with no step of waiting', () => {
    const { core, req } = setUp({
      rule: '',
      visit: 'in',
      stored: approved(1000),
      service: 'none',
      verdict: ['', ''],
    });
    const verdict = core.decide(req);
    expect(verdict).not.toBeInstanceOf(Promise);
    expect(verdict).toMatchObject({ kind: 'granted', reason: 'visit-stored', identificationId: ID });
    return core.close();
  });
});
