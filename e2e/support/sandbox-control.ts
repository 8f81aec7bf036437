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

/**
 * Whether the sandbox sent the `eventType` webhook of the identification at or after `since` (ISO)
 * and the demo answered it 2xx: the kit answers once it has stored and told the change.
 */
export async function webhookAnswered(
  sandbox: SandboxControl,
  identificationId: string,
  eventType: string,
  since: string,
): Promise<boolean> {
  const deliveries = await createSandboxControl(sandbox).deliveries({ identificationId });
  return deliveries.some((d) => d.eventType === eventType && d.ok && d.sentAt >= since);
}

export async function advanceClock(sandbox: SandboxControl, ms: number): Promise<void> {
  await createSandboxControl(sandbox).advanceClock(ms);
}

export const outbox = (sandbox: SandboxControl): Promise<OutboxMessage[]> =>
  createSandboxControl(sandbox).outbox();
