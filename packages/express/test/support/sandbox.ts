import {
  createSandboxControl,
  type DecisionStatus,
  type SandboxControlOptions,
  type Scenario,
} from '@verify-kit/sandbox/control';

// The kit's tests drive the sandbox as a person and a reviewer would, through its control API.

export type { Scenario } from '@verify-kit/sandbox/control';
/** A started sandbox, or `{ url, apiKey }` of one. */
export type SandboxLike = SandboxControlOptions;

export const openByCode = (sandbox: SandboxLike, sessionCode: string) =>
  createSandboxControl(sandbox).sessionByCode(sessionCode);

/** The person opens the session by its code and shows a document; returns the session's ids. */
export const submitDocument = (sandbox: SandboxLike, sessionCode: string, scenario?: Scenario) =>
  createSandboxControl(sandbox).submitByCode(sessionCode, scenario);

export const decide = (sandbox: SandboxLike, identificationId: string, status: DecisionStatus) =>
  createSandboxControl(sandbox).decide(identificationId, status);

export const readStatus = async (sandbox: SandboxLike, identificationId: string) => ({
  status: await createSandboxControl(sandbox).readStatus(identificationId),
});

/** Polls the sandbox itself (not the kit) until the identification has `status`. */
export const waitForStatus = (sandbox: SandboxLike, identificationId: string, status: string) =>
  createSandboxControl(sandbox).waitForStatus(identificationId, status);
