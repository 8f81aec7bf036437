// The third red team's findings (issue 33; SECURITY.md, "The third red team") as suites every shell
// runs over real HTTP: a grant not read from the service or received signed is never allowed in any
// shell, so each fix is held by the same tests on Express, on core's Fetch door and on Hono. A
// shell's test file gives a StartApp (its kit with these options, in an app of the shape GatedApp
// describes, on a real port) and calls the describe… functions of read-flood.ts, send-points.ts
// and definitive-answers.ts beside this file, which holds their shared app and helpers.
import { type Sandbox, type SandboxOptions, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl, type OutboxMessage } from '@verify-kit/sandbox/control';
import type { Dispatcher } from 'undici';
import { afterEach, expect } from 'vitest';
import { Browser } from '../browser.js';
import { type FakeUpstream, startFakeUpstream } from '../fake-upstream.js';
import { capturingLogger } from '../leaks.js';
import { fromAddress } from '../source-address.js';
import { startVerificationOn } from '../verifications.js';

/**
 * An integrator's app with the kit's routes under /identity, `GET /api/data` gated (403 JSON when
 * refused), `GET /account` gated with redirectTo '/verify', and a test sign-in, `POST /login?user=…`,
 * whose user is the account (accountOf).
 */
export interface GatedApp {
  /** A new browser (its own cookie jar); `dispatcher` for another source address (fromAddress). */
  browser(dispatcher?: Dispatcher): Browser;
  /** A new browser, signed in as `user` through the app's test sign-in. */
  signedIn(user: string, dispatcher?: Dispatcher): Promise<Browser>;
  close(): Promise<void>;
}

/** A cap of sends per window, as send-link's options take it. */
export interface SendCap {
  max: number;
  windowSeconds: number;
}

/** The kit's options the suites set; a shell's StartApp maps them onto its own (all else its defaults). */
export interface RedTeamOptions {
  baseUrl: string;
  apiKey: string;
  maxAgeMs?: number;
  refusalSettleMs?: number;
  webhookSecret?: string;
  retries?: number;
  sessionLimit?: false;
  onAudit?: (event: { type: string }) => void;
  /** Instead of the shell's capturingLogger() (whose lines land in logLines). */
  logger?: { warn(message: string): void };
  /** Send-link by e-mail only, to the signed-in account's `<user>@example.com`, with these caps. */
  sendLink?: { perHour?: number; perRecipient?: SendCap };
}

export type StartApp = (options: RedTeamOptions) => Promise<GatedApp>;

type Closable = { close(): Promise<void> };

/** `browser` and `signedIn` of an app at `url` whose test sign-in is `POST /login?user=…`. */
export function browsersAt(url: string): Pick<GatedApp, 'browser' | 'signedIn'> {
  const browser = (dispatcher?: Dispatcher) => new Browser(url, undefined, dispatcher && { dispatcher });
  return {
    browser,
    async signedIn(user, dispatcher) {
      const signedIn = browser(dispatcher);
      await signedIn.post(`/login?user=${encodeURIComponent(user)}`);
      return signedIn;
    },
  };
}

/** The GatedApp of an app answering at `url`; close() closes `parts`, in order. */
export function gatedAppAt(url: string, ...parts: Closable[]): GatedApp {
  return {
    ...browsersAt(url),
    async close() {
      for (const part of parts) await part.close();
    },
  };
}

/**
 * A shell's kit options for the suites' `options`, its requests' account read by `userOf` (the test
 * sign-in's): the accounts, send-link by e-mail to `<user>@example.com` with the suite's caps, the
 * capturing logger unless the suite gives one, and a workflow.
 */
export function redTeamKitOptions<Req>(options: RedTeamOptions, userOf: (req: Req) => string | undefined) {
  const { sendLink, ...engine } = options;
  const contactOf = (req: Req) => ({ email: `${userOf(req)}@example.com` });
  return {
    workflowId: 'default',
    logger: capturingLogger(),
    pollIntervalMs: 50,
    accountOf: userOf,
    ...engine,
    ...(sendLink && { sendLink: { channels: ['email'] as const, contactOf, ...sendLink } }),
  };
}

