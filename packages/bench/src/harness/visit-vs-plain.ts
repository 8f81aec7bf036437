import type { Stack } from './stack.js';
import {
  compareThroughput,
  type LoadSettings,
  perRoundRatios,
  type Target,
  type Throughput,
  throughputRatio,
  throughputRatioInterval,
} from './throughput.js';
import { approvedVisitors } from './users.js';

/** As the Express gate's visit figure (gate.ts): the pair alone, many rounds. */
export const VISIT_LOAD: LoadSettings = { connections: 10, durationSec: 1, rounds: 24, warmupSec: 1 };
export const VISIT_USERS = 50;

export interface VisitVsPlain {
  /** `/visit` ÷ `/plain`: the median of the per-round ratios (throughputRatio). */
  ratio: number;
  perRound: number[];
  interval95: ReturnType<typeof throughputRatioInterval>;
  requestsPerSec: Record<string, Throughput>;
}

/**
 * A shell's gate inside a visit against a plain route of the same server, at `url` (a Fetch-door app:
 * fetch-app.ts, hono-app.ts): `/visit` ÷ `/plain` for VISIT_USERS approved visitors of that app, each
 * inside its visit, their sealed cookies round-robin, in VISIT_LOAD's interleaved rounds.
 */
export async function measureVisitVsPlain(
  url: string,
  stack: Pick<Stack, 'sandboxUrl' | 'apiKey'>,
): Promise<VisitVsPlain> {
  const cookies = (await approvedVisitors(url, stack, VISIT_USERS)).map((user) => user.cookie);
  const at = (name: string, path: string): Target => ({
    name,
    url: `${url}${path}`,
    headers: { accept: 'application/json' },
    cookies,
  });
  const requestsPerSec = await compareThroughput([at('plain', '/plain'), at('visit', '/visit')], VISIT_LOAD);
  const [visit, plain] = [requestsPerSec.visit!, requestsPerSec.plain!];
  return {
    ratio: throughputRatio(visit, plain),
    perRound: perRoundRatios(visit, plain),
    interval95: throughputRatioInterval(visit, plain),
    requestsPerSec,
  };
}
