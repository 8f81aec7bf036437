import { ERROR_CODES, isApproved, isVerifyKitError, VerifyKitError } from '@verify-kit/client/fetch';
import { ERROR_CODE, kitError } from '../shared/errors.js';
import { eventTypeOf, reasonOf } from '../shared/instrumentation.js';
import { BoundedMap } from '../shared/lru.js';
import type { StatusHint } from '../status/status-bus.js';
import { verifyWebhook } from '../web/webhooks.js';
import { MemoryReplayStore, REPLAY_TTL_SECONDS } from '../webhooks/replay-store.js';
import { SUBMISSION_EVENTS } from '../webhooks/submission-hints.js';
import type { KitCore } from '../wiring/core.js';
import type { WebhookPayloadParser } from '../wiring/options.js';
import { type Answer, errorAnswer } from './answer.js';

export const WEBHOOK_TOLERANCE_SECONDS = 300;
export const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

const NOT_CONFIGURED =
  'a webhook arrived but verify-kit has no webhookSecret (or webhookVerifier): pass ' +
  'createVerifyKit({ …, webhookSecret: process.env.IDV_WEBHOOK_SECRET }) or stop sending webhooks here';

const ALREADY_PARSED =
  'a body parser of the app read the webhook body before verify-kit (its signature covers the raw bytes): ' +
  "mount kit.router before app.use(express.json()), or exclude its path, e.g. app.use('/identity', kit.router) first";

/** What the shell knows of a `POST /webhook`. */
export interface WebhookInput {
  /** A body parser of the app read the body before the kit (the signature covers the raw bytes). */
  alreadyParsed: boolean;
  /** The raw body, at most WEBHOOK_BODY_LIMIT_BYTES (413 beyond). */
  readBody(): Promise<Uint8Array>;
  headers: Headers;
  /** What the integrator's webhookVerifier is given for this body, in the shell's types. */
  verifierInput(body: Uint8Array): unknown;
}

/** Refusals before the body is read: configuration, and a body another parser already consumed. */
function refuseEarly(core: KitCore, input: WebhookInput): void {
  core.assertOpen();
  if (core.options.webhookSecret === undefined && core.options.webhookVerifier === undefined) {
    core.warnOnce(NOT_CONFIGURED);
    throw kitError(ERROR_CODE.WEBHOOK_NOT_CONFIGURED, 'this server does not accept webhooks');
  }
  if (input.alreadyParsed) {
    core.warnOnce(ALREADY_PARSED);
    throw kitError(ERROR_CODE.WEBHOOK_BODY_ALREADY_PARSED, ALREADY_PARSED);
  }
}

/** The delivery's id when the signature is good; a WEBHOOK_* VerifyKitError otherwise. */
async function verify(core: KitCore, input: WebhookInput, body: Uint8Array): Promise<string> {
  const { webhookSecret, webhookVerifier } = core.options;
  try {
    if (webhookVerifier !== undefined) {
      const verified = await webhookVerifier(input.verifierInput(body) as never);
      if (typeof verified?.id !== 'string' || verified.id.length === 0) {
        throw new Error('webhookVerifier returned no id');
      }
      return verified.id;
    }
    const verified = await verifyWebhook({
      secret: webhookSecret ?? [],
      headers: input.headers,
      body,
      toleranceSeconds: WEBHOOK_TOLERANCE_SECONDS,
      now: Math.floor(core.now() / 1000),
    });
    return verified.id;
  } catch (error) {
    if (isVerifyKitError(error) && error.code.startsWith('WEBHOOK_')) throw error;
    throw new VerifyKitError(ERROR_CODES.WEBHOOK_SIGNATURE_INVALID, 'the webhook signature is not valid', {
      cause: error,
    });
  }
}

/** The v1 event: `{ type, timestamp, data: { identificationId, status? } }`; anything else is not for the kit. */
const v1Payload: WebhookPayloadParser = (json) => {
  const { type, timestamp, data } = (json ?? {}) as {
    type?: unknown;
    timestamp?: unknown;
    data?: { identificationId?: unknown; status?: unknown };
  };
  const identificationId = data?.identificationId;
  if (typeof type !== 'string' || typeof identificationId !== 'string') return undefined;
  if (identificationId.length === 0 || identificationId.length > 256) return undefined;
  // The identification's status, from identification.* events only (a session event's is not it).
  const status = type.startsWith('identification.') ? data?.status : undefined;
  return {
    type,
    identificationId,
    ...(typeof status === 'string' ? { status } : {}),
    ...(typeof timestamp === 'string' ? { occurredAt: timestamp } : {}),
  };
};

