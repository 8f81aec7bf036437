import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { signWebhook, type WebhookPayload } from '@verify-kit/client';
import { keepAliveAgent, postOnce } from './http-post.js';

/**
 * What the dashboard's "Test" button sends: signed like any event, about no identification, so a
 * receiver must acknowledge it and change nothing (docs/architecture.md, decision 13).
 */
export interface TestWebhookPayload {
  type: 'webhook.test';
  timestamp: string;
  data: Record<string, never>;
}

/** One attempt to deliver one event, as `GET /sandbox/webhooks/deliveries` lists it. */
export interface DeliveryAttempt {
  webhookId: string;
  eventType: string;
  /** Absent for a test event. */
  verificationSessionId?: string;
  identificationId?: string;
  attempt: number;
  url: string;
  /** ISO 8601, wall clock. */
  sentAt: string;
  /** The receiver's HTTP status; null when no answer came (refused, reset, timeout). */
  status: number | null;
  ok: boolean;
  error?: string;
  responseBody?: string;
  durationMs: number;
  /** ISO time of the next attempt, or null when this was the last one. */
  nextAttemptAt: string | null;
  /** The event was dropped on purpose (`POST /sandbox/webhooks/drop`): nothing was sent, nor will be. */
  dropped?: true;
  payload: WebhookPayload | TestWebhookPayload;
}

/** The fields of a delivery attempt that name its event: the id, the type, the identification it is about. */
function eventOf(
  webhookId: string,
  payload: WebhookPayload | TestWebhookPayload,
): Pick<DeliveryAttempt, 'webhookId' | 'eventType' | 'verificationSessionId' | 'identificationId'> {
  return {
    webhookId,
    eventType: String(payload.type),
    ...('verificationSessionId' in payload.data
      ? {
          verificationSessionId: payload.data.verificationSessionId,
          identificationId: payload.data.identificationId,
        }
      : {}),
  };
}

export interface WebhookDispatcherOptions {
  url: string;
  secret: string;
  retryBaseMs: number;
  maxAttempts: number;
  timeoutMs: number;
  maxLog?: number;
}

const MAX_RETRY_DELAY_MS = 60_000;

/**
 * Sends Standard Webhooks (docs/architecture.md, decision 13): each event gets one `webhook-id`, kept across
 * retries; each attempt is signed with its own timestamp. A non-2xx answer or a network error is
 * retried with exponential backoff and jitter.
 */
export class WebhookDispatcher {
  private readonly log: DeliveryAttempt[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly abort = new AbortController();
  private readonly inFlight = new Set<Promise<void>>();

  private readonly agent: ReturnType<typeof keepAliveAgent>;
  /** The share of events dropped whole (no attempt, no retry): a network that loses deliveries. */
  private dropFraction = 0;

  constructor(private readonly options: WebhookDispatcherOptions) {
    this.agent = keepAliveAgent(options.url);
    // Every delivery in flight listens to this one signal: many at once is normal, not a leak.
    setMaxListeners(0, this.abort.signal);
  }

  send(payload: WebhookPayload | TestWebhookPayload): string {
    const webhookId = `msg_${randomUUID()}`;
    const body = JSON.stringify(payload);
    if (this.dropFraction > 0 && Math.random() < this.dropFraction) this.recordDropped(webhookId, payload);
    else this.attempt(webhookId, payload, body, 1);
    return webhookId;
  }

  /** From now on, drop this share of events (0 to 1) whole; 0 delivers every one again. */
  dropDeliveries(fraction: number): void {
    this.dropFraction = fraction;
  }

  get droppedFraction(): number {
    return this.dropFraction;
  }

  deliveries(filter: { verificationSessionId?: string; identificationId?: string } = {}): DeliveryAttempt[] {
    return this.log.filter(
      (d) =>
        (filter.verificationSessionId === undefined ||
          d.verificationSessionId === filter.verificationSessionId) &&
        (filter.identificationId === undefined || d.identificationId === filter.identificationId),
    );
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.abort.abort();
    await Promise.allSettled([...this.inFlight]);
    this.agent.destroy();
  }

  private attempt(
    webhookId: string,
    payload: WebhookPayload | TestWebhookPayload,
    body: string,
    attempt: number,
  ): void {
    if (this.abort.signal.aborted) return;
    const run = this.deliver(webhookId, payload, body, attempt).finally(() => this.inFlight.delete(run));
    this.inFlight.add(run);
  }

  private async deliver(
    webhookId: string,
    payload: WebhookPayload | TestWebhookPayload,
    body: string,
    attempt: number,
  ): Promise<void> {
    const started = Date.now();
    const timestamp = Math.floor(started / 1000);
    let status: number | null = null;
    let responseBody: string | undefined;
    let error: string | undefined;
    try {
      const headers = {
        'content-type': 'application/json',
        'user-agent': 'verify-kit-sandbox',
        'webhook-id': webhookId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook({ secret: this.options.secret, id: webhookId, timestamp, body }),
      };
      const result = await postOnce(
        this.options.url,
        headers,
        body,
        this.options.timeoutMs,
        this.abort.signal,
        this.agent,
      );
      status = result.status;
      responseBody = result.body;
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
    }
    if (this.abort.signal.aborted) return;
    const ok = status !== null && status >= 200 && status < 300;
    const retry = !ok && attempt < this.options.maxAttempts;
    const delay = retry ? this.retryDelay(attempt) : 0;
    this.record({
      ...eventOf(webhookId, payload),
      attempt,
      url: this.options.url,
      sentAt: new Date(started).toISOString(),
      status,
      ok,
      ...(error === undefined ? {} : { error }),
      ...(responseBody === undefined ? {} : { responseBody }),
      durationMs: Date.now() - started,
      nextAttemptAt: retry ? new Date(Date.now() + delay).toISOString() : null,
      payload,
    });
    if (!retry) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.attempt(webhookId, payload, body, attempt + 1);
    }, delay);
    timer.unref();
    this.timers.add(timer);
  }

  /** base * 2^(attempt-1), capped, times a random factor in [0.5, 1) ("equal jitter"). */
  private retryDelay(attempt: number): number {
    const exp = Math.min(MAX_RETRY_DELAY_MS, this.options.retryBaseMs * 2 ** (attempt - 1));
    return Math.round(exp * (0.5 + Math.random() * 0.5));
  }

  private recordDropped(webhookId: string, payload: WebhookPayload | TestWebhookPayload): void {
    this.record({
      ...eventOf(webhookId, payload),
      attempt: 1,
      url: this.options.url,
      sentAt: new Date().toISOString(),
      status: null,
      ok: false,
      error: 'dropped on purpose (POST /sandbox/webhooks/drop)',
      durationMs: 0,
      nextAttemptAt: null,
      dropped: true,
      payload,
    });
  }

  private record(entry: DeliveryAttempt): void {
    this.log.push(entry);
    const max = this.options.maxLog ?? 2000;
    if (this.log.length > max) this.log.splice(0, this.log.length - max);
  }
}
