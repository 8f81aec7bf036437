import { createSandboxControl, type SandboxControl } from '../src/control.js';
import { type Sandbox, type SandboxOptions, startSandbox, TEST_DOCUMENTS } from '../src/index.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers are read field by field in assertions
export type Json = any;

export const API_KEY = 'sk_test_sandbox_key';

export interface Answer<T = Json> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A started sandbox and small HTTP helpers bound to it (real HTTP on 127.0.0.1). */
export interface Harness {
  sandbox: Sandbox;
  url: string;
  control: SandboxControl;
  request<T = Json>(
    method: string,
    path: string,
    init?: RequestInit & { json?: unknown; key?: string | null },
  ): Promise<Answer<T>>;
  createSession(body?: Record<string, unknown>): Promise<CreatedSession>;
  submit(sessionId: string, doc?: Record<string, unknown>): Promise<Answer>;
  confirmOtp(sessionId: string): Promise<void>;
  read(identificationId: string): Promise<Answer<Json>>;
  /** Waits until the automatic review of the latest document has finished; answers the status. */
  reviewed(sessionId: string, identificationId: string): Promise<string>;
}

export interface CreatedSession {
  id: string;
  identificationId: string;
  sessionCode: string;
  deepLink: string;
  qrCodeLink: string;
  sessionPageLink: string;
  expiresAt: string;
}

/** The document the harness submits unless told otherwise: the simulator's Turkish ID card of ŞEYMA IŞIK. */
export const SEYMA = TEST_DOCUMENTS.find((d) => d.id === 'tr-id-card')!.document;

export async function harness(options: SandboxOptions = {}): Promise<Harness> {
  const sandbox = await startSandbox({ apiKey: API_KEY, reviewDelayMs: 0, ...options });
  const url = sandbox.url;

  const request = async <T = Json>(
    method: string,
    path: string,
    init: RequestInit & { json?: unknown; key?: string | null } = {},
  ): Promise<Answer<T>> => {
    const { json, key, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key !== null && !headers.has('x-api-key')) headers.set('x-api-key', key ?? sandbox.apiKey);
    let body = rest.body;
    if (json !== undefined) {
      headers.set('content-type', 'application/json');
      body = JSON.stringify(json);
    }
    const res = await fetch(`${url}${path}`, { ...rest, method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    if (res.headers.get('content-type')?.includes('json')) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  };

  const createSession: Harness['createSession'] = async (body = {}) => {
    const res = await request('POST', '/api/v1/verification-sessions', {
      json: { workflowId: 'default', locale: 'en', sendOTP: false, ...body },
    });
    if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.text}`);
    return res.body as CreatedSession;
  };

  const submit: Harness['submit'] = (sessionId, doc = {}) =>
    request('POST', `/sandbox/sessions/${sessionId}/documents`, { json: { ...SEYMA, ...doc }, key: null });

  const control = createSandboxControl(sandbox);
  const confirmOtp: Harness['confirmOtp'] = async (sessionId) => {
    const otp = (await control.messages(sessionId)).filter((m) => m.kind === 'otp').at(-1)?.otp;
    await control.submitOtp(sessionId, otp ?? '');
  };

  const read: Harness['read'] = (identificationId) =>
    request('GET', `/api/v1/identifications/${identificationId}`);

  const reviewed: Harness['reviewed'] = async (sessionId, identificationId) => {
    for (let i = 0; i < 400; i++) {
      const view = await request('GET', `/sandbox/sessions/${sessionId}`, { key: null });
      if (view.status === 200 && !view.body.inReview) return (await read(identificationId)).body.status;
      if (view.status === 410) {
        const status = (await read(identificationId)).body.status;
        if (status !== 'IN_AUTOMATIC_REVIEW') return status;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('the review did not finish');
  };

  return { sandbox, url, control, request, createSession, submit, confirmOtp, read, reviewed };
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
