import type { Identification } from '@verify-kit/client';
import type { Request, RequestHandler, Response } from 'express';
import { readBinding, sessionOf, type VerificationBinding } from '../binding.js';
import type { KitCore } from '../core.js';
import { KIT_ERROR_CODES, kitError } from '../errors.js';
import { PHASES, type Phase } from '../protocol.js';
import { queryOf } from '../request-guards.js';

interface PollQuery {
  wait: number;
  since: Phase | undefined;
}

function parseQuery(req: Request, maxWaitSeconds: number): PollQuery {
  const query = queryOf(req);
  const waits = query.getAll('wait');
  const sinces = query.getAll('since');
  if (waits.length > 1 || sinces.length > 1) {
    throw kitError(KIT_ERROR_CODES.INVALID_QUERY, 'give wait and since at most once each');
  }
  let wait = 0;
  if (waits[0] !== undefined) {
    if (!/^\d{1,3}$/.test(waits[0]) || Number(waits[0]) > maxWaitSeconds) {
      throw kitError(
        KIT_ERROR_CODES.INVALID_QUERY,
        `wait must be an integer from 0 to ${maxWaitSeconds} (seconds)`,
      );
    }
    wait = Number(waits[0]);
  }
  const since = sinces[0];
  if (since !== undefined && !(PHASES as readonly string[]).includes(since)) {
    throw kitError(KIT_ERROR_CODES.INVALID_QUERY, `since must be one of ${PHASES.join(', ')}`);
  }
  return { wait, since: since as Phase | undefined };
}

export const noVerification = () =>
  kitError(
    KIT_ERROR_CODES.NO_VERIFICATION_SESSION,
    'no verification has been started in this browser session',
  );

async function answer(
  core: KitCore,
  req: Request,
  res: Response,
  binding: VerificationBinding,
  latest: Identification,
) {
  await core.observeApproval(req, binding, latest);
  if (res.writableEnded || res.destroyed) return;
  res.status(200).set('Cache-Control', 'no-store').json(core.describe(binding, latest));
}

/** Waits until the phase differs from `since`, `wait` seconds pass, the client leaves or the kit closes. */
function longPoll(
  core: KitCore,
  req: Request,
  res: Response,
  binding: VerificationBinding,
  first: Identification,
  { wait, since }: PollQuery,
): void {
  let latest = first;
  let done = false;
  const finish = (outcome: { error: unknown } | 'answer' | 'client-gone') => {
    if (done) return;
    done = true;
    clearTimeout(deadline);
    stopWatching();
    stopOnClose();
    res.off('close', onClientGone);
    if (outcome === 'client-gone') return;
    if (outcome !== 'answer') {
      core.fail(res, outcome.error, 'GET /status');
      return;
    }
    answer(core, req, res, binding, latest).catch((error: unknown) => core.fail(res, error, 'GET /status'));
  };
  const onClientGone = () => {
    if (!res.writableEnded) finish('client-gone');
  };
  const deadline = setTimeout(() => finish('answer'), wait * 1000);
  const stopWatching = core.watch.add(binding.identificationId, {
    onRead(identification) {
      latest = identification;
      if (core.describe(binding, identification).phase !== since) finish('answer');
    },
    onError(error) {
      finish({ error });
    },
  });
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
      sessionOf(req);
      const query = parseQuery(req, core.options.maxWaitSeconds);
      const binding = readBinding(req);
      if (binding === undefined) throw noVerification();
      // A client that waits already has a phase: a read younger than one interval is as good.
      const maxAgeMs = query.wait > 0 ? core.options.pollIntervalMs : 0;
      const identification = await core.reader.read(binding.identificationId, { maxAgeMs });
      const phase = core.describe(binding, identification).phase;
      if (query.wait === 0 || query.since === undefined || phase !== query.since || core.closed) {
        await answer(core, req, res, binding, identification);
        return;
      }
      if (res.writableEnded || res.destroyed) return;
      longPoll(core, req, res, binding, identification, query);
    };
    run().catch((error: unknown) => core.fail(res, error, 'GET /status'));
  };
}
