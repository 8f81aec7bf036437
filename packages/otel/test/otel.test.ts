import { randomBytes } from 'node:crypto';
import { generateWebhookSecret } from '@verify-kit/client';
import { createVerifyKit, type VerifyKit } from '@verify-kit/core';
import { type Sandbox, startSandbox } from '@verify-kit/sandbox';
import {
  approveInSandbox,
  Browser,
  deliverWebhook,
  type FakeUpstream,
  type Listening,
  serveFetch,
  startFakeUpstream,
  until,
} from '@verify-kit/testkit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { METRICS, openTelemetry } from '../src/index.js';
import { everyAttributeValue, inMemorySdk, type Point, pointValue } from './support/sdk.js';

// @verify-kit/otel with the real SDK (sdk-metrics, sdk-trace-base and their in-memory exporters),
// over real HTTP: core's Fetch door (the engine every shell runs) against the real sandbox for
// anonymous visitors, and against a fake upstream for accounts (its outage). A gated visit, a
// refusal, an outage, a limit refusal, webhooks and a long-poll, then the series and spans they
// left, and none of the test's personal data in any attribute.

const sdk = inMemorySdk();
const webhookSecret = generateWebhookSecret();
const ACCOUNT = 'acct-4711-ayse';
const CONTACT = 'ayse.yilmaz@example.com';
const JSON_ACCEPT = { accept: 'application/json' };

let sandbox: Sandbox;
let fake: FakeUpstream;
let server: Listening;
let anonymous: VerifyKit;
let accounts: VerifyKit;
/** What a person's data looks like in this run: none of it may be an attribute. */
const personal: string[] = [ACCOUNT, CONTACT];

beforeAll(async () => {
  [sandbox, fake] = await Promise.all([startSandbox({ port: 0, reviewDelayMs: 0 }), startFakeUpstream()]);
  const instrumentation = openTelemetry({
    meterProvider: sdk.meterProvider,
    tracerProvider: sdk.tracerProvider,
  });
  const secret = randomBytes(32).toString('base64url');
  anonymous = createVerifyKit({
    baseUrl: sandbox.url,
    apiKey: sandbox.apiKey,
    workflowId: 'default',
    basePath: '/identity',
    secret,
    webhookSecret,
    sessionLimit: { perClient: 1 },
    // Only a webhook wakes a long-poll within this test's time: the interval's re-read is 30 s away.
    pollIntervalMs: 30_000,
    instrumentation,
  });
  accounts = createVerifyKit({
    baseUrl: fake.url,
    apiKey: 'sk_fake',
    workflowId: 'default',
    basePath: '/accounts/identity',
    secret,
    accountOf: (request) => request.headers.get('x-account') ?? undefined,
    sessionOptions: () => ({ email: CONTACT }),
    retries: 1,
    instrumentation,
  });
  const gated = async (kit: VerifyKit, request: Request, context: { clientAddress: string }) => {
    const gate = await kit.gate(request, undefined, context);
    return gate.kind === 'granted' ? new Response('welcome', { headers: gate.headers }) : gate.response;
  };
  server = await serveFetch(async (request, context) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/identity/')) return anonymous.handle(request, context);
    if (pathname.startsWith('/accounts/identity/')) return accounts.handle(request, context);
    if (pathname === '/account') return gated(anonymous, request, context);
    if (pathname === '/accounts/page') return gated(accounts, request, context);
    return new Response('not found', { status: 404 });
  });
});

afterAll(async () => {
  await server?.close();
  await Promise.all([anonymous?.close(), accounts?.close()]);
  await Promise.all([sandbox?.close(), fake?.close(), sdk.shutdown()]);
});

let series: Map<string, Point[]>;
const points = (name: string) => series.get(name);

