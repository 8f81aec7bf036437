import type { SessionResponseBody, StatusResponseBody } from '@verify-kit/express/protocol';
import type { SandboxControl } from '@verify-kit/sandbox/control';
import { Browser, type BrowserResponse, CookieJar } from '@verify-kit/testkit';
import type { Dispatcher } from 'undici';
import { sleep } from '../stats.js';

/** What the phone does with the document: the sandbox approves or rejects it. */
export type Decision = 'approve' | 'reject';

/** A failed exchange: a status with the kit's error code, or `network:<code>` when no answer came. */
export interface Failure {
  at: number;
  step: 'sign-in' | 'session' | 'status' | 'gate';
  code: string;
  /** The widget retried it without showing anything (a 429, a 409, or a 5xx/dropped long-poll). */
  quiet: boolean;
}

export interface PersonResult {
  decision: Decision;
  identificationId: string | undefined;
  /** The last phase the browser was told. */
  phase: string | undefined;
  /** Epoch ms when the browser learned `approved`. */
  approvedSeenAt: number | undefined;
  /** What the gated page answered last. */
  gateStatus: number | undefined;
  failures: Failure[];
  /** When each answered sign-in, creation and gated page was sent (epoch ms): what a fault met. */
  sent: { step: Failure['step']; at: number }[];
  /** Why this person did not finish (the run's deadline, or more errors than a person tolerates). */
  gaveUp?: string;
}

export interface PersonContext {
  /** The site, through the load balancer. */
  siteUrl: string;
  dispatcher: Dispatcher;
  sandbox: SandboxControl;
  decision: Decision;
  /** The time the person takes between seeing the QR and showing the document (ms). */
  thinkMs: number;
  deadline: number;
}

const FINAL = new Set(['approved', 'rejected', 'expired']);
/** As the widget: failures in a row of a long-poll before it shows an error. */
const MAX_QUIET_FAILURES = 5;
/** How often a person presses "try again" on an error the widget shows, or reloads a failed page. */
const MAX_VISIBLE_RETRIES = 5;

class GiveUp extends Error {}

function codeOf(answer: BrowserResponse): string {
  const code = (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return typeof code === 'string' ? `${answer.status} ${code}` : String(answer.status);
}

function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown }; code?: unknown }) ?? {};
  const code = cause.code ?? cause.cause?.code ?? (error instanceof Error ? error.name : 'error');
  return `network:${String(code)}`;
}

function retryAfterMs(answer: BrowserResponse, fallback: number): number {
  const header = Number(answer.headers['retry-after']);
  return Number.isFinite(header) && header >= 0 ? Math.max(header * 1000, fallback) : fallback;
}

const jitter = (ms: number) => ms * (0.75 + Math.random() / 2);

/**
 * One person through the balancer, doing what the widget does: signs in, creates the verification
 * (409/429 asked again quietly), the phone shows a document the sandbox approves or rejects, the
 * browser long-polls until the decision (5xx, dropped connections and 429 retried quietly as the
 * widget does), then opens the gated page. Every failed exchange is recorded with its time.
 */
