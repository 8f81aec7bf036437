import { createClient, type VerifyRequest, type VerifyResponse } from '@verify-kit/client';
import { noVerification } from '@verify-kit/core/internal/answers/status';
import {
  forget,
  type StatusOfOptions,
  type StatusOfResult,
  statusOf,
} from '@verify-kit/core/internal/answers/status-of';
import type { Request, RequestHandler, Response, Router } from 'express';

export type { StatusOfOptions, StatusOfResult };

import { countInNode } from '@verify-kit/core/internal/redis/counters';
import { KitCore } from '@verify-kit/core/internal/wiring/core';
import { type KitHealth, readHealth } from '@verify-kit/core/internal/wiring/health';
import { resolveOptions } from '@verify-kit/core/internal/wiring/options';
import { kitRequestOf } from './http/express-request.js';
import { createGate, type RequireApprovedOptions } from './http/gate.js';
import { createRouter } from './http/router.js';
import type { Dispatcher, VerifyKitOptions } from './options.js';
import type { Phase } from './protocol.js';
import { parseShutdownOptions, type ShutdownOptions, shutdown } from './wiring/shutdown.js';

/** An account's verification, read now: for jobs, webhooks of your own, admin pages. */
export interface AccountStatus extends Omit<StatusOfResult, 'source'> {
  status: string;
  phase: Phase;
  expiresAt: string;
  identificationId: string;
  verificationSessionId: string;
}

export interface VerifyKit {
  /** The widget protocol (POST /session, GET /status, GET /qr.svg) and POST /webhook. */
  readonly router: Router;
  /** The gate: next() only when this account's (or session's) identification is APPROVED. */
  requireApproved(options?: RequireApprovedOptions): RequestHandler;
  /** This request's status, for custom logic. Throws VerifyKitError on an upstream failure: fail closed. */
  statusOf(req: Request, options?: StatusOfOptions): Promise<StatusOfResult>;
  /** Spec endpoint 3 for this request's identification, e.g. { type: 'DOCUMENT_COUNTRY', value: 'TUR' }. */
  verify(req: Request, body: VerifyRequest): Promise<VerifyResponse>;
  /**
   * Unbinds the verification of this request's account (or anonymous session): the gate refuses it
   * from the next request on, on every instance sharing the binding store. Pass `res` to also delete
   * an anonymous visitor's binding cookie.
   */
  forget(req: Request, res?: Response): Promise<void>;
  /** An account's verification read now; undefined when none is bound. */
  statusOfAccount(accountId: string): Promise<AccountStatus | undefined>;
  /** For a readiness probe: whether the status bus and the binding store answer. */
  health(): Promise<KitHealth>;
  /** Ends long-polls and timers, closes the upstream connections. The router answers 503 after. */
  close(): Promise<void>;
  /**
   * For a rolling deploy (on SIGTERM): health() says not ready at once, the instance serves on for
   * `drainMs` with `Connection: close` on every response, then `server` stops accepting, open
   * long-polls are answered with what they know, and close() runs. Same promise on a second call.
   */
  shutdown(options?: ShutdownOptions): Promise<void>;
}

export function createVerifyKit(options: VerifyKitOptions): VerifyKit {
  const resolved = resolveOptions(options);
  // Node's strengths where they matter: undici's keep-alive pool (or your Dispatcher) to the service.
  const { dispatcher } = resolved;
  const core = new KitCore(resolved, {
    connect: (config) =>
      createClient({
        ...config,
        ...(dispatcher === undefined ? {} : { dispatcher: dispatcher as Dispatcher }),
      }),
    countIn: countInNode,
  });
  let shuttingDown: Promise<void> | undefined;
  return {
    router: createRouter(core),
    requireApproved: (gateOptions) => createGate(core, gateOptions),
    statusOf: (req, statusOptions) => statusOf(core, kitRequestOf(req), statusOptions),
    async verify(req, body) {
      core.assertOpen();
      const kreq = kitRequestOf(req);
      const owner = await core.bindings.ownerOf(kreq);
      const binding = await core.bindings.find(kreq, owner);
      if (binding === undefined) throw noVerification();
      return core.client.verify(binding.identificationId, body);
    },
    forget: (req, res) => forget(core, kitRequestOf(req, res)),
    async statusOfAccount(accountId) {
      core.assertOpen();
      const owner = { accountId: String(accountId) };
      const binding = await core.bindings.find(undefined, owner);
      if (binding === undefined) return undefined;
      const identification = await core.reader.read(binding.identificationId);
      const { status, phase, expiresAt } = core.describe(binding, identification);
      return {
        status,
        phase,
        expiresAt,
        approved: status === 'APPROVED',
        identificationId: binding.identificationId,
        verificationSessionId: binding.verificationSessionId,
      };
    },
    health: () => readHealth(core),
    close: () => core.close(),
    shutdown(shutdownOptions) {
      const parsed = parseShutdownOptions(shutdownOptions);
      shuttingDown ??= shutdown(core, parsed);
      return shuttingDown;
    },
  };
}
