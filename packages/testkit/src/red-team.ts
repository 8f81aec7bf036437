// The third red team's findings (issue 33; SECURITY.md, "The third red team") as suites every shell
// runs over real HTTP: a grant not read from the service or received signed is never allowed in any
// shell, so each fix is held by the same tests on Express, on core's Fetch door and on Hono. A
// shell's test file gives a StartApp (its kit with these options, in an app of the shape GatedApp
// describes, on a real port) and calls the describe… functions below.
import { generateWebhookSecret } from '@verify-kit/client';
import { type Sandbox, type SandboxOptions, startSandbox } from '@verify-kit/sandbox';
import { createSandboxControl, type OutboxMessage } from '@verify-kit/sandbox/control';
import type { Dispatcher } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Browser } from './browser.js';
import { type FakeUpstream, startFakeUpstream } from './fake-upstream.js';
import { capturingLogger, expectKeyNeverLeaked, logLines } from './leaks.js';
import { fromAddress } from './source-address.js';
import { until } from './until.js';
import { startVerificationOn, verifyIn } from './verifications.js';
import { deliverWebhook } from './webhooks.js';

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

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** `count` anonymous verifications started from `address`, each in its own cookie jar. */
export async function verificationsFrom(app: GatedApp, address: string, count: number): Promise<Browser[]> {
  const dispatcher = fromAddress(address);
  const browsers: Browser[] = [];
  for (let i = 0; i < count; i++) {
    const browser = app.browser(dispatcher);
    expect((await browser.post('/identity/session')).status).toBe(201);
    browsers.push(browser);
    // Creations stay under the service's own limit: the flood is the reads.
    await sleep(40);
  }
  return browsers;
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
async function onSandbox(
  apiKey: string,
  options: SandboxOptions,
  start: (sandbox: Sandbox) => Promise<GatedApp>,
  run: (app: GatedApp, sandbox: Sandbox) => Promise<void>,
): Promise<void> {
  return runOn(await startSandbox({ apiKey, reviewDelayMs: 0, ...options }), start, run);
}

/**
 * Finding 1: one client polling at will made the service look down for everybody. Against the real
 * sandbox limited to 40 calls a second on the key, two addresses (127.0.0.2, 127.0.0.3) hold 30
 * anonymous verifications each and poll them every 50 ms, while verified people open the gated page
 * in new visits from 127.0.0.1: every one of them gets in, and the service never answers 429. One of
 * them was approved at the service and never read by the kit (nothing stored vouches for her): she
 * gets in only if her reads are counted at her own address, not at the flood's.
 */
export function describeReadFlood(apiKey: string, start: StartApp): void {
  describe('one client cannot make the service look down for everybody', () => {
    afterAll(() => expectKeyNeverLeaked(apiKey));

    const title =
      'verified people start their visits during a flood of status polls from two addresses: 0 refused';
    it(title, { timeout: 30_000 }, async () => {
      const rateLimit = { requests: 40, windowMs: 1000 };
      // No creation limit: 60 verifications from two addresses are the flood's set-up; its reads are the test.
      const startOn = (sandbox: Sandbox) => start({ baseUrl: sandbox.url, apiKey, sessionLimit: false });
      await onSandbox(apiKey, { rateLimit }, startOn, async (app, sandbox) => {
        const people = ['ada', 'grace', 'edsger', 'barbara', 'donald', 'frances'];
        for (const user of people) {
          const device = await app.signedIn(user);
          await verifyIn(sandbox, device);
          // The widget saw the approval: the kit read it once (a stored APPROVED).
          expect((await device.get<{ phase: string }>('/identity/status')).json.phase).toBe('approved');
        }
        const unread = 'katherine';
        await verifyIn(sandbox, await app.signedIn(unread));
        const attackers = [
          ...(await verificationsFrom(app, '127.0.0.2', 30)),
          ...(await verificationsFrom(app, '127.0.0.3', 30)),
        ];
        const logged = logLines.length;

        const flood = startFlood(attackers, 50);
        let perSecond: number;
        try {
          await until(() => flood.statuses.length >= 300, 'the flood under way');
          const [before, since] = [flood.statuses.length, Date.now()];
          // Visits for longer than a window of the read limit (5 s): some land in the seconds when
          // the flood's addresses, their windows new, spend the browsers' share of the ceiling.
          const visitors = [unread, ...people];
          for (let i = 0; i < visitors.length || Date.now() - since < 6000; i++) {
            // A new sign-in is a new visit: its first gated request reads the status upstream.
            const user = visitors[i % visitors.length] as string;
            const device = await app.signedIn(user);
            const { status } = await device.get('/api/data');
            expect({ user, status }).toEqual({ user, status: 200 });
            await sleep(250);
          }
          perSecond = ((flood.statuses.length - before) * 1000) / (Date.now() - since);
        } finally {
          await flood.stop();
        }
        // The flood went on through the visits, well over the service's 40 calls a second, answered
        // from the last read or 429 with Retry-After, never with an error.
        expect(perSecond).toBeGreaterThan(120);
        expect(flood.statuses.filter((status) => status !== 200 && status !== 429)).toEqual([]);
        expect(logLines.slice(logged).filter((line) => line.includes('answered 429'))).toEqual([]);
      });
    });
  });
}

/**
 * Finding 2: send caps were spent by sends that never happened. Against the real sandbox, whose
 * outbox shows every link the service sent, and the fake upstream for a send the service refuses.
 */
export function describeSendPoints(apiKey: string, start: StartApp): void {
  describe('send points for sends that go out', () => {
    let sandbox: Sandbox;
    beforeAll(async () => {
      sandbox = await startSandbox({ apiKey, reviewDelayMs: 0 });
    });
    afterAll(async () => {
      await sandbox?.close();
      expectKeyNeverLeaked(apiKey);
    });
    const closes = closedAfterEach();
    const SEND_EMAIL = { sendTo: { channel: 'email' } };
    const appWith = async (sendLink: RedTeamOptions['sendLink'], extra: Partial<RedTeamOptions> = {}) =>
      closes(await start({ baseUrl: sandbox.url, apiKey, sessionLimit: false, sendLink, ...extra }));

    it('one person’s triple click sends one link and costs one of their five', async () => {
      const ada = await (await appWith({})).signedIn('ada');
      const clicks = await Promise.all([1, 2, 3].map(() => ada.post('/identity/session', SEND_EMAIL)));
      expect(clicks.map((res) => res.status)).toEqual([201, 201, 201]);
      expect(await linksTo(sandbox, 'ada@example.com')).toHaveLength(1);
      // Four more sends (a new session each) are within the five an hour.
      for (let i = 0; i < 4; i++) {
        expect((await ada.post('/identity/session', { ...SEND_EMAIL, restart: true })).status).toBe(201);
      }
      expect(await linksTo(sandbox, 'ada@example.com')).toHaveLength(5);
      expect((await ada.post('/identity/session', { ...SEND_EMAIL, restart: true })).status).toBe(429);
    });

    it('20 accounts × 5 concurrent sends from one address cannot switch send-link off for everybody', async () => {
      const audit: { type: string }[] = [];
      const app = await appWith({ perHour: 100 }, { onAudit: (event) => audit.push(event) });
      const accounts = await Promise.all(Array.from({ length: 20 }, (_, i) => app.signedIn(`flood${i}`)));
      const answers = await Promise.all(
        accounts.flatMap((account) =>
          [1, 2, 3, 4, 5].map(() => account.post('/identity/session', SEND_EMAIL)),
        ),
      );
      const outbox = await createSandboxControl(sandbox).outbox();
      const links = outbox.filter((m) => m.kind === 'link' && m.recipient.startsWith('flood'));
      // The address's ten sends an hour went out; the rest were refused without spending anything.
      expect(links).toHaveLength(10);
      expect(answers.filter((res) => res.status === 429).length).toBeGreaterThan(0);
      expect(answers.filter((res) => res.status !== 201 && res.status !== 429)).toEqual([]);
      // Somebody else, from another address, still gets their link.
      const elsewhere = await app.signedIn('grace', fromAddress('127.0.0.2'));
      expect((await elsewhere.post('/identity/session', SEND_EMAIL)).status).toBe(201);
      expect(await linksTo(sandbox, 'grace@example.com')).toHaveLength(1);
      expect(audit.filter((e) => e.type === 'send-link.budget-spent')).toEqual([]);
    });

    it('a send the service refuses costs nothing; a spent budget is told to onAudit and the log once', async () => {
      const audit: { type: string }[] = [];
      const lines: string[] = [];
      const sendLink = { perRecipient: { max: 1, windowSeconds: 3600 }, perHour: 2 };
      const extra = {
        retries: 0,
        onAudit: (event: { type: string }) => audit.push(event),
        logger: { warn: (message: string) => lines.push(message) },
      };
      const startOn = (upstream: FakeUpstream) =>
        start({ baseUrl: upstream.url, apiKey, sendLink, ...extra });
      await onFakeUpstream(startOn, async (app, upstream) => {
        const ada = await app.signedIn('ada');
        upstream.mode = '500';
        expect((await ada.post('/identity/session', SEND_EMAIL)).status).toBe(503);
        upstream.mode = 'healthy';
        // Its one send an hour is still there.
        expect((await ada.post('/identity/session', SEND_EMAIL)).status).toBe(201);
        expect((await (await app.signedIn('bob')).post('/identity/session', SEND_EMAIL)).status).toBe(201);
        for (const user of ['carol', 'dan']) {
          expect((await (await app.signedIn(user)).post('/identity/session', SEND_EMAIL)).status).toBe(429);
        }
        expect(audit.filter((e) => e.type === 'send-link.budget-spent')).toHaveLength(1);
        expect(lines.filter((line) => line.includes('hourly budget of 2 sends is spent'))).toHaveLength(1);
      });
    });
  });
}

/**
 * Findings 3 and 4, on the fake upstream (the service whose answers a test sets): a 404 is a
 * decision, not an outage; a verified refusal holds against reads that lag it, and a grant that
 * overrode one is read again soon.
 */
export function describeDefinitiveAnswers(apiKey: string, start: StartApp): void {
  const secret = generateWebhookSecret();
  const withApp = (
    options: Partial<RedTeamOptions>,
    run: (app: GatedApp, upstream: FakeUpstream) => Promise<void>,
  ) => onFakeUpstream((upstream) => start({ baseUrl: upstream.url, apiKey, ...options }), run);
  const refuse = (app: GatedApp, identificationId: string) =>
    deliverWebhook(app.browser(), {
      secret,
      identificationId,
      type: 'identification.rejected',
      status: 'REJECTED',
    });

  describe('a definitive answer is a decision, not an outage', () => {
    it('the service no longer has the identification (404): the visit ends, the person is asked to verify again', async () => {
      await withApp({ maxAgeMs: 100 }, async (app, upstream) => {
        const { person, id } = await inVisit(app, upstream);
        upstream.statuses.delete(id); // retention, erasure, a reset at the vendor: 404 from now on
        await sleep(150); // the stored decision is due for its re-read
        const statuses = await gatedEvery(person, 15, 100);
        // At most the request that found it due is answered from the store; then refused, for good.
        expect(statuses.slice(2)).toEqual(Array(13).fill(403));
        const refused = await person.get<{ status: string | null }>('/api/data');
        expect(refused.json.status).toBeNull();
        expect((await person.get('/account', { accept: 'text/html' })).status).toBe(303);
        const status = await person.get<{ error: { code: string } }>('/identity/status');
        expect([status.status, status.json.error.code]).toEqual([404, 'NO_VERIFICATION_SESSION']);
        // The widget starts again: a new verification, not an error.
        expect((await person.post('/identity/session')).status).toBe(201);
        expect(upstream.lastIdentificationId()).not.toBe(id);
      });
    });

    it('an outage (5xx) still serves the stored APPROVED inside the visit', async () => {
      await withApp({ maxAgeMs: 100 }, async (app, upstream) => {
        const { person } = await inVisit(app, upstream);
        upstream.mode = '500';
        await sleep(150);
        expect(await gatedEvery(person, 5, 100)).toEqual(Array(5).fill(200));
      });
    });
  });

  describe('a verified refusal holds against a read that lags it', () => {
    it('the service’s reads lag its webhooks by 1.5 s: the revoked person is refused throughout', async () => {
      await withApp({ webhookSecret: secret }, async (app, upstream) => {
        const { person, id } = await inVisit(app, upstream);
        expect((await refuse(app, id)).status).toBe(204);
        // The read path still says APPROVED for 1.5 s, then catches up.
        const caughtUp = sleep(1500).then(() => upstream.statuses.set(id, 'REJECTED'));
        const statuses = await gatedEvery(person, 25, 100);
        await caughtUp;
        expect(statuses).toEqual(Array(25).fill(403));
      });
    });

    it('a read agreeing with APPROVED after the settling time grants, and is read again after it, not after maxAgeMs', async () => {
      await withApp({ webhookSecret: secret, refusalSettleMs: 500 }, async (app, upstream) => {
        const { person, id } = await inVisit(app, upstream);
        // A refusal the service then takes back (a reviewer's overturn): its reads say APPROVED.
        expect((await refuse(app, id)).status).toBe(204);
        expect((await person.get('/api/data')).status).toBe(403);
        await sleep(600);
        expect((await person.get('/api/data')).status).toBe(200);
        // Rejected again without a webhook: the grant is re-read after 500 ms, not after 5 minutes
        // (the default maxAgeMs): a gated request finds it due and re-reads it in the background.
        upstream.statuses.set(id, 'REJECTED');
        await sleep(600);
        const reads = upstream.reads;
        await person.get('/api/data');
        await until(() => upstream.reads > reads, 'the grant re-read');
        await until(async () => (await person.get('/api/data')).status === 403, 'the re-read refusal');
      });
    });
  });
}
