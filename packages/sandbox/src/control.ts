import type { IdentificationStatus } from '@verify-kit/client';
import { type Scenario, type SubmittedDocument, TEST_DOCUMENTS } from './documents.js';
import type { OutboxMessage } from './outbox.js';
import type { DecisionStatus, OverrideStatus, SandboxService } from './service.js';
import type { DeliveryAttempt } from './webhook-dispatcher.js';

export type { Scenario } from './documents.js';
export type { OutboxMessage } from './outbox.js';
export type { DecisionStatus, OverrideStatus } from './service.js';
export type { DeliveryAttempt } from './webhook-dispatcher.js';

export interface SandboxControlOptions {
  /** The sandbox's URL, e.g. `sandbox.url` of a started sandbox. */
  url: string;
  /** Sent as `x-api-key`; never part of an error message. */
  apiKey: string;
  /** Per request. Default 10 000 ms. */
  timeoutMs?: number;
}

/** The ids of one verification: the session's (the app's side) and the identification's. */
export interface SessionIds {
  id: string;
  identificationId: string;
}

/** What the mobile app shows for a session (`GET /sandbox/sessions/:id`). */
export type SessionView = ReturnType<SandboxService['appView']>;

export interface DocumentInput {
  /** How the review ends; default `approve`. */
  scenario?: Scenario;
  /** Default: the first test document (a Turkish ID card, ŞEYMA IŞIK). */
  document?: SubmittedDocument;
}

/** A typed client of the sandbox's `/sandbox/*` control API (packages/sandbox/README.md). */
export interface SandboxControl {
  /** What the app does when the person types the code. */
  sessionByCode(code: string): Promise<SessionIds>;
  session(sessionId: string): Promise<SessionView>;
  /** What the person received for this session (the phone's inbox). */
  messages(sessionId: string): Promise<OutboxMessage[]>;
  submitOtp(sessionId: string, code: string): Promise<void>;
  /** Starts the automatic review; answers the status while it runs. */
  submitDocument(sessionId: string, input?: DocumentInput): Promise<{ status: IdentificationStatus }>;
  /** Opens the session by its code and submits a document with `scenario`; answers the ids. */
  submitByCode(code: string, scenario?: Scenario): Promise<SessionIds>;
  /** The reviewer's decision on an identification in `IN_MANUAL_REVIEW`. */
  decide(
    identificationId: string,
    status: DecisionStatus,
  ): Promise<{ id: string; status: IdentificationStatus }>;
  /** Any of the five statuses from any state (e.g. an approval revoked); sends its webhook. */
  setStatus(
    identificationId: string,
    status: OverrideStatus,
  ): Promise<{ id: string; status: IdentificationStatus; previousStatus: IdentificationStatus }>;
  outbox(filter?: { verificationSessionId?: string; recipient?: string }): Promise<OutboxMessage[]>;
  deliveries(filter?: {
    verificationSessionId?: string;
    identificationId?: string;
  }): Promise<DeliveryAttempt[]>;
  /** Moves the sandbox clock forward and applies expiry; answers the new time (ISO). */
  advanceClock(ms: number): Promise<{ now: string }>;
  /** The dashboard's "Test" button: a signed `webhook.test` event about no identification. */
  sendTestWebhook(): Promise<{ webhookId: string }>;
  /** From now on, this share (0 to 1) of webhook events is dropped whole: never sent, never retried. 0 stops it. */
  dropWebhooks(fraction: number): Promise<{ fraction: number }>;
  /** The identification's status, as the v1 API reads it. */
  readStatus(identificationId: string): Promise<IdentificationStatus>;
  /** Polls the sandbox until the identification has `status`; throws after `timeoutMs` (default 5 000). */
  waitForStatus(identificationId: string, status: IdentificationStatus, timeoutMs?: number): Promise<void>;
}

const DEFAULT_DOCUMENT = TEST_DOCUMENTS[0]!.document;
const POLL_EVERY_MS = 10;

