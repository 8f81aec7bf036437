import { request } from 'undici';

export interface SandboxLike {
  url: string;
  apiKey: string;
}

async function call<T>(
  sandbox: SandboxLike,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await request(`${sandbox.url}${path}`, {
    method,
    headers: {
      'x-api-key': sandbox.apiKey,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.body.text();
  if (res.statusCode >= 300) throw new Error(`sandbox ${method} ${path} answered ${res.statusCode}: ${text}`);
  return (text === '' ? undefined : JSON.parse(text)) as T;
}

/** What the mobile app does: open the session by its code. */
export function openByCode(sandbox: SandboxLike, sessionCode: string) {
  return call<{ id: string; identificationId: string }>(
    sandbox,
    'GET',
    `/sandbox/sessions/by-code/${sessionCode}`,
  );
}

export type Scenario = 'approve' | 'manual_review' | 'resubmit' | 'reject';

/** The person shows a document; returns the session's ids. */
export async function submitDocument(
  sandbox: SandboxLike,
  sessionCode: string,
  scenario: Scenario = 'approve',
) {
  const ids = await openByCode(sandbox, sessionCode);
  await call(sandbox, 'POST', `/sandbox/sessions/${ids.id}/documents`, {
    type: 'I',
    number: 'A12F34567',
    givenName: 'ŞEYMA',
    surname: 'IŞIK',
    country: 'TUR',
    scenario,
  });
  return ids;
}

export function decide(sandbox: SandboxLike, identificationId: string, status: string) {
  return call(sandbox, 'POST', `/sandbox/identifications/${identificationId}/decision`, { status });
}

export function readStatus(sandbox: SandboxLike, identificationId: string) {
  return call<{ status: string }>(sandbox, 'GET', `/api/v1/identifications/${identificationId}`);
}

/** Polls the sandbox itself (not the kit) until the identification has `status`. */
export async function waitForStatus(
  sandbox: SandboxLike,
  identificationId: string,
  status: string,
): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if ((await readStatus(sandbox, identificationId)).status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`identification ${identificationId} never reached ${status}`);
}
