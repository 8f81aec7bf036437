import express, { type Express } from 'express';
import type { Clock } from '../clock.js';
import type { RateLimiter } from '../rate-limit.js';
import type { SandboxService } from '../service.js';
import type { WebhookDispatcher } from '../webhook-dispatcher.js';
import { apiRouter } from './api-router.js';
import { apiKeyGuard } from './auth.js';
import { controlRouter } from './control-router.js';
import { errorHandler, notFoundHandler } from './error-handler.js';
import { indexPage, sendHtml } from './html.js';
import { publicRouter } from './public-router.js';
import { simulatorRouter } from './simulator-router.js';

export interface AppDeps {
  service: SandboxService;
  webhooks: WebhookDispatcher | undefined;
  clock: Clock;
  limiter: RateLimiter | undefined;
  apiKey: string;
  advanceClock: (ms: number) => void;
  /** Path prefix of the public base address ('' when served at the root). */
  basePath: () => string;
}

export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');

  app.use((_req, res, next) => {
    res.set('x-content-type-options', 'nosniff');
    next();
  });

  const guard = apiKeyGuard(deps.apiKey);
  app.get('/', (_req, res) => sendHtml(res, 200, indexPage(deps.basePath())));
  app.get('/favicon.ico', (_req, res) => {
    res.status(204).end();
  });
  app.use('/api/v1', apiRouter(deps.service, guard, deps.limiter));
  app.use('/public', publicRouter(deps.service, deps.basePath));
  app.use('/app', simulatorRouter(deps.service, deps.basePath));
  app.use(
    '/sandbox',
    controlRouter({
      service: deps.service,
      webhooks: deps.webhooks,
      clock: deps.clock,
      advanceClock: deps.advanceClock,
      requireKey: guard(401),
    }),
  );
  app.use(notFoundHandler);
  app.use(errorHandler);
  return app;
}
