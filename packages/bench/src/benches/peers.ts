import { startRedisServer } from '@verify-kit/testkit';
import type { Figures } from '../figures.js';
import type { Framework } from '../harness/peer-apps.js';
import { type Stack, withStack } from '../harness/stack.js';
import { compareRatios, type LoadSettings, type Pairs, type Target } from '../harness/throughput.js';
import { approvedUsers } from '../harness/users.js';
import { PEER_NAMES, type PeerName } from '../peers/index.js';
import type { Bench } from './bench.js';

/** 6 routes, interleaved: fewer rounds than a visit pair's 24 (the peers sit far from verify-kit's gate). */
const LOAD: LoadSettings = { connections: 10, durationSec: 1, rounds: 12, warmupSec: 1 };
/** Distinct people on every route, each a cookie of their own, round-robin. */
const PEOPLE = 50;
const FRAMEWORKS: readonly Framework[] = ['hono', 'express', 'fetch'];

type Gate = 'verifyKit' | 'verifyKitRedis' | PeerName;
const GATES: readonly Gate[] = ['verifyKit', 'verifyKitRedis', ...PEER_NAMES];
const capital = (name: string) => `${name[0]!.toUpperCase()}${name.slice(1)}`;

/**
 * Every gate ÷ the plain route, and verify-kit's (memory store) ÷ each peer's, all of one
 * framework's server measured together in interleaved rounds.
 */
const PAIRS = {
  ...Object.fromEntries(GATES.map((gate) => [`${gate}VsPlain`, [gate, 'plain']])),
  ...Object.fromEntries(PEER_NAMES.map((peer) => [`verifyKitVs${capital(peer)}`, ['verifyKit', peer]])),
} as Pairs<string>;

/** One framework: its peers' server, the people of each gate, the rounds; its figures and details. */
async function measure(stack: Stack, framework: Framework) {
  const { url, cookies } = await stack.app.call('listenPeers', { framework, people: PEOPLE });
  const [inMemory, inRedis] = await Promise.all(
    [url, `${url}/redis`].map(async (appUrl) =>
      (await approvedUsers({ ...stack, appUrl }, PEOPLE, { visitOnly: true })).map((user) => user.cookie),
    ),
  );
  const at = (name: string, path: string, people: readonly string[]): Target => ({
    name,
    url: `${url}${path}`,
    headers: { accept: 'application/json' },
    cookies: people,
  });
  const targets = [
    at('plain', '/plain', inMemory!),
    at('verifyKit', '/visit', inMemory!),
    at('verifyKitRedis', '/redis/visit', inRedis!),
    ...PEER_NAMES.map((peer) => at(peer, `/${peer}`, cookies[peer])),
  ];
  const { ratios, details } = await compareRatios(targets, LOAD, PAIRS);
  const withInterval = (pair: string) => {
    const interval = details.intervals95[pair];
    return { ratio: ratios[pair]!, ...(interval ? { low: interval.low, high: interval.high } : {}) };
  };
  // The peer verify-kit's gate is closest to: the lowest of verify-kit ÷ peer.
  const best = PEER_NAMES.reduce((a, b) =>
    ratios[`verifyKitVs${capital(a)}`]! <= ratios[`verifyKitVs${capital(b)}`]! ? a : b,
  );
  const figures = {
    [`peers.${framework}.verifyKitVsBestPeer`]: withInterval(`verifyKitVs${capital(best)}`),
    ...Object.fromEntries(
      GATES.map((gate) => [`peers.${framework}.${gate}VsPlain`, withInterval(`${gate}VsPlain`)]),
    ),
  };
  return {
    figures: figures as Figures,
    details: { bestPeer: best, ratios, cookieBytes: cookieBytes(cookies, inMemory!), ...details },
  };
}

/** The median Cookie header's length of each gate's people (the requests differ only in it and the path). */
function cookieBytes(peers: Record<PeerName, string[]>, verifyKit: readonly string[]) {
  const medianLength = (headers: readonly string[]) =>
    [...headers].map((h) => h.length).sort((a, b) => a - b)[headers.length >> 1] ?? 0;
  return {
    verifyKit: medianLength(verifyKit),
    ...Object.fromEntries(PEER_NAMES.map((peer) => [peer, medianLength(peers[peer])])),
  };
}

/**
 * verify-kit's gate beside Auth.js, Clerk and Better Auth (peers/), on Hono, Express and core's
 * Fetch door: for each framework one server (harness/peer-apps.ts) with the plain route, verify-kit's
 * gate inside a visit (memory store, and Redis), and each peer's gate as its integration does it, in
 * front of the same small answer; 50 distinct people on each route (verify-kit's approved through
 * the kit and the sandbox, each inside a visit; each peer's signed in as that peer signs people in),
 * their cookies round-robin; all routes of a framework in the same interleaved rounds.
 */
export const bench: Bench = {
  timeoutMs: 540_000,
  async run({ log }) {
    const redis = await startRedisServer();
    try {
      return await withStack({ app: { redisUrl: redis.url } }, async (stack) => {
        const figures: Figures = {};
        const details: Record<string, unknown> = { people: PEOPLE };
        for (const framework of FRAMEWORKS) {
          try {
            const measured = await measure(stack, framework);
            Object.assign(figures, measured.figures);
            details[framework] = measured.details;
            const line = GATES.map((gate) => `${gate} ${measured.details.ratios[`${gate}VsPlain`]}`);
            log(`  ${framework} ÷ plain: ${line.join(', ')}; closest peer ${measured.details.bestPeer}`);
          } catch (error) {
            // One framework's failure leaves the others' figures.
            details[framework] = { error: error instanceof Error ? error.message : String(error) };
            log(`  ${framework}: FAILED ${String(error)}`);
          }
        }
        return { figures, details };
      });
    } finally {
      await redis.stop();
    }
  },
};
