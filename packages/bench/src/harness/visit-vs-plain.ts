import type { Stack } from './stack.js';
import { type CpuMicros, compareRatios, type LoadSettings, type Target } from './throughput.js';
import { approvedUsers } from './users.js';

/**
 * Every visit figure (the Express gate's, gate.ts, and each shell's) compares two routes a few
 * percent apart, where one round's ratio moves by ±0.1 on this 2-core machine: their own pair (the
 * route and its baseline only), more and longer rounds.
 */
export const VISIT_LOAD: LoadSettings = { connections: 10, durationSec: 1, rounds: 24, warmupSec: 1 };
const USERS = 50;

/**
 * A shell's gate inside a visit against a plain route of the same server, at `url` (shell-apps.ts,
 * the Next.js app): `/visit` ÷ `/plain` for 50 approved visitors of that app, each
 * inside its visit, their sealed cookies round-robin, in VISIT_LOAD's interleaved rounds. The ratio,
 * and the details of every shell's visit figure. `cookieRead`: also the app's `/cookie-read` (the
 * gate's physical limit inside a visit, shell-apps.ts) in the same rounds; `cpuMicros`: the app
 * process's CPU time, for each route's µs per request.
 */
export async function measureVisitVsPlain(
  url: string,
  stack: Pick<Stack, 'sandboxUrl' | 'apiKey'>,
  { cookieRead = false, cpuMicros }: { cookieRead?: boolean; cpuMicros?: CpuMicros } = {},
) {
  const visitors = await approvedUsers({ ...stack, appUrl: url }, USERS, { visitOnly: true });
  const at = (name: string, path: string): Target => ({
    name,
    url: `${url}${path}`,
    headers: { accept: 'application/json' },
    cookies: visitors.map((visitor) => visitor.cookie),
  });
  const limit = cookieRead ? [at('cookie-read', '/cookie-read')] : [];
  const { ratios, details } = await compareRatios(
    [at('plain', '/plain'), ...limit, at('visit', '/visit')],
    VISIT_LOAD,
    {
      visitVsPlain: ['visit', 'plain'],
      ...(cookieRead
        ? { cookieReadVsPlain: ['cookie-read', 'plain'], visitVsCookieRead: ['visit', 'cookie-read'] }
        : {}),
    } as Record<string, readonly [string, string]>,
    cpuMicros,
  );
  return { ratio: ratios.visitVsPlain!, ratios, details: { users: USERS, ...details } };
}
