import { isPhase, type SessionResponseBody, type StatusResponseBody } from '@verify-kit/protocol';
import type { Browser, BrowserResponse } from '@verify-kit/testkit';
import {
  decide,
  openByCode,
  readStatus,
  type SandboxLike,
  type Scenario,
  submitDocument,
} from './sandbox.js';

/** What the sandbox does with a user's identification during a fault run. */
export const FAULT_SCENARIOS = [
  'approve',
  'reject',
  'manual_then_approve',
  'manual_then_reject',
  'resubmit_then_approve',
  'never_submits',
] as const;
export type FaultScenario = (typeof FAULT_SCENARIOS)[number];

/** Scenarios whose user ends up APPROVED by the sandbox: the gate must let them through at last. */
export const APPROVED_SCENARIOS: readonly FaultScenario[] = [
  'approve',
  'manual_then_approve',
  'resubmit_then_approve',
];

/** A fixed mix: about 45 % end approved, the rest rejected, in review or waiting. */
export function scenarioOf(index: number): FaultScenario {
  const mix: FaultScenario[] = [
    'approve',
    'reject',
    'approve',
    'manual_then_approve',
    'never_submits',
    'manual_then_reject',
    'approve',
    'resubmit_then_approve',
    'reject',
    'manual_then_reject',
  ];
  return mix[index % mix.length]!;
}

export interface FaultUserContext {
  browser: Browser;
  sandbox: SandboxLike;
  judge: GrantJudge;
  /** Rounds of gated requests after submission (approved users go on until they pass). */
  rounds: number;
  /** Concurrent gated requests per round (the gate coalesces them). */
  gatedPerRound: number;
  /** A failing POST /session is retried, like a person pressing the button again. */
  maxCreateAttempts: number;
  deadline: number;
  random: () => number;
}

export interface FaultUserResult {
  scenario: FaultScenario;
  identificationId: string | undefined;
  createAttempts: number;
  gated: number;
  granted: number;
  falseGrants: number;
  /** Gate answers by kind: `200`, `303`, `403 NOT_APPROVED`, `503 UPSTREAM_TIMEOUT`… */
  answers: Record<string, number>;
  /** Answers outside the contract (untyped errors, unexpected statuses). */
  violations: string[];
  /** Problems of the harness itself (the sandbox read directly, the deadline). */
  errors: string[];
  /** Requests to the kit that got no HTTP answer at all (connection refused, reset, timed out). */
  noAnswer: string[];
  /** /status answers 404 because the request carried the session id that was just regenerated. */
  staleCookie: number;
}

const TYPED_CODE = /^[A-Z][A-Z0-9_]*$/;
const NAVIGATION = {
  accept: 'text/html,application/xhtml+xml',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
};

