import type { SessionResponseBody, StatusResponseBody } from '@verify-kit/express/protocol';
import type { SandboxControl } from '@verify-kit/sandbox/control';
import type { Browser, BrowserResponse } from '@verify-kit/testkit';

/** The steps of one user, in order; `decision` is the wait from submission to `approved`. */
export const STEPS = ['session', 'status', 'lookup', 'submit', 'decision', 'gate', 'total'] as const;
export type Step = (typeof STEPS)[number];

export interface FlowContext {
  /** This person's browser on the kit's app. */
  browser: Browser;
  sandbox: SandboxControl;
  /** `wait` of each long-poll, seconds. */
  waitSeconds: number;
  /** Epoch ms after which a user gives up (the run is bounded in time). */
  deadline: number;
}

export interface UserResult {
  ok: boolean;
  /** ms per step. */
  timings: Partial<Record<Step, number>>;
  /** `step: what went wrong`, when not ok. */
  error?: string;
  longPolls: number;
  /** The gate let this person through while the sandbox had not approved them. */
  falseGrant: boolean;
}

class StepError extends Error {}

function describe(answer: BrowserResponse): string {
  const code = (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return `HTTP ${answer.status}${typeof code === 'string' ? ` ${code}` : ''}`;
}

function expectStatus(step: Step, answer: BrowserResponse, status: number): void {
  if (answer.status !== status) throw new StepError(`${step}: expected ${status}, got ${describe(answer)}`);
}

/**
 * One person, start to finish: creates a session through the kit, reads its status, has the
 * "phone" submit a document to the sandbox, long-polls the kit until approved, opens the gated page.
 */
export async function runUser(ctx: FlowContext): Promise<UserResult> {
  const { browser } = ctx;
  let falseGrant = false;
  const timings: Partial<Record<Step, number>> = {};
  let longPolls = 0;
  let step: Step = 'session';
  const started = performance.now();
  let t0 = started;
  const timed = async <T>(name: Step, run: () => Promise<T>): Promise<T> => {
    step = name;
    t0 = performance.now();
    const value = await run();
    timings[name] = performance.now() - t0;
    return value;
  };
  try {
    const created = await timed('session', async () => {
      const answer = await browser.post<SessionResponseBody>('/identity/session', {});
      expectStatus('session', answer, 201);
      if (typeof answer.json?.sessionCode !== 'string') throw new StepError('session: no sessionCode');
      return answer.json;
    });
    const first = await timed('status', async () => {
      const answer = await browser.get<StatusResponseBody>('/identity/status');
      expectStatus('status', answer, 200);
      if (answer.json?.phase !== 'awaiting_user') {
        throw new StepError(`status: expected awaiting_user, got ${answer.json?.phase}`);
      }
      return answer.json;
    });
    const ids = await timed('lookup', () => ctx.sandbox.sessionByCode(created.sessionCode));
    await timed('submit', () => ctx.sandbox.submitDocument(ids.id, { scenario: 'approve' }));
    await timed('decision', async () => {
      longPolls = await waitForApproval(ctx, first.phase);
    });
    const gate = await timed('gate', () => browser.get('/account'));
    timings.total = performance.now() - started;
    // APPROVED is final in the sandbox: not APPROVED now means not APPROVED when the gate answered.
    if (gate.status === 200 && (await ctx.sandbox.readStatus(ids.identificationId)) !== 'APPROVED') {
      falseGrant = true;
      throw new StepError('gate: FALSE GRANT (the sandbox had not approved)');
    }
    expectStatus('gate', gate, 200);
    return { ok: true, timings, longPolls, falseGrant };
  } catch (error) {
    // A transport error says how long its request had been running (a reused socket fails at once).
    const message =
      error instanceof StepError
        ? error.message
        : `${step}: ${error instanceof Error ? error.message : error} (after ${Math.round((performance.now() - t0) / 100) * 100} ms)`;
    return { ok: false, timings, error: message, longPolls, falseGrant };
  }
}

/** Long-polls the kit until `approved`; answers how many long-polls it took. */
async function waitForApproval(ctx: FlowContext, from: string): Promise<number> {
  const moving = new Set(['awaiting_user', 'in_review', 'in_manual_review', 'approved']);
  let phase = from;
  let longPolls = 0;
  while (phase !== 'approved') {
    if (Date.now() > ctx.deadline) throw new StepError(`decision: still ${phase} at the deadline`);
    longPolls++;
    const answer = await ctx.browser.get<StatusResponseBody>(
      `/identity/status?wait=${ctx.waitSeconds}&since=${phase}`,
    );
    expectStatus('decision', answer, 200);
    const next = answer.json?.phase;
    if (next === undefined || !moving.has(next)) throw new StepError(`decision: unexpected phase ${next}`);
    phase = next;
  }
  return longPolls;
}
