import type { Attributes, Counter, Histogram, Meter, MetricOptions, UpDownCounter } from '@opentelemetry/api';
import type { KitEvent, UpstreamRequestEvent } from '@verify-kit/core';
import { DURATION_BUCKETS_SECONDS, METRICS, type MetricSpec } from './metric-names.js';

/** Histogram bucket advice (API 1.7 and later type it; older SDKs ignore it, newer ones honour it). */
type AdvisedOptions = MetricOptions & { advice?: { explicitBucketBoundaries?: number[] } };

const options = (spec: MetricSpec): MetricOptions => ({ description: spec.description, unit: spec.unit });

/** The semantic conventions' attributes of an HTTP exchange with the service (no id: the path's template). */
export function upstreamAttributes(event: UpstreamRequestEvent): Attributes {
  const attributes: Attributes = {
    operation: event.operation,
    'http.request.method': event.method,
    'url.template': event.urlTemplate,
    'server.address': event.serverAddress,
    'server.port': event.serverPort,
  };
  if (event.status !== undefined) attributes['http.response.status_code'] = event.status;
  const errorType = errorTypeOf(event);
  if (errorType !== undefined) attributes['error.type'] = errorType;
  return attributes;
}

/** `error.type` as the HTTP conventions say: the status for an HTTP error, else the client's error code. */
export function errorTypeOf(event: UpstreamRequestEvent): string | undefined {
  if (event.status !== undefined && event.status >= 400) return String(event.status);
  return event.error;
}

/** The instruments of one Meter, and each event recorded on them. */
export class KitMetrics {
  readonly #gate: Counter;
  readonly #upstream: Histogram;
  readonly #sessions: Counter;
  readonly #webhooks: Counter;
  readonly #limits: Counter;
  readonly #waiting: UpDownCounter;
  readonly #ended: Counter;

  constructor(meter: Meter) {
    this.#gate = meter.createCounter(METRICS.gateDecisions.name, options(METRICS.gateDecisions));
    const advised: AdvisedOptions = {
      ...options(METRICS.upstreamDuration),
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS_SECONDS] },
    };
    this.#upstream = meter.createHistogram(METRICS.upstreamDuration.name, advised);
    this.#sessions = meter.createCounter(METRICS.sessionsCreated.name, options(METRICS.sessionsCreated));
    this.#webhooks = meter.createCounter(METRICS.webhooksReceived.name, options(METRICS.webhooksReceived));
    this.#limits = meter.createCounter(METRICS.limitRefusals.name, options(METRICS.limitRefusals));
    this.#waiting = meter.createUpDownCounter(
      METRICS.longPollsWaiting.name,
      options(METRICS.longPollsWaiting),
    );
    this.#ended = meter.createCounter(METRICS.longPollsEnded.name, options(METRICS.longPollsEnded));
  }

  record(event: KitEvent): void {
    switch (event.type) {
      case 'gate.decision': {
        const attributes: Attributes = { result: event.result, reason: event.reason };
        if (event.source !== undefined) attributes.source = event.source;
        this.#gate.add(1, attributes);
        return;
      }
      case 'upstream.request':
        this.#upstream.record(event.durationMs / 1000, upstreamAttributes(event));
        return;
      case 'session.created':
        this.#sessions.add(1, { owner: event.owner });
        return;
      case 'webhook.received': {
        const attributes: Attributes = { result: event.result };
        if (event.eventType !== undefined) attributes.event_type = event.eventType;
        if (event.reason !== undefined) attributes.reason = event.reason;
        this.#webhooks.add(1, attributes);
        return;
      }
      case 'limit.refused':
        this.#limits.add(1, { limit: event.limit });
        return;
      case 'long-poll.waiting':
        this.#waiting.add(1);
        return;
      case 'long-poll.ended':
        this.#waiting.add(-1);
        this.#ended.add(1, { woken_by: event.wokenBy });
        return;
    }
  }
}
