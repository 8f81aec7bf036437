import {
  parseRetryAfter,
  type SessionResponseBody,
  type StatusResponseBody,
} from '@verify-kit/express/protocol';
import type { SandboxControl } from '@verify-kit/sandbox/control';
import { Browser, type BrowserResponse, CookieJar } from '@verify-kit/testkit';
// The widget's own policy, not a copy: when it asks again quietly and when it shows an error.
import {
  type Failure as Answered,
  backoff,
  MAX_STATUS_FAILURES,
  retryDelay,
  startRetryDelay,
} from '@verify-kit/widget/retry-policy';
import type { Dispatcher } from 'undici';
import { sleep } from '../stats.js';

/** What the reviewer decides of the person's document: the sandbox approves or rejects it. */
export type Decision = 'approve' | 'reject';

/** A failed exchange: a status with the kit's error code, or `network:<code>` when no answer came. */
export interface Failure {
  at: number;
  step: 'sign-in' | 'session' | 'status' | 'gate';
  code: string;
  /** The widget retried it without showing anything (see `@verify-kit/widget/retry-policy`). */
  quiet: boolean;
}

/** One status exchange of the browser's follower: when it left, when it ended, and how. */
export interface Poll {
  sentAt: number;
  answeredAt: number;
  /** The phase answered, or the failure's code (`network:…`, `503 BINDING_STORE_UNAVAILABLE`, …). */
  outcome: string;
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
  /** Every status exchange of the follower, in order: where an approval's wait went. */
  polls: Poll[];
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
  /**
   * When the reviewer decides, after the document was submitted: the sandbox's automatic review puts
   * it in manual review after its review delay, and the decision comes at a random moment after it,
   * so that the decision falls anywhere in the kit's re-read cycle (a fixed review time would line
   * up with it, and the lost webhook's wait would be the same every time).
   */
  decideAfterMs: number;
  deadline: number;
}

const FINAL = new Set(['approved', 'rejected', 'expired']);
/** The element's default `poll-interval`: the base of its status follower's backoff. */
const POLL_INTERVAL_MS = 2000;
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

/** An answer as the widget's policy reads it: status (0: none) and Retry-After. */
const answered = (answer: BrowserResponse | string): Answered =>
  typeof answer === 'string'
    ? { status: 0 }
    : { status: answer.status, retryAfterMs: parseRetryAfter(answer.headers['retry-after']) };

/**
 * One person through the balancer, doing what the widget does by the widget's own retry policy:
 * signs in, creates the verification (409, 429 and 503 asked again quietly), the phone shows a
 * document the sandbox approves or rejects, the browser long-polls until the decision (5xx, dropped
 * connections and 429 retried quietly), then opens the gated page. Every failed exchange is
 * recorded with its time.
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
    polls: [],
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
  /**
   * A page or form of the app itself, or the widget's creation: `quietly` says how long to wait before
   * a quiet retry of try `attempt`, or undefined when the failure shows; the person retries (reloads,
   * presses "try again") what showed, and the tries start again.
   */
  const visible = async <T>(
    step: Failure['step'],
    expected: number[],
    run: () => Promise<BrowserResponse<T>>,
    quietly: (failure: Answered, attempt: number) => number | undefined = () => undefined,
  ): Promise<BrowserResponse<T>> => {
    let shown = 0;
    for (let attempt = 1; ; attempt++) {
      const at = Date.now();
      const answer = await send(run);
      if (typeof answer !== 'string' && expected.includes(answer.status)) {
        result.sent.push({ step, at });
        return answer;
      }
      const wait = quietly(answered(answer), attempt);
      fail(step, typeof answer === 'string' ? answer : codeOf(answer), wait !== undefined);
      if (wait === undefined) {
        if (++shown > MAX_VISIBLE_RETRIES) throw new GiveUp(`${step}: too many errors`);
        attempt = 0;
      }
      await sleep(wait ?? 1000);
    }
  };

  try {
    await visible('sign-in', [201], () => browser.post('/sign-in'));
    const created = await visible(
      'session',
      [201],
      () => browser.post<SessionResponseBody>('/identity/session'),
      startRetryDelay,
    );
    result.phase = created.json.phase;
    const ids = await ctx.sandbox.sessionByCode(created.json.sessionCode);
    result.identificationId = ids.identificationId;
    const following = follow(browser, result, send, fail, ctx.deadline);
    following.catch(() => {}); // awaited below; a give-up before then is not unhandled
    await sleep(ctx.thinkMs);
    await ctx.sandbox.submitDocument(ids.id, { scenario: 'manual_review' });
    await decide(ctx, ids.identificationId);
    await following;
    const gate = await visible('gate', [200, 303, 403], () => browser.get('/account'));
    result.gateStatus = gate.status;
  } catch (error) {
    result.gaveUp = error instanceof Error ? error.message : String(error);
  }
  return result;
}

/** The reviewer's decision `decideAfterMs` after the submission, once the document is in manual review. */
async function decide(ctx: PersonContext, identificationId: string): Promise<void> {
  await sleep(ctx.decideAfterMs);
  const status = ctx.decision === 'approve' ? 'APPROVED' : 'REJECTED';
  for (;;) {
    try {
      await ctx.sandbox.decide(identificationId, status);
      return;
    } catch (error) {
      // 409 while the automatic review still runs (a loaded machine): a moment later.
      if (Date.now() > ctx.deadline) throw new GiveUp(`review: ${String(error)}`);
      await sleep(100);
    }
  }
}

/** The widget's status follower: long-polls until a final phase, backing off as it does. */
async function follow(
  browser: Browser,
  result: PersonResult,
  send: <T>(run: () => Promise<BrowserResponse<T>>) => Promise<BrowserResponse<T> | string>,
  fail: (step: Failure['step'], code: string, quiet: boolean) => void,
  deadline: number,
): Promise<void> {
  let failures = 0;
  let backoffs = 0;
  let shown = 0;
  let notFoundRetried = false;
  while (!FINAL.has(result.phase ?? '')) {
    if (Date.now() > deadline) throw new GiveUp(`status: still ${result.phase} at the deadline`);
    const sentAt = Date.now();
    const answer = await send(() =>
      browser.get<StatusResponseBody>(
        `/identity/status?wait=25&since=${encodeURIComponent(result.phase ?? '')}`,
      ),
    );
    const ok = typeof answer !== 'string' && answer.status === 200;
    const outcome = ok ? answer.json.phase : typeof answer === 'string' ? answer : codeOf(answer);
    result.polls.push({ sentAt, answeredAt: Date.now(), outcome });
    if (ok) {
      result.phase = answer.json.phase;
      if (result.phase === 'approved') result.approvedSeenAt = Date.now();
      failures = backoffs = 0;
      notFoundRetried = false;
      continue;
    }
    const code = typeof answer === 'string' ? answer : codeOf(answer);
    const status = typeof answer === 'string' ? 0 : answer.status;
    const wait = backoff(POLL_INTERVAL_MS, backoffs++);
    if (status === 429) {
      fail('status', code, true);
      await sleep(retryDelay(answered(answer), wait));
    } else if (code.includes('NO_VERIFICATION_SESSION') && !notFoundRetried) {
      fail('status', code, true);
      notFoundRetried = true;
    } else if ((status === 0 || status >= 500) && ++failures < MAX_STATUS_FAILURES) {
      fail('status', code, true);
      await sleep(wait);
    } else {
      // The widget shows the error; the person presses "try again".
      fail('status', code, false);
      failures = backoffs = 0;
      if (++shown > MAX_VISIBLE_RETRIES) throw new GiveUp('status: too many errors');
      await sleep(1000);
    }
  }
}
