import type { VerifyRequest, VerifyResponse } from '@verify-kit/client';
import type { Request, RequestHandler, Router } from 'express';
import { readBinding, sessionOf } from './binding.js';
import { KitCore } from './core.js';
import { createGate, type RequireApprovedOptions } from './gate.js';
import { resolveOptions, type VerifyKitOptions } from './options.js';
import type { Phase } from './protocol.js';
import { createRouter } from './router.js';
import { noVerification } from './routes/status.js';

export interface StatusOfOptions {
  /** Reuse a status read younger than this (ms). Default 0: a new (coalesced) upstream read. */
  maxAgeMs?: number;
}

/** `status`, `phase` and `expiresAt` are null when no verification was started in this session. */
export interface StatusOfResult {
  status: string | null;
  phase: Phase | null;
  expiresAt: string | null;
  /** true only for the upstream status APPROVED. */
  approved: boolean;
}

export interface VerifyKit {
  /** The widget protocol (POST /session, GET /status, GET /qr.svg) and POST /webhook. */
  readonly router: Router;
  /** The gate: next() only when this session's identification is APPROVED. */
  requireApproved(options?: RequireApprovedOptions): RequestHandler;
  /** This session's status, for custom logic. Throws VerifyKitError on an upstream failure: fail closed. */
  statusOf(req: Request, options?: StatusOfOptions): Promise<StatusOfResult>;
  /** Spec endpoint 3 for this session's identification, e.g. { type: 'DOCUMENT_COUNTRY', value: 'TUR' }. */
  verify(req: Request, body: VerifyRequest): Promise<VerifyResponse>;
  /** Ends long-polls and timers, closes the upstream connections. The router answers 503 after. */
  close(): Promise<void>;
}

export function createVerifyKit(options: VerifyKitOptions): VerifyKit {
  const core = new KitCore(resolveOptions(options));
  return {
    router: createRouter(core),
    requireApproved: (gateOptions) => createGate(core, gateOptions),
    async statusOf(req, statusOptions = {}) {
      core.assertOpen();
      const maxAgeMs = statusOptions.maxAgeMs ?? 0;
      const result = await core.statusOf(req, Number.isInteger(maxAgeMs) && maxAgeMs > 0 ? maxAgeMs : 0);
      if (result === undefined) return { status: null, phase: null, expiresAt: null, approved: false };
      await core.observeApproval(req, result.binding, result.identification);
      return { ...result.view, approved: result.identification.status === 'APPROVED' };
    },
    async verify(req, body) {
      core.assertOpen();
      sessionOf(req);
      const binding = readBinding(req);
      if (binding === undefined) throw noVerification();
      return core.client.verify(binding.identificationId, body);
    },
    close: () => core.close(),
  };
}
