import { createSandboxControl, type SandboxControlOptions, type Scenario } from '@verify-kit/sandbox/control';
import { expect } from 'vitest';
import type { Browser } from './browser.js';
import type { FakeUpstream } from './fake-upstream.js';

// A person's verification as every shell's tests start it: through the kit's POST /identity/session
// as the widget sends it, then on the real sandbox (through its control API) or on the fake upstream.

/** The person shows a document that the sandbox approves; resolves once it is APPROVED. */
export async function approveInSandbox(sandbox: SandboxControlOptions, sessionCode: string): Promise<string> {
  const control = createSandboxControl(sandbox);
  const { identificationId } = await control.submitByCode(sessionCode, 'approve');
  await control.waitForStatus(identificationId, 'APPROVED');
  return identificationId;
}

/**
 * The person on `device` starts a verification and shows a document the sandbox treats per `scenario`;
 * resolves with the identification's id, once APPROVED for `approve`.
 */
export async function verifyIn(
  sandbox: SandboxControlOptions,
  device: Browser,
  scenario: Scenario = 'approve',
): Promise<string> {
  const started = await device.post<{ sessionCode: string }>('/identity/session');
  expect(started.status).toBe(201);
  if (scenario === 'approve') return approveInSandbox(sandbox, started.json.sessionCode);
  const { identificationId } = await createSandboxControl(sandbox).submitByCode(
    started.json.sessionCode,
    scenario,
  );
  return identificationId;
}

/** `POST /session` on the fake upstream; the identification it created (the browser never sees it). */
export async function startVerificationOn(upstream: FakeUpstream, browser: Browser): Promise<string> {
  const before = new Set(upstream.statuses.keys());
  expect((await browser.post('/identity/session')).status).toBe(201);
  const created = [...upstream.statuses.keys()].find((id) => !before.has(id));
  if (created === undefined) throw new Error('no session was created');
  return created;
}
