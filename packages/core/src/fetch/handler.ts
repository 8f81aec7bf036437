import { type Answer, errorAnswer, jsonAnswer, methodNotAllowed } from '../answers/answer.js';
import { answerQr } from '../answers/qr.js';
import { answerSession, SESSION_BODY_LIMIT_BYTES } from '../answers/session.js';
import { answerStatus } from '../answers/status.js';
import { WEBHOOK_BODY_LIMIT_BYTES, webhookReceiver } from '../answers/webhook.js';
import { ERROR_CODE } from '../shared/errors.js';
import { type HeaderOf, isCrossSite, isJsonContentType } from '../shared/request-guards.js';
import type { KitCore } from '../wiring/core.js';
import { readBody, readJson } from './body.js';
import { headerOf, kitRequestOf, type RequestContext, signalOf } from './kit-request.js';
import { toResponse } from './respond.js';
import type { Visitors } from './visitors.js';

type Route = 'session' | 'status' | 'qr.svg' | 'webhook';

const ALLOW: Record<Route, string> = {
  session: 'POST',
  status: 'GET, HEAD',
  'qr.svg': 'GET, HEAD',
  webhook: 'POST',
};

const NOT_FOUND = jsonAnswer(404, {
  error: {
    code: ERROR_CODE.ROUTE_NOT_FOUND,
    message: 'verify-kit answers /session, /status, /qr.svg and /webhook',
  },
});

/** The route a path names under `basePath` (a trailing slash allowed, as Express allows it). */
function routeOf(pathname: string, basePath: string): Route | undefined {
  if (!pathname.startsWith(`${basePath}/`)) return undefined;
  const rest = pathname.slice(basePath.length + 1).replace(/\/$/, '');
  return rest in ALLOW ? (rest as Route) : undefined;
}

/** The request's header; Host from the URL when the runtime keeps it there (a Fetch Request may). */
function withHost(header: HeaderOf, url: URL): HeaderOf {
  return (name) => header(name) ?? (name === 'host' ? url.host : undefined);
}

/**
 * kit.handle(request, context): the widget protocol and the webhook receiver under `basePath`, the
 * same answers as the Express router's (answers/), and 404/405 JSON elsewhere.
 */
export function createHandler(core: KitCore, basePath: string, visitors: Visitors) {
  const receiveWebhook = webhookReceiver(core);

  async function answer(request: Request, context: RequestContext, route: Route, url: URL) {
    if (route === 'webhook') {
      const { answer, after } = await receiveWebhook({
        alreadyParsed: request.bodyUsed,
        readBody: () => readBody(request, WEBHOOK_BODY_LIMIT_BYTES),
        headers: request.headers,
        verifierInput: (body) => ({ headers: request.headers, body }),
      });
      if (after !== undefined) {
        const work = after();
        context.waitUntil?.(work);
      }
      return { answer, cookies: [] };
    }
    const visitor = await visitors.of(request, context, visitors.secure(request, context));
    const kreq = kitRequestOf(request, context, visitor);
    let answered: Answer | undefined;
    if (route === 'session') {
      const header = withHost(headerOf(request, context), url);
      answered = await answerSession(core, kreq, {
        crossSite: isCrossSite(header),
        json: isJsonContentType(header),
        readJson: () => readJson(request, SESSION_BODY_LIMIT_BYTES),
        mountPath: basePath,
      });
    } else if (route === 'status') {
      answered = await answerStatus(core, kreq, url.searchParams, signalOf(request, context));
    } else {
      answered = await answerQr(core, kreq);
    }
    const cookie = await visitors.setCookie(visitor);
    return { answer: answered, cookies: cookie === undefined ? [] : [cookie] };
  }

  return async function handle(request: Request, context: RequestContext = {}): Promise<Response> {
    const url = new URL(request.url);
    const route = routeOf(url.pathname, basePath);
    const { method } = request;
    if (route === undefined) return toResponse(NOT_FOUND, method);
    if (!ALLOW[route].split(', ').includes(method)) return toResponse(methodNotAllowed(ALLOW[route]), method);
    try {
      const { answer: answered, cookies } = await answer(request, context, route, url);
      // The client left before its answer: nobody reads this one.
      return answered === undefined
        ? new Response(null, { status: 204 })
        : toResponse(answered, method, cookies);
    } catch (error) {
      core.logFailure(error, `${method} ${route}`);
      return toResponse(errorAnswer(error), method);
    }
  };
}
