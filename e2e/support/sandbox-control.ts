/*
 * The sandbox's control API, called from the test process with the API key (never through the
 * browser): a reviewer's decision, a status override, the outbox of OTPs, the clock.
 */
import {
  createSandboxControl,
  type DecisionStatus,
  type OutboxMessage,
  type OverrideStatus,
  type SandboxControlOptions,
} from '@verify-kit/sandbox/control';

/** Where the sandbox of the demo under test listens, and its key. */
export type SandboxControl = SandboxControlOptions;

export const decide = (sandbox: SandboxControl, identificationId: string, status: DecisionStatus) =>
  createSandboxControl(sandbox).decide(identificationId, status);

/** Sets the status from any state (e.g. APPROVED -> REJECTED, an approval revoked). */
export const setStatus = (sandbox: SandboxControl, identificationId: string, status: OverrideStatus) =>
  createSandboxControl(sandbox).setStatus(identificationId, status);

export async function advanceClock(sandbox: SandboxControl, ms: number): Promise<void> {
  await createSandboxControl(sandbox).advanceClock(ms);
}

export const outbox = (sandbox: SandboxControl): Promise<OutboxMessage[]> =>
  createSandboxControl(sandbox).outbox();