/** An app started on `service` for the length of `run`; both closed after, whatever happens. */
async function runOn<Service extends Closable, App extends Closable>(
  service: Service,
  start: (service: Service) => Promise<App>,
  run: (app: App, service: Service) => Promise<void>,
): Promise<void> {
  try {
    const app = await start(service);
    try {
      await run(app, service);
    } finally {
      await app.close();
    }
  } finally {
    await service.close();
  }
}

/** An app on a fresh fake upstream for the length of `run`; both closed after, whatever happens. */
export async function onFakeUpstream<App extends Closable>(
  start: (upstream: FakeUpstream) => Promise<App>,
  run: (app: App, upstream: FakeUpstream) => Promise<void>,
): Promise<void> {
  return runOn(await startFakeUpstream(), start, run);
}

/** Link messages the sandbox sent to `recipient` (its outbox also holds each session's one-time code). */
export async function linksTo(sandbox: Sandbox, recipient: string): Promise<OutboxMessage[]> {
  const sent = await createSandboxControl(sandbox).outbox({ recipient });
  return sent.filter((message) => message.kind === 'link');
}

/** Keeps what it is given (and answers it) to close it after the test that gave it. */
export function closedAfterEach(): <T extends Closable>(closable: T) => T {
  const open: Closable[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((closable) => closable.close()));
  });
  return (closable) => {
    open.push(closable);
    return closable;
  };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` anonymous verifications started from `address`, each in its own cookie jar. */
export async function verificationsFrom(app: GatedApp, address: string, count: number): Promise<Browser[]> {
  const dispatcher = fromAddress(address);
  const browsers: Browser[] = [];
  for (let i = 0; i < count; i++) {
    const browser = app.browser(dispatcher);
    expect(await createdAsTheWidgetDoes(browser)).toBe(201);
    browsers.push(browser);
    // Creations stay under the service's own limit: the flood is the reads.
    await sleep(40);
  }
  return browsers;
}

/**
 * POST /identity/session, asked again after 1 s on a 503 or 429, as the widget asks a refused start
 * again (three times at most): the set-up's creations share the service's 40 calls a second with the
 * kit's reads after the verified people's webhooks, and those can land in the same second (CI saw
 * one creation answered 503 there).
 */
async function createdAsTheWidgetDoes(browser: Browser): Promise<number> {
  let status = 0;
  for (let attempt = 0; attempt < 4; attempt++) {
    if (attempt > 0) await sleep(1000);
    status = (await browser.post('/identity/session')).status;
    if (status !== 503 && status !== 429) break;
  }
  return status;
}

/** Every browser polls GET /identity/status every `everyMs` until stop(); `statuses` as they are answered. */
export function startFlood(browsers: Browser[], everyMs: number) {
  const statuses: number[] = [];
  let stopped = false;
  const done = Promise.all(
    browsers.map(async (browser) => {
      while (!stopped) {
        statuses.push((await browser.get('/identity/status')).status);
        await sleep(everyMs);
      }
    }),
  );
  done.catch(() => undefined); // a poll that failed fails stop()
  return {
    statuses,
    /** Stops polling; resolves with every status once the last poll was answered. */
    async stop(): Promise<number[]> {
      stopped = true;
      await done;
      return statuses;
    },
  };
}

/** The statuses of `count` gated requests, `everyMs` apart. */
export async function gatedEvery(person: Browser, count: number, everyMs: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i++) {
    statuses.push((await person.get('/api/data')).status);
    await sleep(everyMs);
  }
  return statuses;
}

/** A person approved at the fake upstream who opened the gated page: a visit with a stored APPROVED. */
export async function inVisit(
  app: GatedApp,
  upstream: FakeUpstream,
): Promise<{ person: Browser; id: string }> {
  const person = app.browser();
  const id = await startVerificationOn(upstream, person);
  upstream.statuses.set(id, 'APPROVED');
  expect((await person.get('/api/data')).status).toBe(200);
  return { person, id };
}

/** A sandbox with `options` and an app on it for the length of `run`; both closed after, whatever happens. */
export async function onSandbox(
  apiKey: string,
  options: SandboxOptions,
  start: (sandbox: Sandbox) => Promise<GatedApp>,
  run: (app: GatedApp, sandbox: Sandbox) => Promise<void>,
): Promise<void> {
  return runOn(await startSandbox({ apiKey, reviewDelayMs: 0, ...options }), start, run);
}
