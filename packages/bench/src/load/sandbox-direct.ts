import { TEST_DOCUMENTS } from '@verify-kit/sandbox';
import { type Dispatcher, request } from 'undici';

export type ReviewScenario = 'approve' | 'manual_review' | 'resubmit' | 'reject';

export interface SandboxAnswer<T> {
  status: number;
  json: T | undefined;
}

const DOCUMENT = TEST_DOCUMENTS[0]!.document;

/**
 * Talks to the sandbox directly, never through the kit or a proxy: as the person's phone (by code,
 * documents: no key) and as the tester (identification reads, decisions, clock: with the key).
 * The key stays on this side; the kit's users never see it.
 */
export class SandboxDirect {
  constructor(
    readonly url: string,
    private readonly apiKey: string,
    private readonly dispatcher: Dispatcher,
  ) {}

  async #call<T>(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    withKey = false,
  ): Promise<SandboxAnswer<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (withKey) headers['x-api-key'] = this.apiKey;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await request(`${this.url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      dispatcher: this.dispatcher,
      headersTimeout: 30_000,
      bodyTimeout: 30_000,
    });
    const text = await response.body.text();
    let json: T | undefined;
    try {
      json = text === '' ? undefined : (JSON.parse(text) as T);
    } catch {
      json = undefined;
    }
    return { status: response.statusCode, json };
  }

  /** The phone types the code: `{ id, identificationId }` of the live session. */
  byCode(code: string) {
    return this.#call<{ id: string; identificationId: string }>(
      'GET',
      `/sandbox/sessions/by-code/${encodeURIComponent(code)}`,
    );
  }

  /** The phone submits the test ID card; the scenario decides the review's outcome. */
  submit(sessionId: string, scenario: ReviewScenario) {
    return this.#call<{ status: string }>(
      'POST',
      `/sandbox/sessions/${encodeURIComponent(sessionId)}/documents`,
      {
        ...DOCUMENT,
        scenario,
      },
    );
  }

  /** The truth: the identification as the sandbox holds it (with the key). */
  identification(identificationId: string) {
    return this.#call<{ id: string; status: string }>(
      'GET',
      `/api/v1/identifications/${encodeURIComponent(identificationId)}`,
      undefined,
      true,
    );
  }

  /** A reviewer's decision on an identification in IN_MANUAL_REVIEW. */
  decide(identificationId: string, status: 'APPROVED' | 'REJECTED' | 'RESUBMISSION_REQUIRED') {
    return this.#call<{ id: string; status: string }>(
      'POST',
      `/sandbox/identifications/${encodeURIComponent(identificationId)}/decision`,
      { status },
      true,
    );
  }

  /** The latest webhook delivery attempts (up to 2000) as the sandbox logged them. */
  webhookDeliveries() {
    return this.#call<{ deliveries: { ok: boolean; durationMs: number; eventType: string }[] }>(
      'GET',
      '/sandbox/webhooks/deliveries',
      undefined,
      true,
    );
  }

  /** Moves the sandbox clock and applies expiry and eviction at once. */
  advanceClock(ms: number) {
    return this.#call<{ now: string }>('POST', '/sandbox/clock/advance', { ms }, true);
  }
}
