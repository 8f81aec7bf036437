import { type Summary, summarize } from '../stats.js';
import type { RecordedEvent } from './instances.js';
import type { PersonResult } from './person.js';

/** A fault's time span, what the balancer counted meanwhile, and what each kit.health() said. */
export interface Window {
  name: string;
  from: number;
  to: number;
  balancer: Record<string, number>;
  health?: Record<string, string>;
  /** Sign-ins, creations and gated pages sent during it and answered as expected, by step. */
  answered?: Record<string, number>;
  /** When redis-server was away (stopped, until started again), for the store's restart. */
  storeDown?: { from: number; to: number };
}

interface PersonOutcome {
  result: PersonResult;
  approvedAt: number | undefined;
  sandboxStatus: string | undefined;
  approvalWebhook?: string | undefined;
  address?: string;
}

/** An approved person who learned it over 2 s after the decision, and what the browser did meanwhile. */
export interface SlowApproval {
  latencyMs: number;
  /** The person's address (HAProxy's log names it) and identification (the instances' logs do). */
  address: string | undefined;
  identificationId: string | undefined;
  /** The approval's webhook: 'dropped', 'delivered', 'failed'. */
  webhook: string | undefined;
  /** The fault during which the decision was made ('no fault' otherwise), and ms from its start. */
  fault: string;
  intoFaultMs?: number;
  /** The follower's exchanges from the last one sent before the decision: "+sent..+ended outcome", ms from the decision. */
  polls: string[];
}

export interface ChaosFigures {
  config: Record<string, unknown>;
  ranAt: string;
  wallSeconds: number;
  people: number;
  /** People the sandbox approved, and how many of them opened the gated page (goal: all). */
  approved: number;
  approvedReachedGate: number;
  /** Gated 200s for people the sandbox had not approved (goal: 0). */
  falseGrants: number;
  /**
   * onStatusChange APPROVED events per approved person, over the three instances, as a product that
   * dedupes by `event.id` counts them (goal: exactly 1 each, none missed, none duplicated: two
   * events of different ids for one approval); `redelivered`: deliveries of an id already delivered
   * (an instance died between the handler's return and the told mark), `byInstance`: each delivery.
   */
  approvedEvents: {
    exactlyOnce: number;
    duplicated: number;
    missed: number;
    redelivered: number;
    byInstance: Record<string, number>;
  };
  /** Errors the widget would show (creating, following), by step and code (goal: none). */
  visibleErrors: Record<string, number>;
  /** The same, by the fault during which they happened ('no fault' otherwise). */
  visibleErrorsByFault: Record<string, Record<string, number>>;
  /** Errors of the app's own pages (sign-in, the gated page), each reloaded by the person: not the kit's. */
  pageErrors: Record<string, number>;
  /** Answers the widget retried without showing anything (503, 429, a dropped long-poll), by code. */
  quietRetries: Record<string, number>;
  gaveUp: Record<string, number>;
  /** From the sandbox's approval to the browser's long-poll learning it, ms. */
  approvalToBrowserMs: Summary;
  /**
   * The same for the people whose wait did not overlap the store's outage (goal: p99 <= 2 s, 30 % of
   * the webhooks lost): what a lost webhook, kill -9 and the rolling restart cost.
   */
  approvalToBrowserOutsideStoreOutageMs: Summary;
  /**
   * The people whose wait (decision to browser) overlapped Redis being away: from Redis's return to
   * the browser learning it (no app can answer them before: the app's sessions are there too).
   */
  storeOutage: { people: number; afterStoreBackMs: Summary } | null;
  /** The same, by what became of the approval's webhook (delivered, dropped). */
  approvalToBrowserByWebhook: Record<string, Summary>;
  /** Every approval the browser learned over 2 s after the decision, with the follower's exchanges. */
  slowApprovals: SlowApproval[];
  /**
   * The kit's creation limits, on with their defaults and shared through Redis: the distinct
   * addresses they counted there (one per person, as HAProxy forwarded them; a creation made while
   * Redis restarted is counted in the instance's memory instead), and the 429s people met (each
   * retried by the widget after Retry-After; none shown).
   */
  limits: { addressesCountedInRedis: number; refused: number };
  faults: Window[];
  /**
   * During the rolling restart (goal: 0 each): connections people saw reset (or a 502 for one), and
   * the failed connections or responses the balancer met towards the instances (each a reset that
   * only HAProxy's `retry-on` kept from people).
   */
  rollingRestartResets: { seenByPeople: number; atBalancer: number } | null;
  goalsMet: boolean;
}