describe('a visit, a refusal, an outage, a limit, webhooks and a long-poll', () => {
  beforeAll(async () => {
    // A visitor with no verification is refused; they start one, are refused while it is reviewed,
    // then are let in by a read and, inside the visit, by the decision their sealed cookie carries.
    const visitor = new Browser(server.url);
    expect((await visitor.get('/account', JSON_ACCEPT)).status).toBe(403);
    const started = await visitor.post<{ sessionCode: string }>('/identity/session');
    expect(started.status).toBe(201);
    personal.push(started.json.sessionCode);
    expect((await visitor.get('/account', JSON_ACCEPT)).status).toBe(403);
    const identificationId = await approveInSandbox(sandbox, started.json.sessionCode);
    personal.push(identificationId);
    expect((await visitor.get('/account', JSON_ACCEPT)).status).toBe(200);
    expect((await visitor.get('/account', JSON_ACCEPT)).status).toBe(200);

    // Webhooks: one accepted, its retry, and one whose signature is not the service's.
    const event = { identificationId, type: 'identification.approved', id: 'msg_otel_1' };
    expect((await deliverWebhook(visitor, { secret: webhookSecret, ...event })).status).toBe(204);
    expect((await deliverWebhook(visitor, { secret: webhookSecret, ...event })).status).toBe(204);
    const forged = await deliverWebhook(visitor, { secret: generateWebhookSecret(), identificationId });
    expect(forged.status).toBe(401);

    // A long-poll woken by a verified webhook: the verification was approved meanwhile.
    const waiting = new Browser(server.url);
    const second = await waiting.post<{ sessionCode: string; phase: string }>('/identity/session');
    const polled = waiting.get<{ phase: string }>(`/identity/status?wait=10&since=${second.json.phase}`);
    await until(async () => {
      series = await sdk.collect();
      return pointValue(points(METRICS.longPollsWaiting.name), {}) === 1;
    }, 'the long-poll waiting');
    const waitingId = await approveInSandbox(sandbox, second.json.sessionCode);
    personal.push(second.json.sessionCode, waitingId);
    const approved = { identificationId: waitingId, type: 'identification.approved' };
    expect((await deliverWebhook(waiting, { secret: webhookSecret, ...approved })).status).toBe(204);
    expect((await polled).json.phase).toBe('approved');

    // The creation limit (one per browser here): a restart of a verification not yet submitted.
    const eager = new Browser(server.url);
    expect((await eager.post('/identity/session')).status).toBe(201);
    expect((await eager.post('/identity/session', { restart: true })).status).toBe(429);

    // Accounts on the fake upstream: approved, then an outage at the start of a new visit (503).
    const member = new Browser(server.url);
    const account = { ...JSON_ACCEPT, 'x-account': ACCOUNT };
    expect((await member.post('/accounts/identity/session', {}, { 'x-account': ACCOUNT })).status).toBe(201);
    const memberId = fake.lastIdentificationId();
    personal.push(memberId, 'ABCD2345');
    fake.statuses.set(memberId, 'APPROVED');
    expect((await member.get('/accounts/page', account)).status).toBe(200);
    fake.mode = '502-html';
    expect((await new Browser(server.url).get('/accounts/page', account)).status).toBe(503);
    fake.mode = 'healthy';

    series = await sdk.collect();
  });

  test('verify_kit.gate.decisions: by result, reason and source', () => {
    const gate = points(METRICS.gateDecisions.name);
    expect(pointValue(gate, { result: 'refused', reason: 'no-binding' })).toBe(1);
    expect(pointValue(gate, { result: 'refused', reason: 'read', source: 'read' })).toBe(1);
    expect(pointValue(gate, { result: 'granted', reason: 'read', source: 'read' })).toBe(2);
    expect(pointValue(gate, { result: 'granted', reason: 'visit-stored', source: 'cookie' })).toBe(1);
    expect(pointValue(gate, { result: 'unavailable', reason: 'UPSTREAM_UNAVAILABLE', source: 'read' })).toBe(
      1,
    );
  });

  test('sessions, webhooks, limits and long-polls', () => {
    expect(pointValue(points(METRICS.sessionsCreated.name), { owner: 'anonymous' })).toBe(3);
    expect(pointValue(points(METRICS.sessionsCreated.name), { owner: 'account' })).toBe(1);
    const webhooks = points(METRICS.webhooksReceived.name);
    expect(pointValue(webhooks, { result: 'accepted', event_type: 'identification.approved' })).toBe(2);
    expect(pointValue(webhooks, { result: 'replayed' })).toBe(1);
    expect(pointValue(webhooks, { result: 'refused', reason: 'WEBHOOK_SIGNATURE_INVALID' })).toBe(1);
    expect(pointValue(points(METRICS.limitRefusals.name), { limit: 'sessions' })).toBe(1);
    expect(pointValue(points(METRICS.longPollsEnded.name), { woken_by: 'webhook' })).toBe(1);
    expect(pointValue(points(METRICS.longPollsWaiting.name), {})).toBe(0);
  });

  test('verify_kit.upstream.duration: seconds, by the HTTP client conventions', () => {
    const upstream = points(METRICS.upstreamDuration.name) ?? [];
    const created = { operation: 'createSession', 'http.request.method': 'POST' };
    expect(pointValue(upstream, { ...created, 'http.response.status_code': 201 })).toBe(4);
    const read = { 'url.template': '/api/v1/identifications/{identificationId}' };
    expect(pointValue(upstream, { ...read, 'http.response.status_code': 200 })).toBeGreaterThanOrEqual(4);
    // The outage: the read and its one retry, each an exchange of its own.
    expect(pointValue(upstream, { ...read, 'error.type': '502', 'http.response.status_code': 502 })).toBe(2);
    for (const point of upstream) {
      expect(point.attributes['server.address']).toBe('127.0.0.1');
      const { sum } = point.value as { sum: number };
      expect(sum).toBeGreaterThan(0);
      expect(sum).toBeLessThan(10); // seconds, not milliseconds
    }
  });

  test('a client span per HTTP request to the service, the outage marked as an error', () => {
    const spans = sdk.spans();
    const creation = spans.find((span) => span.name === 'POST /api/v1/verification-sessions');
    expect(creation?.kind).toBe(2); // SpanKind.CLIENT
    expect(creation?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(sandbox.url).port),
      'http.response.status_code': 201,
      'url.template': '/api/v1/verification-sessions',
    });
    const failed = spans.filter((span) => span.attributes['error.type'] === '502');
    expect(failed.map((span) => [span.name, span.status.code])).toEqual([
      ['GET /api/v1/identifications/{identificationId}', 2], // SpanStatusCode.ERROR
      ['GET /api/v1/identifications/{identificationId}', 2],
    ]);
    expect(failed.map((span) => span.attributes['http.request.resend_count'])).toEqual([undefined, 1]);
    for (const span of spans) {
      const ms = (span.duration[0] * 1e9 + span.duration[1]) / 1e6;
      expect(ms).toBeGreaterThan(0);
    }
  });

  test('no personal data in any attribute: no id, session code, account id or contact', () => {
    const values = everyAttributeValue(series, sdk.spans());
    expect(values.length).toBeGreaterThan(50);
    expect(personal.length).toBe(8);
    const leaks = values.filter((value) => personal.some((data) => value.includes(data)));
    expect(leaks).toEqual([]);
  });

  test('each metric of the table is recorded by this run, under the names the README gives', () => {
    const names = Object.values(METRICS).map((metric) => metric.name);
    expect([...series.keys()].sort()).toEqual(names.sort());
  });
});