const codeOf = (answer: BrowserResponse) =>
  (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A failure of the upstream surfaces as 502/503/504 with a typed code, never anything else. */
function isTypedUpstreamFailure(answer: BrowserResponse): boolean {
  const code = codeOf(answer);
  return [502, 503, 504].includes(answer.status) && typeof code === 'string' && TYPED_CODE.test(code);
}

/**
 * One person while the upstream misbehaves: starts a verification (retrying failures), has the
 * phone submit a document per its scenario, and hits the gate round after round. Every gate 200 is
 * judged against the sandbox itself; every other answer must be 303, 403 or 503 with a typed code.
 */
export function runFaultUser(index: number, ctx: FaultUserContext): Promise<FaultUserResult> {
  return new FaultUser(scenarioOf(index), ctx).run();
}

class FaultUser {
  readonly result: FaultUserResult;

  constructor(
    readonly scenario: FaultScenario,
    private readonly ctx: FaultUserContext,
  ) {
    this.result = {
      scenario,
      identificationId: undefined,
      createAttempts: 0,
      gated: 0,
      granted: 0,
      falseGrants: 0,
      answers: {},
      violations: [],
      errors: [],
      noAnswer: [],
      staleCookie: 0,
    };
  }

  async run(): Promise<FaultUserResult> {
    const { ctx, result, scenario } = this;
    const sessionCode = await this.create();
    if (sessionCode === undefined) return result;
    // The phone opens the session by its code (directly at the sandbox, never through the proxy).
    result.identificationId = (await openByCode(ctx.sandbox, sessionCode)).identificationId;
    // Before anything was submitted, nobody may pass.
    await this.round();
    const document = FIRST_DOCUMENT[scenario];
    if (document !== undefined) await submitDocument(ctx.sandbox, sessionCode, document);
    // Rounds of gated requests; the reviewer or the person acts after the second. A user the
    // sandbox approves goes on until the gate lets them through or the deadline passes: under
    // pressure the kit reuses a read for up to a second, so a faulted read can stand for many rounds.
    let acted = scenario === 'approve' || scenario === 'reject' || scenario === 'never_submits';
    const wantsGrant = APPROVED_SCENARIOS.includes(scenario);
    for (let r = 1; ; r++) {
      if (r > ctx.rounds && (!wantsGrant || result.granted > 0)) break;
      if (Date.now() > ctx.deadline) {
        result.errors.push(
          wantsGrant ? 'deadline reached before the gate let an approved user through' : 'deadline reached',
        );
        break;
      }
      await this.round();
      if (!acted && r >= 2) acted = await act(ctx.sandbox, scenario, result.identificationId, sessionCode);
      await sleep(10 + ctx.random() * 40);
    }
    return result;
  }

  /** Starts a verification through the kit (the upstream may fail it: press again); its session code. */
  async create(): Promise<string | undefined> {
    const { ctx, result } = this;
    while (result.createAttempts < ctx.maxCreateAttempts) {
      result.createAttempts++;
      try {
        const answer = await ctx.browser.post<SessionResponseBody>('/identity/session', {});
        if (answer.status === 201 && typeof answer.json?.sessionCode === 'string')
          return answer.json.sessionCode;
        if (!isTypedUpstreamFailure(answer)) {
          result.violations.push(`session: ${answer.status} ${answer.text.slice(0, 120)}`);
        }
      } catch (error) {
        result.noAnswer.push(`session: ${error instanceof Error ? error.message : error}`);
      }
    }
    result.errors.push(`session: not created in ${ctx.maxCreateAttempts} attempts`);
    return undefined;
  }

  round(): Promise<void> {
    const gated = Array.from({ length: this.ctx.gatedPerRound }, () => this.gateOnce());
    return Promise.all([...gated, this.statusOnce()]).then(() => undefined);
  }

  #count(key: string): void {
    this.result.answers[key] = (this.result.answers[key] ?? 0) + 1;
  }

  async gateOnce(): Promise<void> {
    const { ctx, result } = this;
    const navigation = ctx.random() < 0.4;
    result.gated++;
    let answer: BrowserResponse;
    try {
      answer = await ctx.browser.get('/account', navigation ? NAVIGATION : undefined);
    } catch (error) {
      this.#count('no answer');
      result.noAnswer.push(`gate: ${error instanceof Error ? error.message : error}`);
      return;
    }
    // A navigation's 503 is the kit's HTML page, which names the code; everything else is JSON.
    const htmlCode = navigation ? /Error code: ([A-Z][A-Z0-9_]*)/.exec(answer.text)?.[1] : undefined;
    const code = codeOf(answer) ?? htmlCode;
    if (answer.status === 200) {
      this.#count('200');
      result.granted++;
      const id = result.identificationId;
      if (id === undefined || !(await ctx.judge.judge(id))) {
        result.falseGrants++;
        result.violations.push(`gate: FALSE GRANT for ${this.scenario}`);
      }
    } else if (answer.status === 303) {
      this.#count('303');
      const location = String(answer.headers.location ?? '');
      if (!navigation || !location.startsWith('/verify')) {
        result.violations.push(`gate: 303 to ${JSON.stringify(location)} (navigation: ${navigation})`);
      }
    } else if (answer.status === 403 && code === 'NOT_APPROVED') {
      this.#count('403 NOT_APPROVED');
      if (navigation) result.violations.push('gate: 403 for a navigation (expected 303)');
    } else if (answer.status === 503 && typeof code === 'string' && TYPED_CODE.test(code)) {
      this.#count(`503 ${code}`);
    } else {
      this.#count(`${answer.status} ${String(code)}`);
      result.violations.push(`gate: ${answer.status} ${String(code)}: ${answer.text.slice(0, 120)}`);
    }
  }

  async statusOnce(): Promise<void> {
    const { ctx, result } = this;
    let answer: BrowserResponse<StatusResponseBody>;
    const cookieBefore = ctx.browser.cookieHeader;
    try {
      answer = await ctx.browser.get<StatusResponseBody>('/identity/status');
    } catch (error) {
      result.noAnswer.push(`status: ${error instanceof Error ? error.message : error}`);
      return;
    }
    if (answer.status === 200) {
      const phase = answer.json?.phase;
      if (phase === undefined || !isPhase(phase)) result.violations.push(`status: phase ${phase}`);
      const id = result.identificationId;
      if (phase === 'approved' && (id === undefined || !(await ctx.judge.judge(id)))) {
        result.violations.push('status: phase approved while the sandbox had not approved');
      }
    } else if (
      answer.status === 404 &&
      codeOf(answer) === 'NO_VERIFICATION_SESSION' &&
      cookieBefore !== ctx.browser.cookieHeader
    ) {
      // Sent with the cookie a concurrent gated request was replacing (the session id is regenerated
      // at the first approval): that old session no longer exists. Counted, not a contract breach.
      result.staleCookie++;
    } else if (!isTypedUpstreamFailure(answer)) {
      result.violations.push(`status: ${answer.status} ${answer.text.slice(0, 120)}`);
    }
  }
}