const count = (keys: string[]) =>
  keys.reduce<Record<string, number>>((all, key) => {
    all[key] = (all[key] ?? 0) + 1;
    return all;
  }, {});

const RESET = /^(network:|502|504)/;

/** Issue 40's goal: an approved person learns it within 2 s (p99), 30 % of the webhooks lost. */
export const APPROVAL_TO_BROWSER_P99_GOAL_MS = 2000;

export function figuresOf(input: {
  options: { people: number; faults: object; dropWebhooks: number; drainMs: number; reviewDelayMs: number };
  people: PersonOutcome[];
  events: RecordedEvent[];
  /** The addresses the shared creation limits counted in Redis. */
  limitedAddresses: string[];
  windows: Window[];
  wallSeconds: number;
}): ChaosFigures {
  const { people, events, windows } = input;
  const approved = people.filter((p) => p.sandboxStatus === 'APPROVED');
  const approvedEvents = events.filter((e) => e.status === 'APPROVED');
  // A redelivery carries the id of the first delivery: one event for a product that dedupes by it.
  const distinct = [...new Map(approvedEvents.map((e) => [e.id, e])).values()];
  const perIdentification = count(distinct.map((e) => e.identificationId));
  const times = approved.map((p) => perIdentification[p.result.identificationId ?? ''] ?? 0);
  const failures = people.flatMap((p) => p.result.failures);
  const rolling = windows.find((w) => w.name.startsWith('rolling'));
  const rollingRestartResets =
    rolling === undefined
      ? null
      : {
          seenByPeople: failures.filter(
            (f) => f.at >= rolling.from && f.at <= rolling.to && RESET.test(f.code),
          ).length,
          atBalancer: (rolling.balancer.failedConnections ?? 0) + (rolling.balancer.failedResponses ?? 0),
        };
  const shown = failures.filter((f) => !f.quiet && (f.step === 'session' || f.step === 'status'));
  const visibleErrors = count(shown.map((f) => `${f.step} ${f.code}`));
  // The latest fault begun before it (an answer may arrive up to a second after its fault ended).
  const windowAt = (at: number) => windows.findLast((w) => at >= w.from && at <= w.to + 1000);
  const faultOf = (at: number) => windowAt(at)?.name ?? 'no fault';
  const visibleErrorsByFault: Record<string, Record<string, number>> = {};
  for (const f of shown) {
    const fault = faultOf(f.at);
    const during = visibleErrorsByFault[fault] ?? {};
    during[`${f.step} ${f.code}`] = (during[`${f.step} ${f.code}`] ?? 0) + 1;
    visibleErrorsByFault[fault] = during;
  }
  const pageErrors = count(
    failures.filter((f) => f.step === 'sign-in' || f.step === 'gate').map((f) => `${f.step} ${f.code}`),
  );
  const learned = approved.filter((p) => p.approvedAt !== undefined && p.result.approvedSeenAt !== undefined);
  const latencyOf = (p: PersonOutcome) => (p.result.approvedSeenAt ?? 0) - (p.approvedAt ?? 0);
  const latencies = learned.map(latencyOf);
  const outage = windows.find((w) => w.storeDown !== undefined)?.storeDown;
  const waitedOutage = (p: PersonOutcome) =>
    outage !== undefined && (p.approvedAt ?? 0) <= outage.to && (p.result.approvedSeenAt ?? 0) >= outage.from;
  const duringOutage = learned.filter(waitedOutage);
  const byWebhook: Record<string, number[]> = {};
  for (const p of learned) {
    const fate = p.approvalWebhook ?? 'none';
    byWebhook[fate] = [...(byWebhook[fate] ?? []), latencyOf(p)];
  }
  const figures: ChaosFigures = {
    config: {
      ...input.options,
      instances: 3,
      balancer: 'HAProxy (round-robin, no stickiness)',
      sessionLimit: '{ redis }: the defaults, shared by the instances',
      addresses: 'one per person (127.20.x.y), forwarded by HAProxy in X-Forwarded-For',
    },
    ranAt: new Date().toISOString(),
    wallSeconds: input.wallSeconds,
    people: people.length,
    approved: approved.length,
    approvedReachedGate: approved.filter((p) => p.result.gateStatus === 200).length,
    falseGrants: people.filter((p) => p.sandboxStatus !== 'APPROVED' && p.result.gateStatus === 200).length,
    approvedEvents: {
      exactlyOnce: times.filter((n) => n === 1).length,
      duplicated: times.filter((n) => n > 1).length,
      missed: times.filter((n) => n === 0).length,
      redelivered: approvedEvents.length - distinct.length,
      byInstance: count(approvedEvents.map((e) => e.instance)),
    },
    visibleErrors,
    visibleErrorsByFault,
    pageErrors,
    quietRetries: count(failures.filter((f) => f.quiet).map((f) => `${f.step} ${f.code}`)),
    gaveUp: count(people.flatMap((p) => (p.result.gaveUp === undefined ? [] : [p.result.gaveUp]))),
    approvalToBrowserMs: summarize(latencies),
    approvalToBrowserOutsideStoreOutageMs: summarize(learned.filter((p) => !waitedOutage(p)).map(latencyOf)),
    storeOutage:
      outage === undefined
        ? null
        : {
            people: duringOutage.length,
            afterStoreBackMs: summarize(duringOutage.map((p) => (p.result.approvedSeenAt ?? 0) - outage.to)),
          },
    approvalToBrowserByWebhook: Object.fromEntries(
      Object.entries(byWebhook).map(([fate, values]) => [fate, summarize(values)]),
    ),
    slowApprovals: learned
      .filter((p) => latencyOf(p) > 2000)
      .sort((a, b) => latencyOf(b) - latencyOf(a))
      .map((p) => slowApproval(p, latencyOf(p), windowAt)),
    limits: {
      addressesCountedInRedis: input.limitedAddresses.length,
      refused: failures.filter((f) => f.code.startsWith('429')).length,
    },
    faults: windows.map((w) => ({
      ...w,
      answered: count(
        people.flatMap((p) => p.result.sent.filter((s) => s.at >= w.from && s.at <= w.to).map((s) => s.step)),
      ),
    })),
    rollingRestartResets,
    goalsMet: false,
  };
  figures.goalsMet =
    figures.approved > 0 &&
    figures.approvedReachedGate === figures.approved &&
    figures.falseGrants === 0 &&
    figures.approvedEvents.exactlyOnce === figures.approved &&
    Object.keys(visibleErrors).length === 0 &&
    !(figures.approvalToBrowserOutsideStoreOutageMs.p99 > APPROVAL_TO_BROWSER_P99_GOAL_MS) &&
    (rollingRestartResets === null ||
      (rollingRestartResets.seenByPeople === 0 && rollingRestartResets.atBalancer === 0));
  return figures;
}

