import type { Identification } from '@verify-kit/client';
import { MAX_WAIT_SECONDS, PHASES, type Phase } from '@verify-kit/protocol';
import type { Request, RequestHandler, Response } from 'express';
import type { VerificationBinding } from '../../bindings/binding.js';
import { browserCause, type ReadCause } from '../../limits/read-budget.js';
import { ERROR_CODE, kitError } from '../../shared/errors.js';
import { queryOf } from '../../shared/request-guards.js';
import type { KitCore } from '../../wiring/core.js';
import { kitRequestOf } from '../express-request.js';

interface PollQuery {
  wait: number;
  since: Phase | undefined;
}

function parseQuery(req: Request, maxWaitSeconds: number): PollQuery {
  const query = queryOf(req);
  const waits = query.getAll('wait');
  const sinces = query.getAll('since');
  if (waits.length > 1 || sinces.length > 1) {
    throw kitError(ERROR_CODE.INVALID_QUERY, 'give wait and since at most once each');
  }
  let wait = 0;
  if (waits[0] !== undefined) {
    if (!/^\d{1,3}$/.test(waits[0]) || Number(waits[0]) > MAX_WAIT_SECONDS) {
      throw kitError(
        ERROR_CODE.INVALID_QUERY,
        `wait must be an integer from 0 to ${MAX_WAIT_SECONDS} (seconds)`,
      );
    }
    // Held no longer than this server allows (maxWaitSeconds, e.g. below a gateway's timeout).
    wait = Math.min(Number(waits[0]), maxWaitSeconds);
  }
  const since = sinces[0];
  if (since !== undefined && !(PHASES as readonly string[]).includes(since)) {
    throw kitError(ERROR_CODE.INVALID_QUERY, `since must be one of ${PHASES.join(', ')}`);
  }
  return { wait, since: since as Phase | undefined };
}

export const noVerification = () =>
  kitError(
    ERROR_CODE.NO_VERIFICATION_SESSION,
    'no verification has been started for this account or browser session',
  );

/** Read-only: a status answer never writes the session (a long-poll saving late would undo a sign-in). */
function answer(core: KitCore, res: Response, binding: VerificationBinding, latest: Identification): void {
  if (res.writableEnded || res.destroyed) return;
  // Shutting down: the next long-poll goes out on a new connection, to an instance that stays.
  if (core.draining) res.set('Connection', 'close');
  res.status(200).set('Cache-Control', 'no-store').json(core.describe(binding, latest));
}

/** Waits until the phase differs from `since`, `wait` seconds pass, the client leaves or the kit closes. */
function longPoll(
  core: KitCore,
  res: Response,
  binding: VerificationBinding,
  first: Identification,
  { wait, since }: PollQuery,
  cause: ReadCause,
): void {
  const release = core.limits.openLongPoll(binding.identificationId);
  let latest = first;
  let done = false;
  const finish = (outcome: { error: unknown } | 'answer' | 'client-gone') => {
    if (done) return;
    done = true;
    clearTimeout(deadline);
    release();
    stopWatching();
    stopOnClose();
    res.off('close', onClientGone);
    if (outcome === 'client-gone') return;
    if (outcome !== 'answer') {
      core.fail(res, outcome.error, 'GET /status');
      return;
    }
    answer(core, res, binding, latest);
  };
  const onClientGone = () => {
    if (!res.writableEnded) finish('client-gone');
  };
  const deadline = setTimeout(() => finish('answer'), wait * 1000);
  const stopWatching = core.watch.add(
    binding.identificationId,
    {
      onRead(identification) {
        latest = identification;
        if (core.describe(binding, identification).phase !== since) finish('answer');
      },
      onError(error) {
        finish({ error });
      },
    },
    cause,
  );
  const stopOnClose = core.onClose(() => finish('answer'));
  res.on('close', onClientGone);
  core.log.debug('GET /status: long-poll waiting', {
    identificationId: binding.identificationId,
    wait,
    since,
  });
}

/** GET /status[?wait=<s>&since=<phase>]: the bound identification only; no id comes from the client. */
export function statusRoute(core: KitCore): RequestHandler {
  return (req, res) => {
    const run = async () => {
      core.assertOpen();
      const query = parseQuery(req, core.options.maxWaitSeconds);
      // A client that waits already has a phase: a read younger than one interval is as good.
      const kreq = kitRequestOf(req, res);
      const found = await core.lookup(kreq, query.wait > 0 ? core.options.pollIntervalMs : 0);
      if (found.binding === undefined) throw noVerification();
      const { binding, identification, view } = found;
      const held = query.wait > 0 && query.since !== undefined && core.options.longPoll;
      if (!held || view.phase !== query.since || core.closed) {
        answer(core, res, binding, identification);
        return;
      }
      if (res.writableEnded || res.destroyed) return;
      longPoll(core, res, binding, identification, query, browserCause(kreq, found.owner));
    };
    run().catch((error: unknown) => core.fail(res, error, 'GET /status'));
  };
}
