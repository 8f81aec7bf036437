import type { SessionResponseBody, StatusResponseBody } from '@verify-kit/express/protocol';
import type { Dispatcher } from 'undici';
import { type Answer, SimulatedBrowser } from './browser.js';
import type { GrantJudge } from './grant-judge.js';
import { GATED_PATH } from './kit-app.js';
import type { SandboxDirect } from './sandbox-direct.js';

/** The steps of one user, in order; `decision` is the wait from submission to `approved`. */
export const STEPS = ['session', 'status', 'lookup', 'submit', 'decision', 'gate', 'total'] as const;
export type Step = (typeof STEPS)[number];

export interface FlowContext {
  kitUrl: string;
  kitDispatcher: Dispatcher;
  sandbox: SandboxDirect;
  judge: GrantJudge;
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
}

class StepError extends Error {}

function describe(answer: Answer): string {
  const code = (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
  return `HTTP ${answer.status}${typeof code === 'string' ? ` ${code}` : ''}`;
}

function expectStatus(step: Step, answer: Answer, status: number): void {
  if (answer.status !== status) throw new StepError(`${step}: expected ${status}, got ${describe(answer)}`);
}

/**
 * One person, start to finish: creates a session through the kit, reads its status, has the
 * "phone" submit a document to the sandbox, long-polls the kit until approved, opens the gated page.
 */
export async function runUser(ctx: FlowContext): Promise<UserResult> {
  const browser = new SimulatedBrowser(ctx.kitUrl, ctx.kitDispatcher);
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
    const ids = await timed('lookup', async () => {
      const answer = await ctx.sandbox.byCode(created.sessionCode);
      if (answer.status !== 200 || answer.json === undefined) {
        throw new StepError(`lookup: by-code answered ${answer.status}`);
      }
      return answer.json;
    });
    await timed('submit', async () => {
      const answer = await ctx.sandbox.submit(ids.id, 'approve');
      if (answer.status !== 202) throw new StepError(`submit: expected 202, got ${answer.status}`);
    });
    await timed('decision', async () => {
      let phase = first.phase;
      while (phase !== 'approved') {
        if (Date.now() > ctx.deadline) throw new StepError(`decision: still ${phase} at the deadline`);
        longPolls++;
        const answer = await browser.get<StatusResponseBody>(
          `/identity/status?wait=${ctx.waitSeconds}&since=${phase}`,
        );
        expectStatus('decision', answer, 200);
        const next = answer.json?.phase;
        if (
          next !== 'awaiting_user' &&
          next !== 'in_review' &&
          next !== 'in_manual_review' &&
          next !== 'approved'
        ) {
          throw new StepError(`decision: unexpected phase ${next}`);
        }
        phase = next;
      }
    });
    const gate = await timed('gate', () => browser.get(GATED_PATH));
    timings.total = performance.now() - started;
    if (gate.status === 200 && !(await ctx.judge.judge(ids.identificationId))) {
      throw new StepError('gate: FALSE GRANT (the sandbox had not approved)');
    }
    expectStatus('gate', gate, 200);
    return { ok: true, timings, longPolls };
  } catch (error) {
    // A transport error says how long its request had been running (a reused socket fails at once).
    const message =
      error instanceof StepError
        ? error.message
        : `${step}: ${error instanceof Error ? error.message : error} (after ${Math.round((performance.now() - t0) / 100) * 100} ms)`;
    return { ok: false, timings, error: message, longPolls };
  }
}
