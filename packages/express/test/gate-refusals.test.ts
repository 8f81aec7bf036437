// requireApproved({ onRefuse: 'next' }): a refusal reaches the app's own error handler.
import { isVerifyKitError } from '@verify-kit/client';
import { Browser, listen } from '@verify-kit/testkit';
import express, { type NextFunction, type Request, type Response } from 'express';
import session from 'express-session';
import { describe, expect, it } from 'vitest';
import { createVerifyKit } from '../src/index.js';
import { useFakeUpstreamApp } from './support/fixtures.js';

const API_KEY = 'sk_test_gate_refusals_1b2c';
const context = useFakeUpstreamApp(API_KEY);

describe("requireApproved({ onRefuse: 'next' })", () => {
  it('hands NOT_APPROVED (httpStatus 403, the status and phase) to the app’s error handler; approved passes', async () => {
    const kit = createVerifyKit({ baseUrl: context.upstream.url, apiKey: API_KEY, workflowId: 'default' });
    const app = express();
    app.use(session({ secret: 's', resave: false, saveUninitialized: false }));
    app.use('/identity', kit.router);
    app.get('/members', kit.requireApproved({ onRefuse: 'next' }), (_req, res) =>
      res.json({ members: true }),
    );
    app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
      if (!isVerifyKitError(error, 'NOT_APPROVED')) throw error;
      const { verification } = error as typeof error & { verification: unknown };
      res.status(error.httpStatus ?? 500).json({ mine: true, code: error.code, verification });
    });
    const server = await listen(app);
    try {
      const person = new Browser(server.url);
      expect((await person.get('/members')).json).toEqual({
        mine: true,
        code: 'NOT_APPROVED',
        verification: { status: null, phase: null },
      });
      await person.post('/identity/session');
      const refused = await person.get('/members');
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({
        verification: { status: 'IN_AUTOMATIC_REVIEW', phase: 'awaiting_user' },
      });
      context.upstream.statuses.set(context.upstream.lastIdentificationId(), 'APPROVED');
      expect((await person.get('/members')).json).toEqual({ members: true });
    } finally {
      await kit.close();
      await server.close();
    }
  });
});
