/*
 * The sandbox's control API, called from the test process with the API key (never through the
 * browser): a status override, the outbox of messages, the clock. (A reviewer's decision goes
 * through the demo's own reviewer buttons.)
 */
import {
  createSandboxControl,
  type OutboxMessage,
  type OverrideStatus,
  type SandboxControlOptions,
} from '@verify-kit/sandbox/control';

/** Where the sandbox of the demo under test listens, and its key. */
export type SandboxControl = SandboxControlOptions;

/** Sets the status from any state (e.g. APPROVED -> REJECTED, an approval revoked). */
export const setStatus = (sandbox: SandboxControl, identificationId: string, status: OverrideStatus) =>
  createSandboxControl(sandbox).setStatus(identificationId, status);

export async function advanceClock(sandbox: SandboxControl, ms: number): Promise<void> {
  await createSandboxControl(sandbox).advanceClock(ms);
}

export const outbox = (sandbox: SandboxControl): Promise<OutboxMessage[]> =>
  createSandboxControl(sandbox).outbox();
