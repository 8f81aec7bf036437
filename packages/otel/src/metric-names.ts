// Every series @verify-kit/otel records, named once: the README's table is checked against this
// (test/readme.test.ts), and the Prometheus names an operator queries follow from it.

/** The semantic conventions' buckets for HTTP durations (seconds): `http.client.request.duration`'s. */
export const DURATION_BUCKETS_SECONDS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
] as const;

export const METRICS = {
  gateDecisions: {
    name: 'verify_kit.gate.decisions',
    kind: 'counter',
    unit: '{decision}',
    description: 'Gated requests decided, by result (granted, refused, unavailable), reason and source',
    attributes: ['result', 'reason', 'source'],
  },
  upstreamDuration: {
    name: 'verify_kit.upstream.duration',
    kind: 'histogram',
    unit: 's',
    description: 'Duration of each HTTP request to the identity verification service, retries apart',
    attributes: [
      'operation',
      'http.request.method',
      'url.template',
      'server.address',
      'server.port',
      'http.response.status_code',
      'error.type',
    ],
  },
  sessionsCreated: {
    name: 'verify_kit.sessions.created',
    kind: 'counter',
    unit: '{session}',
    description: 'Verification sessions created at the service, by owner (account, anonymous)',
    attributes: ['owner'],
  },
  webhooksReceived: {
    name: 'verify_kit.webhooks.received',
    kind: 'counter',
    unit: '{webhook}',
    description: 'Webhooks received, by result (accepted, replayed, ignored, refused), event type and reason',
    attributes: ['result', 'event_type', 'reason'],
  },
  limitRefusals: {
    name: 'verify_kit.limit.refusals',
    kind: 'counter',
    unit: '{refusal}',
    description: "Requests refused by one of the kit's own limits, by limit",
    attributes: ['limit'],
  },
  longPollsWaiting: {
    name: 'verify_kit.long_polls.waiting',
    kind: 'updowncounter',
    unit: '{request}',
    description: 'Long-polls (GET /status?wait=) held open now',
    attributes: [],
  },
  longPollsEnded: {
    name: 'verify_kit.long_polls.ended',
    kind: 'counter',
    unit: '{request}',
    description:
      'Long-polls answered, by what woke them (webhook, poll, timeout, client-gone, shutdown, error)',
    attributes: ['woken_by'],
  },
} as const;

export type MetricSpec = (typeof METRICS)[keyof typeof METRICS];