type Caller = <T>(name: string, method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>;

/** One control call: the answer's JSON, or an Error naming the call, method, path, status and body. */
function callerOf({ url, apiKey, timeoutMs = 10_000 }: SandboxControlOptions): Caller {
  const base = url.replace(/\/+$/, '');
  return async <T>(name: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        'x-api-key': apiKey,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    if (!response.ok) {
      const shown = apiKey === '' ? text : text.replaceAll(apiKey, '[api key]');
      throw new Error(`sandbox control ${name}: ${method} ${path} answered ${response.status}: ${shown}`);
    }
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
}

const id = encodeURIComponent;

function query(filter: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined) params.set(key, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

async function waitFor(
  read: () => Promise<IdentificationStatus>,
  identificationId: string,
  status: IdentificationStatus,
  waitMs: number,
): Promise<void> {
  const deadline = Date.now() + waitMs;
  let last = await read();
  while (last !== status) {
    if (Date.now() >= deadline) {
      throw new Error(
        `sandbox control waitForStatus: identification ${identificationId} is ${last}, not ${status}, after ${waitMs} ms`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_EVERY_MS));
    last = await read();
  }
}

/** `createSandboxControl(sandbox)` works with a started sandbox, or give `{ url, apiKey }`. */
export function createSandboxControl(options: SandboxControlOptions): SandboxControl {
  const call = callerOf(options);
  const control: SandboxControl = {
    sessionByCode: (code) => call('sessionByCode', 'GET', `/sandbox/sessions/by-code/${id(code)}`),
    session: (sessionId) => call('session', 'GET', `/sandbox/sessions/${id(sessionId)}`),
    messages: async (sessionId) =>
      (
        await call<{ messages: OutboxMessage[] }>(
          'messages',
          'GET',
          `/sandbox/sessions/${id(sessionId)}/messages`,
        )
      ).messages,
    submitOtp: (sessionId, code) =>
      call('submitOtp', 'POST', `/sandbox/sessions/${id(sessionId)}/otp`, { code }),
    submitDocument: (sessionId, { scenario = 'approve', document = DEFAULT_DOCUMENT } = {}) =>
      call('submitDocument', 'POST', `/sandbox/sessions/${id(sessionId)}/documents`, {
        ...document,
        scenario,
      }),
    submitByCode: async (code, scenario) => {
      const ids = await control.sessionByCode(code);
      await control.submitDocument(ids.id, scenario === undefined ? {} : { scenario });
      return ids;
    },
    decide: (identificationId, status) =>
      call('decide', 'POST', `/sandbox/identifications/${id(identificationId)}/decision`, { status }),
    setStatus: (identificationId, status) =>
      call('setStatus', 'POST', `/sandbox/identifications/${id(identificationId)}/status`, { status }),
    outbox: async (filter = {}) =>
      (await call<{ messages: OutboxMessage[] }>('outbox', 'GET', `/sandbox/outbox${query(filter)}`))
        .messages,
    deliveries: async (filter = {}) =>
      (
        await call<{ deliveries: DeliveryAttempt[] }>(
          'deliveries',
          'GET',
          `/sandbox/webhooks/deliveries${query(filter)}`,
        )
      ).deliveries,
    advanceClock: (ms) => call('advanceClock', 'POST', '/sandbox/clock/advance', { ms }),
    sendTestWebhook: () => call('sendTestWebhook', 'POST', '/sandbox/webhooks/test'),
    dropWebhooks: (fraction) => call('dropWebhooks', 'POST', '/sandbox/webhooks/drop', { fraction }),
    readStatus: async (identificationId) =>
      (
        await call<{ status: IdentificationStatus }>(
          'readStatus',
          'GET',
          `/api/v1/identifications/${id(identificationId)}`,
        )
      ).status,
    waitForStatus: (identificationId, status, waitMs = 5_000) =>
      waitFor(() => control.readStatus(identificationId), identificationId, status, waitMs),
  };
  return control;
}
