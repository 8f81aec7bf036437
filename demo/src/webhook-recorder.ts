import { verifyWebhook, WebhookPayloadSchema } from '@verify-kit/client';
import express, { type RequestHandler } from 'express';
import type { ActivityLog } from './activity-log.js';

/*
 * Sits in front of the kit's webhook receiver to show the playground what arrived: the demo
 * buffers the raw body (the kit then reads the same buffer), checks the signature itself with
 * the shared secret for display, and records the kit's answer once it has replied. The kit's own
 * verification is what decides; this only observes.
 */
export function recordWebhooks(secret: string | undefined, log: ActivityLog): RequestHandler[] {
  const observe: RequestHandler = (req, res, next) => {
    const raw: unknown = req.body;
    if (!Buffer.isBuffer(raw)) return next();
    let payload: ReturnType<typeof WebhookPayloadSchema.safeParse>['data'];
    try {
      payload = WebhookPayloadSchema.safeParse(JSON.parse(raw.toString('utf8'))).data;
    } catch {
      payload = undefined;
    }
    if (payload === undefined) return next();

    let signature: 'valid' | 'invalid' | 'not_checked' = 'not_checked';
    let signatureProblem: string | undefined;
    if (secret !== undefined) {
      try {
        verifyWebhook({ secret, headers: req.headers, body: raw });
        signature = 'valid';
      } catch (error) {
        signature = 'invalid';
        signatureProblem = error instanceof Error ? error.message : 'signature check failed';
      }
    }
    const identificationId = payload.data.identificationId;
    const { type, data } = payload;
    res.on('finish', () => {
      log.add(identificationId, {
        kind: 'webhook',
        at: new Date().toISOString(),
        type,
        ...(data.status === undefined ? {} : { status: data.status }),
        signature,
        ...(signatureProblem === undefined ? {} : { signatureProblem }),
        kitAnswer: res.statusCode,
      });
    });
    next();
  };
  return [express.raw({ type: () => true, limit: '256kb' }), observe];
}
