/*
 * The sandbox's control API, called from the test process with the API key (never through the
 * browser): a reviewer's decision, a status override, the outbox of OTPs, the clock.
 */

export interface SandboxControl {
  url: string;
  apiKey: string;
}

async function call(sandbox: SandboxControl, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(new URL(path, sandbox.url), {
    method,
    headers: {
      'x-api-key': sandbox.apiKey,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`sandbox ${method} ${path} answered ${response.status}: ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}

export function decide(sandbox: SandboxControl, identificationId: string, status: string): Promise<unknown> {
  return call(sandbox, 'POST', `/sandbox/identifications/${encodeURIComponent(identificationId)}/decision`, {
    status,
  });
}

/** Sets the status from any state (e.g. APPROVED -> REJECTED, an approval revoked). */
export function setStatus(
  sandbox: SandboxControl,
  identificationId: string,
  status: string,
): Promise<unknown> {
  return call(sandbox, 'POST', `/sandbox/identifications/${encodeURIComponent(identificationId)}/status`, {
    status,
  });
}

export async function advanceClock(sandbox: SandboxControl, ms: number): Promise<void> {
  await call(sandbox, 'POST', '/sandbox/clock/advance', { ms });
}

export interface OutboxMessage {
  channel: string;
  recipient: string;
  text?: string;
  code?: string;
  [key: string]: unknown;
}

export async function outbox(sandbox: SandboxControl): Promise<OutboxMessage[]> {
  const body = (await call(sandbox, 'GET', '/sandbox/outbox')) as
    | { messages?: OutboxMessage[] }
    | OutboxMessage[];
  return Array.isArray(body) ? body : (body.messages ?? []);
}
