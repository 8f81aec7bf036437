import type { SessionResponseBody, StatusResponseBody } from '@verify-kit/express/protocol';
import { PHASES } from '@verify-kit/express/protocol';
import type { Dispatcher } from 'undici';
import { type Answer, SimulatedBrowser } from './browser.js';
import type { GrantJudge } from './grant-judge.js';
import { GATED_PATH } from './kit-app.js';
import type { ReviewScenario, SandboxDirect } from './sandbox-direct.js';

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
  kitUrl: string;
  kitDispatcher: Dispatcher;
  sandbox: SandboxDirect;
  judge: GrantJudge;
  /** Rounds of gated requests after submission (more for approved users until they pass). */
  rounds: number;
  /** Concurrent gated requests per round (the gate coalesces them). */
  gatedPerRound: number;
  /** A failing POST /session is retried, like a person pressing the button again. */
  maxCreateAttempts: number;
  deadline: number;
  random: () => number;
  /** Every response text the kit sent, e.g. to look for the API key. */
  onAnswer?: (text: string) => void;
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
const KNOWN_PHASES = new Set<string>(PHASES);
const NAVIGATION = {
  accept: 'text/html,application/xhtml+xml',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-dest': 'document',
};

const codeOf = (answer: Answer) => (answer.json as { error?: { code?: unknown } } | undefined)?.error?.code;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A failure of the upstream surfaces as 502/503/504 with a typed code, never anything else. */
function isTypedUpstreamFailure(answer: Answer): boolean {
  const code = codeOf(answer);
  return [502, 503, 504].includes(answer.status) && typeof code === 'string' && TYPED_CODE.test(code);
}

/**
 * One person while the upstream misbehaves: starts a verification (retrying failures), has the
 * phone submit a document per its scenario, and hits the gate round after round. Every gate 200 is
 * judged against the sandbox itself; every other answer must be 303, 403 or 503 with a typed code.
 */