/**
 * When the event happened, in the kit's clock: the payload's time, never later than its arrival (a
 * sender's clock ahead of ours counts as now). undefined when the payload says nothing: such an
 * event counts as now where that is safe (a refusal, a review step), and never as newer than a
 * refusal (an approval ends no refusal's hold: decision-store.ts).
 */
function occurredAt(given: number | string | undefined, arrivedAt: number): number | undefined {
  const at = typeof given === 'number' ? given : typeof given === 'string' ? Date.parse(given) : Number.NaN;
  return Number.isFinite(at) ? Math.min(Math.trunc(at), arrivedAt) : undefined;
}

/** What the delivery is about; undefined for a body the kit does not know (a test ping, a new event). */
function parsePayload(core: KitCore, body: Uint8Array) {
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return undefined;
  }
  try {
    return (core.options.webhookPayload ?? v1Payload)(json) ?? undefined;
  } catch (error) {
    core.log.warn('webhookPayload threw; the delivery is acknowledged and ignored', {
      error: error instanceof Error ? error.name : typeof error,
    });
    return undefined;
  }
}

/**
 * true for a webhook-id not accepted before: this process's memory first (synchronous, so two
 * copies of one delivery cannot both pass here), then the shared replayStore when there is one. A
 * failing shared store is logged and the process's memory decides: a replay to another instance
 * then costs one re-read, never a grant (webhooks are hints).
 */
async function claimDelivery(core: KitCore, local: MemoryReplayStore, id: string): Promise<boolean> {
  if (!local.claim(id)) return false;
  const shared = core.options.replayStore;
  if (shared === undefined) return true;
  let fresh: boolean;
  try {
    fresh = (await shared.claim(id, REPLAY_TTL_SECONDS)) !== false;
  } catch (error) {
    core.log.warn('replayStore.claim failed; replays are recognised by this process only', {
      error: error instanceof Error ? error.message : String(error),
    });
    return true;
  }
  return fresh;
}

/** Tells the status bus (every instance's long-polls), then reads once if the kit tells events. */
async function announce(
  core: KitCore,
  identificationId: string,
  type: string,
  status: unknown,
  at: number | undefined,
) {
  const hint: StatusHint = {
    type,
    documentSubmitted: SUBMISSION_EVENTS.includes(type),
    ...(typeof status === 'string' && status.length <= 64 ? { status } : {}),
    ...(at === undefined ? {} : { occurredAt: at }),
  };
  // The stored decision first (refused at once on every instance sharing the store), then the bus.
  const decided = await core.decisions.onWebhook(identificationId, hint);
  try {
    await core.bus.publish(identificationId, hint);
  } catch (error) {
    core.log.error('statusBus.publish failed; waking local long-polls only', {
      error: error instanceof Error ? error.message : String(error),
    });
    core.applyHint(identificationId, hint);
  }
  // No browser may be open: one read here lets onStatusChange see the change, replaces the event's
  // word in the stored decision with the service's (an event may arrive late), and stores an
  // approval the service confirms (a verified person's reads then come first: read-budget.ts).
  const tracked = await core.events.tracked(identificationId);
  // The hint above dropped the cached read: this read (or the long-polls' one it joins) is new.
  if (tracked !== undefined || decided || isApproved(hint.status)) {
    await core.reader.read(tracked ?? identificationId);
  }
  // The long-polls' re-read the hint started is part of this webhook's work: where the runtime ends
  // what a finished request left running (workerd), it must end within waitUntil, not be cut short.
  await core.reader.inFlight(identificationId)?.catch(() => undefined);
  await core.events.settled(tracked ?? identificationId);
}

/**
 * A delivery accepted before comes again: the sender did not get the first answer (the instance
 * that took it was killed, or its 204 was lost). What that instance may not have finished is done
 * here, without the event's word (a replay changes no decision): a fresh read, and the events the
 * identification's record holds untold.
 */
async function observeAgain(core: KitCore, identificationId: string): Promise<void> {
  const tracked = await core.events.tracked(identificationId);
  if (tracked === undefined) return;
  core.events.tellPending(tracked);
  core.reader.invalidate(tracked);
  await core.reader.read(tracked).catch(() => undefined);
  await core.events.settled(tracked);
}

