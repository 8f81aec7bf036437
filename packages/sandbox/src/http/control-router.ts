import { type RequestHandler, Router } from 'express';
import { z } from 'zod';
import type { Clock } from '../clock.js';
import { TEST_DOCUMENTS } from '../documents.js';
import { ApiError, invalidRequest, SANDBOX_ERROR_CODES } from '../errors.js';
import { RateLimiter } from '../rate-limit.js';
import type { SandboxService } from '../service.js';
import type { WebhookDispatcher } from '../webhook-dispatcher.js';
import { jsonBody } from './body.js';
import { throttleMisses } from './throttle.js';

const AdvanceBodySchema = z.strictObject({
  ms: z
    .number()
    .int()
    .min(0)
    .max(366 * 24 * 60 * 60 * 1000),
});

const DropBodySchema = z.strictObject({
  fraction: z.number().min(0).max(1),
});

/** Missed code lookups per client address per second: a person mistypes a few, a script thousands. */
export const BY_CODE_MISSES_PER_SECOND = 10;

const optionalQuery = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
const noStore = { 'cache-control': 'no-store' };

function configured(webhooks: WebhookDispatcher | undefined): WebhookDispatcher {
  if (webhooks === undefined) {
    throw new ApiError(
      409,
      SANDBOX_ERROR_CODES.WEBHOOK_NOT_CONFIGURED,
      'No webhook is configured: start the sandbox with webhookUrl and webhookSecret',
    );
  }
  return webhooks;
}

export interface ControlDeps {
  service: SandboxService;
  webhooks: WebhookDispatcher | undefined;
  clock: Clock;
  /** Moves the clock and applies it (expiry, eviction). */
  advanceClock: (ms: number) => void;
  requireKey: RequestHandler;
}

/** The sandbox's own surface (packages/sandbox/README.md): the app side keyed by session id, the rest by x-api-key. */
export function controlRouter({ service, webhooks, clock, advanceClock, requireKey }: ControlDeps): Router {
  const router = Router();
  router.use((_req, res, next) => {
    res.set(noStore);
    next();
  });

  // The mobile app's side: the unguessable session id is the credential. The lookup by code needs
  // no key, so guessing codes is throttled per address (misses only).
  const misses = new RateLimiter(BY_CODE_MISSES_PER_SECOND, 1000, () => clock.now());
  router.get('/sessions/by-code/:code', throttleMisses(misses), (req, res) => {
    res.json(service.sessionByCode(String(req.params.code)));
  });
  router.get('/sessions/:id', (req, res) => {
    res.json(service.appView(String(req.params.id)));
  });
  router.get('/sessions/:id/messages', (req, res) => {
    res.json({ messages: service.sessionMessages(String(req.params.id)) });
  });
  router.post('/sessions/:id/otp', jsonBody, (req, res) => {
    service.confirmOtp(String(req.params.id), req.body);
    res.status(204).end();
  });
  router.post('/sessions/:id/otp/resend', (req, res) => {
    service.resendOtp(String(req.params.id));
    res.status(204).end();
  });
  router.post('/sessions/:id/documents', jsonBody, (req, res) => {
    res.status(202).json(service.submitDocument(String(req.params.id), req.body));
  });
  router.get('/test-documents', (_req, res) => {
    res.json({ documents: TEST_DOCUMENTS });
  });
  router.get('/clock', (_req, res) => {
    res.json({ now: new Date(clock.now()).toISOString() });
  });

  // The reviewer's and the tester's side.
  router.post('/identifications/:id/decision', requireKey, jsonBody, (req, res) => {
    res.json(service.decide(String(req.params.id), req.body));
  });
  router.post('/identifications/:id/status', requireKey, jsonBody, (req, res) => {
    res.json(service.setStatusOverride(String(req.params.id), req.body));
  });
  router.get('/outbox', requireKey, (req, res) => {
    const messages = service.outbox.list({
      verificationSessionId: optionalQuery(req.query.verificationSessionId),
      recipient: optionalQuery(req.query.recipient),
    });
    res.json({ messages });
  });
  router.get('/webhooks/deliveries', requireKey, (req, res) => {
    const deliveries =
      webhooks?.deliveries({
        verificationSessionId: optionalQuery(req.query.verificationSessionId),
        identificationId: optionalQuery(req.query.identificationId),
      }) ?? [];
    res.json({ configured: webhooks !== undefined, deliveries });
  });
  router.post('/webhooks/drop', requireKey, jsonBody, (req, res) => {
    const parsed = DropBodySchema.safeParse(req.body);
    if (!parsed.success) throw invalidRequest(parsed.error);
    configured(webhooks).dropDeliveries(parsed.data.fraction);
    res.json({ fraction: parsed.data.fraction });
  });
  router.post('/webhooks/test', requireKey, (_req, res) => {
    const timestamp = new Date(clock.now()).toISOString();
    const webhookId = configured(webhooks).send({ type: 'webhook.test', timestamp, data: {} });
    res.status(202).json({ webhookId });
  });
  router.post('/clock/advance', requireKey, jsonBody, (req, res) => {
    const parsed = AdvanceBodySchema.safeParse(req.body);
    if (!parsed.success) throw invalidRequest(parsed.error);
    advanceClock(parsed.data.ms);
    res.json({ now: new Date(clock.now()).toISOString() });
  });

  return router;
}