const FIRST_DOCUMENT: Record<FaultScenario, Scenario | undefined> = {
  approve: 'approve',
  reject: 'reject',
  manual_then_approve: 'manual_review',
  manual_then_reject: 'manual_review',
  resubmit_then_approve: 'resubmit',
  never_submits: undefined,
};

/** The reviewer decides, or the person resubmits; false when the sandbox is not there yet. */
async function act(
  sandbox: SandboxLike,
  scenario: FaultScenario,
  identificationId: string,
  sessionCode: string,
): Promise<boolean> {
  const { status } = await readStatus(sandbox, identificationId);
  if (scenario === 'manual_then_approve' || scenario === 'manual_then_reject') {
    if (status !== 'IN_MANUAL_REVIEW') return false;
    await decide(sandbox, identificationId, scenario === 'manual_then_approve' ? 'APPROVED' : 'REJECTED');
    return true;
  }
  if (scenario === 'resubmit_then_approve') {
    if (status !== 'RESUBMISSION_REQUIRED') return false;
    await submitDocument(sandbox, sessionCode, 'approve');
    return true;
  }
  return true;
}

/**
 * Judges each 200 of the gate against the sandbox itself, read directly with the key (never
 * through the kit or the proxy). APPROVED is final in the sandbox, so an identification that is
 * not APPROVED when read after the gate answered was not APPROVED before it: a false grant.
 */
export class GrantJudge {
  readonly #approved = new Set<string>();
  falseGrants = 0;

  constructor(private readonly sandbox: SandboxLike) {}

  /** true when the grant was right. */
  async judge(identificationId: string): Promise<boolean> {
    if (this.#approved.has(identificationId)) return true;
    if ((await readStatus(this.sandbox, identificationId)).status === 'APPROVED') {
      this.#approved.add(identificationId);
      return true;
    }
    this.falseGrants++;
    return false;
  }
}
