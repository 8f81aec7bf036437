import { type Identification, isVerifyKitError } from '@verify-kit/client/fetch';
import { MAX_WAIT_SECONDS, PHASES, type Phase } from '@verify-kit/protocol';
import type { VerificationBinding } from '../bindings/binding.js';
import type { KitRequest } from '../bindings/kit-request.js';
import { browserCause, type ReadCause } from '../limits/read-budget.js';
import { ERROR_CODE, kitError } from '../shared/errors.js';
import type { KitCore } from '../wiring/core.js';
import { type Answer, errorAnswer, jsonAnswer } from './answer.js';

interface PollQuery {
  wait: number;
  since: Phase | undefined;
}

function parseQuery(query: URLSearchParams, maxWaitSeconds: number): PollQuery {
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
function statusAnswer(core: KitCore, binding: VerificationBinding, latest: Identification): Answer {
  // Shutting down: the next long-poll goes out on a new connection, to an instance that stays.
  return jsonAnswer(200, core.describe(binding, latest), core.draining ? { Connection: 'close' } : {});
}

/**
 * Waits until the phase differs from `since`, `wait` seconds pass, the client leaves (`signal`;
 * undefined: nothing to answer) or the kit closes. Never keeps its slot after the client left.
 */
function longPoll(
  core: KitCore,
  binding: VerificationBinding,
  first: Identification,
  { wait, since }: PollQuery,
  cause: ReadCause,
  signal: AbortSignal,
): Promise<Answer | undefined> {
  return new Promise((resolve) => {
    const release = core.limits.openLongPoll(binding.identificationId);
    let latest = first;
    let done = false;
    const startedAt = performance.now();
    /** `by`: what woke an answer (none: the wait ran out). */
    const finish = (
      outcome: { error: unknown } | 'answer' | 'client-gone',
      by?: 'webhook' | 'poll' | 'shutdown',
    ) => {
      if (done) return;
      done = true;
      const wokenBy =
        outcome === 'client-gone' ? outcome : outcome === 'answer' ? (by ?? 'timeout') : 'error';
      core.instrument?.({ type: 'long-poll.ended', wokenBy, durationMs: performance.now() - startedAt });
      clearTimeout(deadline);
      release();
      stopWatching();
      stopOnClose();
      signal.removeEventListener('abort', onClientGone);
      if (outcome === 'client-gone') resolve(undefined);
      else if (outcome !== 'answer') {
        core.logFailure(outcome.error, 'GET /status');
        resolve(errorAnswer(outcome.error));
      } else resolve(statusAnswer(core, binding, latest));
    };
    const onClientGone = () => finish('client-gone');
    const deadline = setTimeout(() => finish('answer'), wait * 1000);
    const stopWatching = core.watch.add(
      binding.identificationId,
      {
        onRead(identification, woken) {
          latest = identification;
          if (core.describe(binding, identification).phase !== since) finish('answer', woken);
        },
        onError(error) {
          finish({ error });
        },
      },
      cause,
      since,
    );
    const stopOnClose = core.onClose(() => finish('answer', 'shutdown'));
    signal.addEventListener('abort', onClientGone);
    core.log.debug('GET /status: long-poll waiting', {
      identificationId: binding.identificationId,
      wait,
      since,
    });
    core.instrument?.({ type: 'long-poll.waiting' });
  });
}

/** How soon a long-poll asks the store again after it failed (each try itself waits up to 2 s for it). */
const STORE_RETRY_MS = 250;

/**
 * A long-poll's lookup (a read younger than one interval is as good: the client has a phase). While
 * the store cannot answer (BINDING_STORE_UNAVAILABLE: Redis restarting) it is asked again until
 * the wait runs out, so the browser hears as soon as the store is back rather than after its own
 * backoff; then, or if the client left (undefined), it stops.
 */
async function lookupOnceStored(core: KitCore, req: KitRequest, wait: number, signal: AbortSignal) {
  const until = Date.now() + wait * 1000;
  for (;;) {
    try {
      return await core.lookup(req, core.options.pollIntervalMs);
    } catch (error) {
      const storeAway = isVerifyKitError(error, ERROR_CODE.BINDING_STORE_UNAVAILABLE);
      if (!storeAway || core.closed || Date.now() + STORE_RETRY_MS >= until) throw error;
      core.log.debug('GET /status: the store is away; the long-poll asks it again');
    }
    await new Promise((resolve) => setTimeout(resolve, STORE_RETRY_MS));
    if (signal.aborted) return undefined;
  }
}

async function answer(
  core: KitCore,
  req: KitRequest,
  params: URLSearchParams,
  signal: AbortSignal,
): Promise<Answer | undefined> {
  core.assertOpen();
  const query = parseQuery(params, core.options.maxWaitSeconds);
  const held = query.wait > 0 && query.since !== undefined && core.options.longPoll;
  const startedAt = Date.now();
  // A client that waits already has a phase: a read younger than one interval is as good.
  const found = await (held
    ? lookupOnceStored(core, req, query.wait, signal)
    : core.lookup(req, query.wait > 0 ? core.options.pollIntervalMs : 0));
  if (found === undefined) return undefined;
  if (found.binding === undefined) throw noVerification();
  const { binding, identification, view } = found;
  if (!held || view.phase !== query.since || core.closed) return statusAnswer(core, binding, identification);
  if (signal.aborted) return undefined;
  const left = { ...query, wait: Math.max(0, query.wait - (Date.now() - startedAt) / 1000) };
  return longPoll(core, binding, identification, left, browserCause(req, found.owner), signal);
}

/**
 * GET /status[?wait=<s>&since=<phase>]: the bound identification only; no id comes from the client.
 * `signal` aborts when the client leaves; the answer is then undefined (nobody reads it).
 */
export function answerStatus(
  core: KitCore,
  req: KitRequest,
  query: URLSearchParams,
  signal: AbortSignal,
): Promise<Answer | undefined> {
  return answer(core, req, query, signal).catch((error: unknown) => {
    core.logFailure(error, 'GET /status');
    return errorAnswer(error);
  });
}