export async function runFaultUser(index: number, ctx: FaultUserContext): Promise<FaultUserResult> {
  const scenario = scenarioOf(index);
  const browser = new SimulatedBrowser(ctx.kitUrl, ctx.kitDispatcher);
  const result: FaultUserResult = {
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
  const seen = <T>(answer: Answer<T>): Answer<T> => {
    ctx.onAnswer?.(answer.text);
    return answer;
  };
  const count = (key: string) => {
    result.answers[key] = (result.answers[key] ?? 0) + 1;
  };

  const gateOnce = async () => {
    const navigation = ctx.random() < 0.4;
    result.gated++;
    let answer: Answer;
    try {
      answer = seen(await browser.get(GATED_PATH, navigation ? { headers: NAVIGATION } : {}));
    } catch (error) {
      count('no answer');
      result.noAnswer.push(`gate: ${error instanceof Error ? error.message : error}`);
      return;
    }
    // A navigation's 503 is the kit's HTML page, which names the code; everything else is JSON.
    const htmlCode = navigation ? /Error code: ([A-Z][A-Z0-9_]*)/.exec(answer.text)?.[1] : undefined;
    const code = codeOf(answer) ?? htmlCode;
    if (answer.status === 200) {
      count('200');
      result.granted++;
      const id = result.identificationId;
      if (id === undefined || !(await ctx.judge.judge(id))) {
        result.falseGrants++;
        result.violations.push(`gate: FALSE GRANT for ${scenario}`);
      }
    } else if (answer.status === 303) {
      count('303');
      const location = String(answer.headers.location ?? '');
      if (!navigation || !location.startsWith('/verify')) {
        result.violations.push(`gate: 303 to ${JSON.stringify(location)} (navigation: ${navigation})`);
      }
    } else if (answer.status === 403 && code === 'NOT_APPROVED') {
      count('403 NOT_APPROVED');
      if (navigation) result.violations.push('gate: 403 for a navigation (expected 303)');
    } else if (answer.status === 503 && typeof code === 'string' && TYPED_CODE.test(code)) {
      count(`503 ${code}`);
    } else {
      count(`${answer.status} ${String(code)}`);
      result.violations.push(`gate: ${answer.status} ${String(code)}: ${answer.text.slice(0, 120)}`);
    }
  };

  const statusOnce = async () => {
    let answer: Answer<StatusResponseBody>;
    const cookieBefore = browser.jar.header();
    try {
      answer = seen(await browser.get<StatusResponseBody>('/identity/status'));
    } catch (error) {
      result.noAnswer.push(`status: ${error instanceof Error ? error.message : error}`);
      return;
    }
    if (answer.status === 200) {
      const phase = answer.json?.phase;
      if (phase === undefined || !KNOWN_PHASES.has(phase)) result.violations.push(`status: phase ${phase}`);
      const id = result.identificationId;
      if (phase === 'approved' && (id === undefined || !(await ctx.judge.judge(id)))) {
        result.violations.push('status: phase approved while the sandbox had not approved');
      }
    } else if (
      answer.status === 404 &&
      codeOf(answer) === 'NO_VERIFICATION_SESSION' &&
      cookieBefore !== browser.jar.header()
    ) {
      // Sent with the cookie a concurrent gated request was replacing (the session id is regenerated
      // at the first approval): that old session no longer exists. Counted, not a contract breach.
      result.staleCookie++;
    } else if (!isTypedUpstreamFailure(answer)) {
      result.violations.push(`status: ${answer.status} ${answer.text.slice(0, 120)}`);
    }
  };

  const round = () =>
    Promise.all([...Array.from({ length: ctx.gatedPerRound }, gateOnce), statusOnce()]).then(() => undefined);

  // 1. Start a verification through the kit (the upstream may fail it: press again).
  let created: SessionResponseBody | undefined;
  while (created === undefined && result.createAttempts < ctx.maxCreateAttempts) {
    result.createAttempts++;
    try {
      const answer = seen(await browser.post<SessionResponseBody>('/identity/session', {}));
      if (answer.status === 201 && typeof answer.json?.sessionCode === 'string') created = answer.json;
      else if (!isTypedUpstreamFailure(answer)) {
        result.violations.push(`session: ${answer.status} ${answer.text.slice(0, 120)}`);
      }
    } catch (error) {
      result.noAnswer.push(`session: ${error instanceof Error ? error.message : error}`);
    }
  }
  if (created === undefined) {
    result.errors.push(`session: not created in ${ctx.maxCreateAttempts} attempts`);
    return result;
  }

  // 2. The phone finds the session by its code (directly at the sandbox, never through the proxy).
  const ids = await ctx.sandbox.byCode(created.sessionCode);
  if (ids.status !== 200 || ids.json === undefined) {
    result.errors.push(`lookup: by-code answered ${ids.status}`);
    return result;
  }
  result.identificationId = ids.json.identificationId;

  // 3. Before anything was submitted, nobody may pass.
  await round();

  const firstDocument: Record<FaultScenario, ReviewScenario | undefined> = {
    approve: 'approve',
    reject: 'reject',
    manual_then_approve: 'manual_review',
    manual_then_reject: 'manual_review',
    resubmit_then_approve: 'resubmit',
    never_submits: undefined,
  };
  const document = firstDocument[scenario];
  if (document !== undefined) {
    const submitted = await ctx.sandbox.submit(ids.json.id, document);
    if (submitted.status !== 202) result.errors.push(`submit: ${submitted.status}`);
  }

  // 4. Rounds of gated requests; the reviewer or the person acts after the second.
  let acted = scenario === 'approve' || scenario === 'reject' || scenario === 'never_submits';
  const wantsGrant = APPROVED_SCENARIOS.includes(scenario);
  for (let r = 1; r <= ctx.rounds * 4; r++) {
    if (Date.now() > ctx.deadline) {
      result.errors.push('deadline reached');
      break;
    }
    if (r > ctx.rounds && (!wantsGrant || result.granted > 0)) break;
    await round();
    if (!acted && r >= 2) acted = await act(ctx.sandbox, scenario, ids.json);
    await sleep(10 + ctx.random() * 40);
  }
  return result;
}

/** The reviewer decides, or the person resubmits; false when the sandbox is not there yet. */
async function act(
  sandbox: SandboxDirect,
  scenario: FaultScenario,
  ids: { id: string; identificationId: string },
): Promise<boolean> {
  const truth = await sandbox.identification(ids.identificationId);
  const status = truth.json?.status;
  if (scenario === 'manual_then_approve' || scenario === 'manual_then_reject') {
    if (status !== 'IN_MANUAL_REVIEW') return false;
    await sandbox.decide(ids.identificationId, scenario === 'manual_then_approve' ? 'APPROVED' : 'REJECTED');
    return true;
  }
  if (scenario === 'resubmit_then_approve') {
    if (status !== 'RESUBMISSION_REQUIRED') return false;
    await sandbox.submit(ids.id, 'approve');
    return true;
  }
  return true;
}
