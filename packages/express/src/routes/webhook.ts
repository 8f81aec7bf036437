import {
  ERROR_CODES,
  isVerifyKitError,
  VerifyKitError,
  verifyWebhook,
  WebhookPayloadSchema,
} from '@verify-kit/client';
import express, { type Request, type RequestHandler } from 'express';
import { refuseDeclaredOversize } from '../body-limit.js';
import type { KitCore } from '../core.js';
import { KIT_ERROR_CODES, kitError } from '../errors.js';
import { MemoryReplayStore, REPLAY_TTL_SECONDS } from '../replay-store.js';
import { SUBMISSION_EVENTS } from '../submission-hints.js';

export const WEBHOOK_TOLERANCE_SECONDS = 300;
const WEBHOOK_BODY_LIMIT_BYTES = 256 * 1024;

const NOT_CONFIGURED =
  'a webhook arrived but verify-kit has no webhookSecret (or webhookVerifier): pass ' +
  'createVerifyKit({ …, webhookSecret: process.env.IDV_WEBHOOK_SECRET }) or stop sending webhooks here';

const ALREADY_PARSED =
  'a body parser of the app read the webhook body before verify-kit (its signature covers the raw bytes): ' +
  "mount kit.router before app.use(express.json()), or exclude its path, e.g. app.use('/identity', kit.router) first";

/** Refusals before the body is read: configuration, and a body another parser already consumed. */
function guard(core: KitCore): RequestHandler {
  const configured = core.options.webhookSecrets !== undefined || core.options.webhookVerifier !== undefined;
  return (req, res, next) => {
    try {
      core.assertOpen();
      if (!configured) {
        core.warnOnce(NOT_CONFIGURED);
        throw kitError(KIT_ERROR_CODES.WEBHOOK_NOT_CONFIGURED, 'this server does not accept webhooks');
      }
      if (Buffer.isBuffer(req.body)) return next(); // express.raw() ran before: the exact bytes
      const consumed = (req as Request & { _body?: boolean })._body === true || req.readableEnded;
      if (consumed) {
        core.warnOnce(ALREADY_PARSED);
        throw kitError(KIT_ERROR_CODES.WEBHOOK_BODY_ALREADY_PARSED, ALREADY_PARSED);
      }
      refuseDeclaredOversize(req, res, WEBHOOK_BODY_LIMIT_BYTES);
      next();
    } catch (error) {
      core.fail(res, error, 'POST /webhook');
    }
  };
}

/** The delivery's id when the signature is good; a WEBHOOK_* VerifyKitError otherwise. */
async function verify(core: KitCore, req: Request, body: Buffer): Promise<string> {
  const { webhookSecrets, webhookVerifier } = core.options;
  try {
    if (webhookVerifier !== undefined) {
      const verified = await webhookVerifier({ headers: req.headers, body });
      if (typeof verified?.id !== 'string' || verified.id.length === 0) {
        throw new Error('webhookVerifier returned no id');
      }
      return verified.id;
    }
    return verifyWebhook({
      secret: webhookSecrets ?? [],
      headers: req.headers,
      body,
      toleranceSeconds: WEBHOOK_TOLERANCE_SECONDS,
      now: Math.floor(core.now() / 1000),
    }).id;
  } catch (error) {
    if (isVerifyKitError(error) && error.code.startsWith('WEBHOOK_')) throw error;
    throw new VerifyKitError(ERROR_CODES.WEBHOOK_SIGNATURE_INVALID, 'the webhook signature is not valid', {
      cause: error,
    });
  }
}

function parsePayload(body: Buffer) {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw kitError(KIT_ERROR_CODES.WEBHOOK_PAYLOAD_INVALID, 'the webhook body is not JSON');
  }
  const parsed = WebhookPayloadSchema.safeParse(json);
  if (!parsed.success) {
    throw kitError(
      KIT_ERROR_CODES.WEBHOOK_PAYLOAD_INVALID,
      'the webhook body is not a v1 event { type, timestamp, data: { verificationSessionId, identificationId } }',
    );
  }
  return parsed.data;
}

const replayed = () => kitError(KIT_ERROR_CODES.WEBHOOK_REPLAYED, 'this webhook-id was already received');

/**
 * Refuses a webhook-id already accepted: this process's memory first (synchronous, so two copies
 * of one delivery cannot both pass here), then the shared replayStore when there is one. A failing
 * shared store is logged and the process's memory decides: a replay to another instance then costs
 * one re-read, never a grant (webhooks are hints).
 */
async function claimDelivery(core: KitCore, local: MemoryReplayStore, id: string): Promise<void> {
  if (!local.claim(id)) throw replayed();
  const shared = core.options.replayStore;
  if (shared === undefined) return;
  let fresh: boolean;
  try {
    fresh = (await shared.claim(id, REPLAY_TTL_SECONDS)) !== false;
  } catch (error) {
    core.log.warn('replayStore.claim failed; replays are refused by this process only', {
      error: error instanceof Error ? error.message : String(error),
    });
    return;
  }
  if (!fresh) throw replayed();
}

/**
 * POST /webhook: the raw body, a verified signature, a fresh timestamp, a webhook-id never seen:
 * then 204, and the hint goes out on the status bus. Any refusal changes nothing.
 */
export function webhookRoute(core: KitCore): RequestHandler[] {
  const replays = new MemoryReplayStore(() => core.now());
  return [
    guard(core),
    express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT_BYTES }),
    (req, res) => {
      const run = async () => {
        const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
        const id = await verify(core, req, body);
        if (replays.seen(id)) throw replayed();
        const payload = parsePayload(body);
        await claimDelivery(core, replays, id);
        res.status(204).end();

        const { identificationId } = payload.data;
        const hint = { type: payload.type, documentSubmitted: SUBMISSION_EVENTS.includes(payload.type) };
        core.log.debug('webhook accepted', { type: payload.type, identificationId });
        try {
          await core.bus.publish(identificationId, hint);
        } catch (error) {
          core.log.error('statusBus.publish failed; waking local long-polls only', {
            error: error instanceof Error ? error.message : String(error),
          });
          core.applyHint(identificationId, hint);
        }
      };
      run().catch((error: unknown) => core.fail(res, error, 'POST /webhook'));
    },
  ];
}
