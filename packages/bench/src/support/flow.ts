import { TEST_DOCUMENTS } from '@verify-kit/sandbox';
import { request } from 'undici';
import { waitFor } from './stats.js';

/** Steps of a verification driven over HTTP, as a browser and the person's phone would. */

type Headers = Record<string, string | string[] | undefined>;

export function cookieFrom(headers: Headers, previous?: string): string | undefined {
  const raw = headers['set-cookie'];
  const first = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((c) => c.startsWith('connect.sid='));
  return first?.split(';')[0] ?? previous;
}

async function json<T>(what: string, answer: Awaited<ReturnType<typeof request>>, expected: number) {
  const body = await answer.body.text();
  if (answer.statusCode !== expected) {
    throw new Error(`${what}: expected ${expected}, got ${answer.statusCode} ${body.slice(0, 200)}`);
  }
  return (body ? JSON.parse(body) : null) as T;
}

/** POST {app}/identity/session as a fresh browser session: the new cookie and the session code. */
export async function startVerification(appUrl: string) {
  const answer = await request(`${appUrl}/identity/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: '{}',
  });
  const body = await json<{ sessionCode: string }>('POST /identity/session', answer, 201);
  const cookie = cookieFrom(answer.headers);
  if (cookie === undefined) throw new Error('POST /identity/session set no session cookie');
  return { cookie, sessionCode: body.sessionCode };
}

/** The sandbox's ids of a session, found by its code (as the simulator does). */
export async function sessionByCode(sandboxUrl: string, code: string) {
  const answer = await request(`${sandboxUrl}/sandbox/sessions/by-code/${encodeURIComponent(code)}`);
  return json<{ id: string; identificationId: string }>('GET /sandbox/sessions/by-code', answer, 200);
}

export async function submitDocument(sandboxUrl: string, sessionId: string, scenario: string) {
  const answer = await request(`${sandboxUrl}/sandbox/sessions/${sessionId}/documents`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...TEST_DOCUMENTS[0]!.document, scenario }),
  });
  await json('POST /sandbox/sessions/:id/documents', answer, 202);
}

export async function upstreamStatus(sandboxUrl: string, apiKey: string, identificationId: string) {
  const answer = await request(`${sandboxUrl}/api/v1/identifications/${identificationId}`, {
    headers: { 'x-api-key': apiKey },
  });
  return (await json<{ status: string }>('GET /api/v1/identifications/:id', answer, 200)).status;
}

export async function waitForUpstreamStatus(
  sandboxUrl: string,
  apiKey: string,
  identificationId: string,
  status: string,
) {
  await waitFor(`identification ${status}`, async () =>
    (await upstreamStatus(sandboxUrl, apiKey, identificationId)) === status ? true : undefined,
  );
}

export async function decide(sandboxUrl: string, apiKey: string, identificationId: string, status: string) {
  const answer = await request(`${sandboxUrl}/sandbox/identifications/${identificationId}/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: JSON.stringify({ status }),
  });
  await json('POST /sandbox/identifications/:id/decision', answer, 200);
}

export async function get(url: string, cookie: string) {
  const answer = await request(url, { headers: { cookie, accept: 'application/json' } });
  await answer.body.text();
  return { status: answer.statusCode, cookie: cookieFrom(answer.headers, cookie)! };
}

/**
 * A user whose identification is APPROVED, with the cookie the gate settled on: the first gated
 * request after approval regenerates the session id (fixation), so it is made here, once.
 */
export async function approvedUser(stack: { appUrl: string; sandboxUrl: string; apiKey: string }) {
  const { cookie, sessionCode } = await startVerification(stack.appUrl);
  const { id, identificationId } = await sessionByCode(stack.sandboxUrl, sessionCode);
  await submitDocument(stack.sandboxUrl, id, 'approve');
  await waitForUpstreamStatus(stack.sandboxUrl, stack.apiKey, identificationId, 'APPROVED');
  const first = await get(`${stack.appUrl}/gated`, cookie);
  const second = await get(`${stack.appUrl}/gated`, first.cookie);
  if (first.status !== 200 || second.status !== 200 || second.cookie !== first.cookie) {
    throw new Error(`the approved user does not pass the gate (${first.status}, ${second.status})`);
  }
  return { cookie: first.cookie, identificationId };
}