const ACKNOWLEDGED: Answer = { status: 204, headers: {} };

/**
 * How long the 204 waits for the delivery's work (the stored decision, the read, onStatusChange told):
 * an instance killed before it answers leaves the delivery to the sender's retry, which another
 * instance finishes (observeAgain). Below the 5 s senders commonly wait; work that takes longer goes
 * on after the answer (`after`).
 */
export const WEBHOOK_ANSWER_WITHIN_MS = 3000;

/** The 204 once `work` is done or WEBHOOK_ANSWER_WITHIN_MS has passed; the rest of it as `after`. */
async function answerAfter(work: Promise<void>): Promise<{ answer: Answer; after: () => Promise<void> }> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, WEBHOOK_ANSWER_WITHIN_MS);
  });
  await Promise.race([work, waited]);
  clearTimeout(timer);
  return { answer: ACKNOWLEDGED, after: () => work };
}

/**
 * The answer once the delivery's work is done (the stored decision, the hint on the status bus, a
 * read, onStatusChange told) or WEBHOOK_ANSWER_WITHIN_MS has passed, and what is left of that work
 * (`after`: keep it running once the 204 is out, e.g. `waitUntil`).
 */
async function receive(
  core: KitCore,
  deliveries: Deliveries,
  input: WebhookInput,
): Promise<{ answer: Answer; after?: () => Promise<void> }> {
  refuseEarly(core, input);
  const body = await input.readBody();
  const id = await verify(core, input, body);
  // A healthy sender is never refused: a retry after a lost 2xx, a test ping, a new event type.
  if (!(await claimDelivery(core, deliveries.replays, id))) {
    core.log.debug('webhook: a delivery already accepted, acknowledged again');
    core.instrument?.({ type: 'webhook.received', result: 'replayed' });
    // Its work here, once per delivery: under way (a copy arriving meanwhile), or done again.
    let work = deliveries.work.get(id);
    if (work === undefined) {
      const payload = parsePayload(core, body);
      if (payload === undefined) return { answer: ACKNOWLEDGED };
      work = observeAgain(core, payload.identificationId).catch((error: unknown) =>
        core.logFailure(error, 'POST /webhook (a delivery again)'),
      );
      deliveries.work.set(id, work);
    }
    return answerAfter(work);
  }
  const payload = parsePayload(core, body);
  if (payload === undefined) {
    core.log.debug('webhook: a signed body the kit does not know, acknowledged and ignored');
    core.instrument?.({ type: 'webhook.received', result: 'ignored' });
    return { answer: ACKNOWLEDGED };
  }
  const { identificationId, type, status } = payload;
  const at = occurredAt(payload.occurredAt, core.now());
  core.log.debug('webhook accepted', { type, identificationId });
  core.audit({ type: 'webhook.accepted', identificationId, detail: type });
  core.instrument?.({ type: 'webhook.received', result: 'accepted', eventType: eventTypeOf(type) });
  const work = announce(core, identificationId, type, status, at).catch((error: unknown) =>
    core.logFailure(error, 'POST /webhook'),
  );
  deliveries.work.set(id, work);
  return answerAfter(work);
}

/** What one kit's receiver keeps of deliveries: the ids this process accepted, and their work. */
interface Deliveries {
  replays: MemoryReplayStore;
  work: BoundedMap<string, Promise<void>>;
}

/**
 * POST /webhook: the raw body, a verified signature, a fresh timestamp: the hint goes out on the
 * status bus, the change is read and told, then 204 (receive). A bad signature, a stale timestamp or
 * no secret is refused, changing nothing. One per kit: the deliveries this process accepted.
 */
export function webhookReceiver(core: KitCore) {
  const deliveries: Deliveries = {
    replays: new MemoryReplayStore(() => core.now()),
    work: new BoundedMap(10_000, REPLAY_TTL_SECONDS * 1000),
  };
  return (input: WebhookInput): Promise<{ answer: Answer; after?: () => Promise<void> }> =>
    receive(core, deliveries, input).catch((error: unknown) => {
      core.instrument?.({ type: 'webhook.received', result: 'refused', reason: reasonOf(error) });
      core.logFailure(error, 'POST /webhook');
      return { answer: errorAnswer(error) };
    });
}
