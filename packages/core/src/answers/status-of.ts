import type { Phase } from '@verify-kit/protocol';
import type { KitRequest } from '../bindings/kit-request.js';
import type { DecisionSource, Freshness } from '../decisions/decisions.js';
import { sourceOf } from '../decisions/verdict.js';
import type { KitCore } from '../wiring/core.js';

export interface StatusOfOptions {
  /** Default the kit's: 'visit' reads at the start of a visit and answers from the stored decision inside it. */
  freshness?: Freshness;
  /** As requireApproved's: 'every-request' reuses a read younger than this (default 0). */
  maxAgeMs?: number;
}

/** `status`, `phase` and `expiresAt` are null when no verification is bound. */
export interface StatusOfResult {
  status: string | null;
  phase: Phase | null;
  expiresAt: string | null;
  /** true only for the upstream status APPROVED. */
  approved: boolean;
  /** `read` from the service now, `stored` from the visit's stored decision; null when none is bound. */
  source: DecisionSource | null;
}

const NONE: StatusOfResult = { status: null, phase: null, expiresAt: null, approved: false, source: null };

/** This request's status by the gate's own decision (core.decide). Throws on an upstream failure: fail closed. */
export async function statusOf(
  core: KitCore,
  req: KitRequest,
  { freshness, maxAgeMs }: StatusOfOptions = {},
): Promise<StatusOfResult> {
  const verdict = await core.decide(req, {
    ...(freshness === 'every-request' || freshness === 'visit' ? { freshness } : {}),
    ...(Number.isInteger(maxAgeMs) && (maxAgeMs as number) > 0 ? { maxAgeMs } : {}),
  });
  if (verdict.kind === 'unavailable') throw verdict.error;
  if (verdict.kind === 'unbound') return NONE;
  // A grant from the visit's stored decision alone: the binding, for what it shows.
  const binding = verdict.found?.binding ?? (await core.bindings.find(req, verdict.owner));
  if (binding === undefined) return NONE;
  const identification = verdict.found?.identification ?? {
    id: binding.identificationId,
    status: 'APPROVED',
  };
  const { status, phase, expiresAt } = core.describe(binding, identification);
  return {
    status,
    phase,
    expiresAt,
    approved: verdict.kind === 'granted',
    source: sourceOf(verdict) ?? null,
  };
}

/**
 * Unbinds the verification of this request's account (or anonymous browser session): the gate
 * refuses it from the next request on, on every instance sharing the store.
 */
export async function forget(core: KitCore, req: KitRequest): Promise<void> {
  core.assertOpen();
  const owner = await core.bindings.ownerOf(req);
  const forgotten = await core.unbind(req, owner);
  await core.decisions.forget(req, forgotten?.identificationId);
  if (forgotten !== undefined) {
    core.audit({ type: 'binding.forgotten', ...owner, identificationId: forgotten.identificationId });
  }
}
