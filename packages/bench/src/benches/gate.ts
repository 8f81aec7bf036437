import { type RedisServer, startRedisServer } from '@verify-kit/testkit';
import type { BindingMode } from '../harness/app.js';
import { withStack } from '../harness/stack.js';
import {
  compareThroughput,
  type LoadSettings,
  perRoundRatios,
  type Target,
  throughputRatio,
  throughputRatioInterval,
} from '../harness/throughput.js';
import { approvedUsers } from '../harness/users.js';
import type { Bench } from './bench.js';
import { measureRevocation } from './gate-revocation.js';

const LOAD: LoadSettings = { connections: 10, durationSec: 0.5, rounds: 12, warmupSec: 1 };
/**
 * The visit figures compare two routes a few percent apart, where one round's ratio moves by ±0.1
 * on this 2-core machine: their own pair (the route and its baseline only), more and longer rounds.
 */
const VISIT_LOAD: LoadSettings = { connections: 10, durationSec: 1, rounds: 24, warmupSec: 1 };
/** Distinct approved people, requests round-robin over their cookies. */
const USERS = 50;
// /gated and /gated-cached are the gate in strict mode (freshness 'every-request'); /visit is the default.
// The kit's amplification bound (5 reads a second per identification, issue 15) would serve most of
// these requests from a read under a second old; lifted, every gated request reads the upstream,
// which is the work /limit does.
const EVERY_REQUEST_READS = 10_000;

async function measure(binding: BindingMode, redis: RedisServer | undefined) {
  const app = { binding, maxReadsPerSecond: EVERY_REQUEST_READS, ...(redis ? { redisUrl: redis.url } : {}) };
  return withStack({ app }, async (stack) => {
    const users = await approvedUsers(stack, USERS, binding !== 'session');
    const cookies = users.map((u) => u.cookie);
    const at = (name: string, path: string, someCookies = cookies): Target => ({
      name,
      url: `${stack.appUrl}${path}`,
      headers: { accept: 'application/json' },
      cookies: someCookies,
    });
    const plain = binding === 'redis' ? at('plain-redis', '/plain-redis') : at('plain', '/plain');
    const strict =
      binding === 'session'
        ? [
            plain,
            at('limit', '/limit'),
            at('gated', '/gated'),
            at('gated-cached', '/gated-cached'),
            at('gated-one-user', '/gated', cookies.slice(0, 1)),
          ]
        : [plain, at('limit', '/limit'), at('gated', '/gated')];
    // `visit`: the default gate, each person inside the visit approvedUsers started.
    return {
      strict: await compareThroughput(strict, LOAD),
      visit: await compareThroughput([plain, at('visit', '/visit')], VISIT_LOAD),
    };
  });
}

export const bench: Bench = {
  timeoutMs: 420_000,
  async run({ log }) {
    const session = await measure('session', undefined);
    const memory = await measure('memory', undefined);
    const redis = await startRedisServer();
    const inRedis = await measure('redis', redis).finally(() => redis.stop());
    const strict = (a: string, b: string, of = session) => throughputRatio(of.strict[a]!, of.strict[b]!);
    const visit = (of: typeof session, baseline = 'plain') =>
      throughputRatio(of.visit.visit!, of.visit[baseline]!);
    const strictRounds = (of: typeof session) => perRoundRatios(of.strict.gated!, of.strict.limit!);
    const visitRounds = (of: typeof session, baseline = 'plain') =>
      perRoundRatios(of.visit.visit!, of.visit[baseline]!);
    const visitInterval = (of: typeof session, baseline = 'plain') =>
      throughputRatioInterval(of.visit.visit!, of.visit[baseline]!);
    log(`  strict gate/limit: ${strict('gated', 'limit')}`);
    log(`  visit/plain: memory ${visit(memory)}, redis ${visit(inRedis, 'plain-redis')}`);
    const revocation = await measureRevocation();
    log(`  revocation across instances: ${JSON.stringify(revocation.figure)} ms`);
    return {
      figures: {
        'gate.throughputRatio.distinctVsLimit': strict('gated', 'limit'),
        'gate.throughputRatio.accountMemoryVsLimit': strict('gated', 'limit', memory),
        'gate.throughputRatio.accountRedisVsLimit': strict('gated', 'limit', inRedis),
        'gate.throughputRatio.cachedVsPlain': strict('gated-cached', 'plain'),
        'gate.throughputRatio.coalescedOneUserVsPlain': strict('gated-one-user', 'plain'),
        'gate.throughputRatio.visitVsPlain': visit(memory),
        'gate.throughputRatio.visitRedisVsPlainRedis': visit(inRedis, 'plain-redis'),
        'gate.revocationMs': revocation.figure,
      },
      details: {
        load: { strict: LOAD, visit: VISIT_LOAD },
        users: USERS,
        maxReadsPerSecond: EVERY_REQUEST_READS,
        ratio: 'median over rounds of (variant req/s / baseline req/s) of the same round',
        limitVsPlain: strict('limit', 'plain'),
        perRoundRatios: {
          distinctVsLimit: strictRounds(session),
          accountMemoryVsLimit: strictRounds(memory),
          accountRedisVsLimit: strictRounds(inRedis),
          visitVsPlain: visitRounds(memory),
          visitRedisVsPlainRedis: visitRounds(inRedis, 'plain-redis'),
          sessionVisitVsPlain: visitRounds(session),
        },
        sessionVisitVsPlain: visit(session),
        // Where the true median lies (95 %): a goal inside the interval is not decided by one run.
        visitIntervals95: {
          visitVsPlain: visitInterval(memory),
          visitRedisVsPlainRedis: visitInterval(inRedis, 'plain-redis'),
          sessionVisitVsPlain: visitInterval(session),
        },
        revocation: revocation.details,
        requestsPerSec: { session, accountMemory: memory, accountRedis: inRedis },
      },
    };
  },
};