export async function runPerson(ctx: PersonContext): Promise<PersonResult> {
  const browser = new Browser(ctx.siteUrl, new CookieJar(), { record: false, dispatcher: ctx.dispatcher });
  const result: PersonResult = {
    decision: ctx.decision,
    identificationId: undefined,
    phase: undefined,
    approvedSeenAt: undefined,
    gateStatus: undefined,
    failures: [],
    sent: [],
  };
  const fail = (step: Failure['step'], code: string, quiet: boolean) =>
    result.failures.push({ at: Date.now(), step, code, quiet });
  /** One exchange; a transport error is an answer of status 0. */
  const send = async <T>(run: () => Promise<BrowserResponse<T>>): Promise<BrowserResponse<T> | string> => {
    if (Date.now() > ctx.deadline) throw new GiveUp('the run’s deadline');
    try {
      return await run();
    } catch (error) {
      return networkCode(error);
    }
  };
  /** A page or form of the app itself: the person retries (reloads) what failed, each failure visible. */
  const visible = async <T>(
    step: Failure['step'],
    expected: number[],
    run: () => Promise<BrowserResponse<T>>,
    quietCodes: number[] = [],
  ): Promise<BrowserResponse<T>> => {
    let shown = 0;
    for (let attempt = 0; ; attempt++) {
      const at = Date.now();
      const answer = await send(run);
      if (typeof answer !== 'string' && expected.includes(answer.status)) {
        result.sent.push({ step, at });
        return answer;
      }
      const quiet = typeof answer !== 'string' && quietCodes.includes(answer.status);
      fail(step, typeof answer === 'string' ? answer : codeOf(answer), quiet);
      if (!quiet && ++shown > MAX_VISIBLE_RETRIES) throw new GiveUp(`${step}: too many errors`);
      await sleep(
        quiet && typeof answer !== 'string'
          ? retryAfterMs(answer, jitter(500 * 2 ** Math.min(attempt, 4)))
          : 1000,
      );
    }
  };

  try {
    await visible('sign-in', [201], () => browser.post('/sign-in'));
    const created = await visible(
      'session',
      [201],
      () => browser.post<SessionResponseBody>('/identity/session'),
      [409, 429],
    );
    result.phase = created.json.phase;
    const ids = await ctx.sandbox.sessionByCode(created.json.sessionCode);
    result.identificationId = ids.identificationId;
    const following = follow(browser, result, send, fail, ctx.deadline);
    following.catch(() => {}); // awaited below; a give-up before then is not unhandled
    await sleep(ctx.thinkMs);
    await ctx.sandbox.submitDocument(ids.id, { scenario: ctx.decision });
    await following;
    const gate = await visible('gate', [200, 303, 403], () => browser.get('/account'));
    result.gateStatus = gate.status;
  } catch (error) {
    result.gaveUp = error instanceof Error ? error.message : String(error);
  }
  return result;
}

/** The widget's status follower: long-polls until a final phase. */
async function follow(
  browser: Browser,
  result: PersonResult,
  send: <T>(run: () => Promise<BrowserResponse<T>>) => Promise<BrowserResponse<T> | string>,
  fail: (step: Failure['step'], code: string, quiet: boolean) => void,
  deadline: number,
): Promise<void> {
  let failures = 0;
  let shown = 0;
  let notFoundRetried = false;
  while (!FINAL.has(result.phase ?? '')) {
    if (Date.now() > deadline) throw new GiveUp(`status: still ${result.phase} at the deadline`);
    const answer = await send(() =>
      browser.get<StatusResponseBody>(
        `/identity/status?wait=25&since=${encodeURIComponent(result.phase ?? '')}`,
      ),
    );
    if (typeof answer !== 'string' && answer.status === 200) {
      result.phase = answer.json.phase;
      if (result.phase === 'approved') result.approvedSeenAt = Date.now();
      failures = 0;
      notFoundRetried = false;
      continue;
    }
    const code = typeof answer === 'string' ? answer : codeOf(answer);
    const status = typeof answer === 'string' ? 0 : answer.status;
    const backoff = jitter(Math.min(2000 * 2 ** failures, 60_000));
    if (status === 429) {
      fail('status', code, true);
      await sleep(retryAfterMs(answer as BrowserResponse, backoff));
    } else if (code.includes('NO_VERIFICATION_SESSION') && !notFoundRetried) {
      fail('status', code, true);
      notFoundRetried = true;
    } else if ((status === 0 || status >= 500) && ++failures < MAX_QUIET_FAILURES) {
      fail('status', code, true);
      await sleep(backoff);
    } else {
      // The widget shows the error; the person presses "try again".
      fail('status', code, false);
      failures = 0;
      if (++shown > MAX_VISIBLE_RETRIES) throw new GiveUp('status: too many errors');
      await sleep(1000);
    }
  }
}