function slowApproval(
  p: PersonOutcome,
  latencyMs: number,
  windowAt: (at: number) => Window | undefined,
): SlowApproval {
  const decidedAt = p.approvedAt ?? 0;
  const polls = p.result.polls;
  const first = Math.max(
    0,
    polls.findLastIndex((poll) => poll.sentAt <= decidedAt),
  );
  const fault = windowAt(decidedAt);
  return {
    latencyMs,
    address: p.address,
    identificationId: p.result.identificationId,
    webhook: p.approvalWebhook,
    fault: fault?.name ?? 'no fault',
    ...(fault === undefined ? {} : { intoFaultMs: decidedAt - fault.from }),
    polls: polls
      .slice(first)
      .map((poll) => `+${poll.sentAt - decidedAt}..+${poll.answeredAt - decidedAt} ${poll.outcome}`),
  };
}

/** The run as a person reads it in the terminal. */
export function printFigures(f: ChaosFigures, log: (line: string) => void = console.log): void {
  const mark = (ok: boolean) => (ok ? 'ok ' : 'MISSED');
  log(`\nchaos: ${f.people} people in ${f.wallSeconds} s, 3 instances behind HAProxy, one Redis`);
  log(
    `${mark(f.approvedReachedGate === f.approved)} approved people who reached the gated page: ${f.approvedReachedGate} of ${f.approved}`,
  );
  log(`${mark(f.falseGrants === 0)} gated 200s for people not approved: ${f.falseGrants}`);
  const e = f.approvedEvents;
  log(
    `${mark(e.exactlyOnce === f.approved)} onStatusChange APPROVED per approved person: exactly once ${e.exactlyOnce}, ` +
      `duplicated ${e.duplicated}, missed ${e.missed}, redelivered (same id) ${e.redelivered} (by instance: ${JSON.stringify(e.byInstance)})`,
  );
  log(
    `${mark(Object.keys(f.visibleErrors).length === 0)} errors the widget would show: ${JSON.stringify(f.visibleErrorsByFault)}`,
  );
  log(`    the app's own pages (reloaded by the person): ${JSON.stringify(f.pageErrors)}`);
  log(`    retried quietly by the widget: ${JSON.stringify(f.quietRetries)}`);
  if (Object.keys(f.gaveUp).length > 0) log(`    gave up: ${JSON.stringify(f.gaveUp)}`);
  const l = f.approvalToBrowserMs;
  log(`    approval → browser: p50 ${l.median} ms, p99 ${l.p99} ms, max ${l.max} ms (${l.count} people)`);
  const o = f.approvalToBrowserOutsideStoreOutageMs;
  log(
    `${mark(!(o.p99 > APPROVAL_TO_BROWSER_P99_GOAL_MS))} approval → browser, waits that did not overlap the store's outage: ` +
      `p50 ${o.median} ms, p99 ${o.p99} ms (goal <= ${APPROVAL_TO_BROWSER_P99_GOAL_MS}), max ${o.max} ms (${o.count} people)`,
  );
  const s = f.storeOutage;
  if (s !== null)
    log(
      `    waits that overlapped Redis being away (${s.people} people): browser after Redis was back ` +
        `p50 ${s.afterStoreBackMs.median} ms, max ${s.afterStoreBackMs.max} ms`,
    );
  for (const [fate, w] of Object.entries(f.approvalToBrowserByWebhook))
    log(`      its webhook ${fate}: p50 ${w.median} ms, p99 ${w.p99} ms, max ${w.max} ms (${w.count})`);
  for (const slow of f.slowApprovals)
    log(
      `      ${slow.latencyMs} ms (webhook ${slow.webhook}, ${slow.fault} +${slow.intoFaultMs ?? '-'} ms): ${slow.polls.join(' | ')}`,
    );
  log(
    `    creation limits shared through Redis: ${f.limits.addressesCountedInRedis} addresses counted there, ` +
      `${f.limits.refused} 429s (each retried after Retry-After)`,
  );
  const resets = f.rollingRestartResets;
  if (resets !== null) {
    log(
      `${mark(resets.seenByPeople === 0 && resets.atBalancer === 0)} connection resets during the rolling restart: ` +
        `${resets.seenByPeople} seen by people, ${resets.atBalancer} met by the balancer (and retried)`,
    );
  }
  for (const w of f.faults) {
    log(`fault: ${w.name} (${Math.round((w.to - w.from) / 100) / 10} s)`);
    for (const [instance, states] of Object.entries(w.health ?? {}))
      log(`    kit.health() ${instance}: ${states}`);
    log(`    balancer: ${JSON.stringify(w.balancer)}`);
    log(`    sent during it and answered: ${JSON.stringify(w.answered ?? {})}`);
  }
  log(f.goalsMet ? '\nevery goal met' : '\nsome goals MISSED');
}
