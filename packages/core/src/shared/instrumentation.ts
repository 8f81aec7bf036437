import type { UpstreamAttempt } from '@verify-kit/client/fetch';
import { isErrorCode } from '@verify-kit/protocol';
import { isVerifyKitError } from '@verify-kit/protocol/errors';
import type { Log } from './log.js';

// The engine's instrumentation hook: what the kit does, told as plain events to one listener (the
// `instrumentation` option), with no dependency and nothing of Node (@verify-kit/otel maps them to
// OpenTelemetry; a listener of your own can count them anywhere). No event carries personal data:
// no identification id, session code, account id or contact, by construction (no field holds one).
// Without a listener the kit calls nothing: each place that tells is `core.instrument?.(…)`, which
// neither builds the event nor calls anything.

/** A gated request's decision (requireApproved, kit.gate, the Next.js proxy). */
export interface GateDecisionEvent {
  type: 'gate.decision';
  result: 'granted' | 'refused' | 'unavailable';
  /**
   * granted: `visit-stored` (the visit's stored decision) or `read`; refused: `read`,
   * `stored-refusal` (inside a visit, the stored refusal while the service failed), `no-binding`
   * (no verification started) or `gone` (the service no longer has it); unavailable: the error code
   * (`UPSTREAM_TIMEOUT`, `UPSTREAM_UNAVAILABLE`, `UPSTREAM_UNKNOWN_STATUS`, `BINDING_STORE_UNAVAILABLE`…).
   */
  reason: string;
  /**
   * Where the status decided came from: `read` from the service now, the `store`, or the `cookie`
   * (the anonymous visitor's sealed cookie carried it: no shared store). Absent without a
   * verification, and when the gate failed before any status.
   */
  source?: 'read' | 'store' | 'cookie';
}

/** One HTTP exchange with the service (each retry its own), as the client saw it. */
export interface UpstreamRequestEvent extends UpstreamAttempt {
  type: 'upstream.request';
}

/** A verification session created at the service (POST /session that was not a resume). */
export interface SessionCreatedEvent {
  type: 'session.created';
  /** Bound to a signed-in account (accountOf) or to an anonymous browser. */
  owner: 'account' | 'anonymous';
}

/** A `POST /webhook`. */
export interface WebhookReceivedEvent {
  type: 'webhook.received';
  /**
   * `accepted`: verified, new and for the kit; `replayed`: a delivery already accepted (2xx again);
   * `ignored`: verified but of a shape the kit does not know (a test ping); `refused`: not verified
   * or not taken (4xx/5xx), changing nothing.
   */
  result: 'accepted' | 'replayed' | 'ignored' | 'refused';
  /** accepted: the signed event's type, e.g. `identification.approved` (`other` beyond 64 of [a-z0-9_.-]). */
  eventType?: string;
  /** refused: the error code, e.g. `WEBHOOK_SIGNATURE_INVALID`, `WEBHOOK_TIMESTAMP_STALE`. */
  reason?: string;
}

/** A request refused by one of the kit's own limits (429). */
export interface LimitRefusalEvent {
  type: 'limit.refused';
  /**
   * `sessions` (sessionLimit), `long-polls` (4 per verification, maxLongPolls per process),
   * `status-reads` (readLimit and upstreamReadsPerSecond: the read is refused or answered from the
   * last one), `sends` (sendLink.perHour and its per-recipient counts).
   */
  limit: 'sessions' | 'long-polls' | 'status-reads' | 'sends';
}

/** A `GET /status?wait=…` held open, waiting for the phase to change. */
export interface LongPollWaitingEvent {
  type: 'long-poll.waiting';
}

/** A held long-poll answered (or abandoned). */
export interface LongPollEndedEvent {
  type: 'long-poll.ended';
  /**
   * `webhook`: a change seen by the read a verified webhook started; `poll`: a change seen by the
   * interval's re-read; `timeout`: nothing changed within `wait`; `client-gone`; `shutdown`;
   * `error`: the re-read failed.
   */
  wokenBy: 'webhook' | 'poll' | 'timeout' | 'client-gone' | 'shutdown' | 'error';
  durationMs: number;
}

export type KitEvent =
  | GateDecisionEvent
  | UpstreamRequestEvent
  | SessionCreatedEvent
  | WebhookReceivedEvent
  | LimitRefusalEvent
  | LongPollWaitingEvent
  | LongPollEndedEvent;

/**
 * The `instrumentation` option: told each event synchronously, on the request's path (keep it
 * cheap: count, or hand off). What it throws is logged once and never reaches a request.
 */
export type Instrumentation = (event: KitEvent) => void;

/** How the engine tells an event; undefined when nobody listens (`core.instrument?.(…)`). */
export type Instrument = (event: KitEvent) => void;

export function createInstrument(listener: Instrumentation | undefined, log: Log): Instrument | undefined {
  if (listener === undefined) return undefined;
  let warned = false;
  return (event) => {
    try {
      listener(event);
    } catch (error) {
      if (warned) return;
      warned = true;
      log.warn('instrumentation threw; its errors are ignored (said once)', {
        type: event.type,
        error: error instanceof Error ? error.name : typeof error,
      });
    }
  };
}

/** An error as an event's reason: one of verify-kit's codes, else `INTERNAL_ERROR` (an app's own codes are not bounded). */
export function reasonOf(error: unknown): string {
  return isVerifyKitError(error) && isErrorCode(error.code) ? error.code : 'INTERNAL_ERROR';
}

const EVENT_TYPE = /^[a-z0-9_.-]{1,64}$/;

/** A signed event's type as an attribute: as sent when it looks like one, else `other`. */
export function eventTypeOf(type: string): string {
  return EVENT_TYPE.test(type) ? type : 'other';
}
