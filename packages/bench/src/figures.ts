/**
 * Every figure of `pnpm bench`, declared once: the benchmark that measures it, its unit, and its
 * goal (which field of the value is judged, how, against what). bench-results.json uses these keys.
 */
export const BENCH_NAMES = [
  'sizes',
  'click-to-qr',
  'time-to-qr',
  'push',
  'gate',
  'client',
  'create',
  'fetch',
  'hono',
  'next',
  'peers',
  'sql',
  'otel',
] as const;
export type BenchName = (typeof BENCH_NAMES)[number];

export interface Goal {
  /** The field judged in an object value, e.g. ['webhooks', 'median']; none for a number. */
  field?: readonly string[];
  comparison: '<=' | '>=';
  limit: number;
}

interface FigureSpec {
  bench: BenchName;
  unit: 'B' | 'ms' | 'µs' | '/s' | '×';
  goal?: Goal;
}

const ratio = (limit: number): Goal => ({ comparison: '>=', limit });
/** A `{ ratio, low, high }` figure (the median and its 95 % interval) whose ratio is at least `limit`. */
const ratioAtLeast = (limit: number): Goal => ({ comparison: '>=', limit, field: ['ratio'] });
/** At most `limit`, of the value or of its `field` (e.g. 'webhooks', 'median'). */
const atMost = (limit: number, ...field: string[]): Goal => ({
  comparison: '<=',
  limit,
  ...(field.length ? { field } : {}),
});

/** The gates `peers` measures beside the plain route (benches/peers.ts). */
const PEER_GATES = ['verifyKit', 'verifyKitRedis', 'authJs', 'clerk', 'betterAuth'] as const;

/**
 * verify-kit beside its peers (issue 42), on one server of `framework` (harness/peer-apps.ts): the
 * headline, verify-kit's gate (memory store) ÷ the peer closest to it, goal ≥ 1; then each gate ÷
 * the plain route. Each `{ ratio, low, high }`: the median of the per-round ratios, its 95 % interval.
 */
function peerFigures<F extends 'hono' | 'express' | 'fetch'>(framework: F) {
  type Key = `peers.${F}.verifyKitVsBestPeer` | `peers.${F}.${(typeof PEER_GATES)[number]}VsPlain`;
  const spec = (goal?: Goal): FigureSpec => ({ bench: 'peers', unit: '×', ...(goal ? { goal } : {}) });
  return Object.fromEntries([
    [`peers.${framework}.verifyKitVsBestPeer`, spec(ratioAtLeast(1))],
    ...PEER_GATES.map((gate) => [`peers.${framework}.${gate}VsPlain`, spec()]),
  ]) as Record<Key, FigureSpec>;
}

export const FIGURES = {
  'widget.standalone.minBytes': { bench: 'sizes', unit: 'B' },
  // Issue 13's 10,240 B is retired (issue 24: what the person waits for, ui.timeToQr, counts); the
  // ceiling of the widget's size test stays.
  'widget.standalone.gzipBytes': { bench: 'sizes', unit: 'B', goal: atMost(11_450) },
  'widget.standalone.brotliBytes': { bench: 'sizes', unit: 'B' },
  'widget.split.litGzipBytes': { bench: 'sizes', unit: 'B' },
  'widget.split.ownGzipBytes': { bench: 'sizes', unit: 'B' },
  // The strings of each locale but English: a file of its own, loaded only when the element speaks it.
  'widget.strings.tr.gzipBytes': { bench: 'sizes', unit: 'B', goal: atMost(1200) },
  'widget.strings.de.gzipBytes': { bench: 'sizes', unit: 'B', goal: atMost(1200) },
  'widget.strings.ar.gzipBytes': { bench: 'sizes', unit: 'B', goal: atMost(1200) },
  // An integrator's Vite build of a page that uses only the element (issue 34): English alone inside.
  'widget.bundled.mainGzipBytes': { bench: 'sizes', unit: 'B', goal: atMost(12_700) },
  // `{ median, limitMedian, vsLimit }`: ms from the click to the QR decoded, on the widget's page and
  // on its physical limit's (a button that fetches the same answer and paints the same SVG), and the
  // median of the per-round ratios (issue 42: a ratio, not an absolute time).
  'ui.clickToQr': { bench: 'click-to-qr', unit: 'ms', goal: atMost(1.2, 'vsLimit') },
  // `{ median, limitMedian, vsLimit }`: ms, ms, and the widget's time over its physical limit's.
  'ui.timeToQr.slow3g': { bench: 'time-to-qr', unit: 'ms', goal: atMost(1.1, 'vsLimit') },
  'push.decisionToUiMs': { bench: 'push', unit: 'ms', goal: atMost(300, 'webhooks', 'median') },
  // `{ count, median, p95, p99, max }` (issue 40, finding 9): the same decision when its webhook is
  // lost (push's `polling` samples: no webhook, the decision at a random point of the kit's re-read
  // cycle); a long-poll on a pending verification re-reads every 1250 ms.
  'push.lostWebhookToUiMs': { bench: 'push', unit: 'ms', goal: atMost(2000, 'p99') },
  'gate.throughputRatio.distinctVsLimit': { bench: 'gate', unit: '×', goal: ratio(0.9) },
  'gate.throughputRatio.accountMemoryVsLimit': { bench: 'gate', unit: '×', goal: ratio(0.9) },
  'gate.throughputRatio.accountRedisVsLimit': { bench: 'gate', unit: '×', goal: ratio(0.8) },
  'gate.throughputRatio.cachedVsPlain': { bench: 'gate', unit: '×', goal: ratio(0.9) },
  'gate.throughputRatio.coalescedOneUserVsPlain': { bench: 'gate', unit: '×' },
  // The default gate, 50 people inside their visits (issue 22): memory store, then Redis.
  'gate.throughputRatio.visitVsPlain': { bench: 'gate', unit: '×', goal: ratio(0.95) },
  'gate.throughputRatio.visitRedisVsPlainRedis': { bench: 'gate', unit: '×', goal: ratio(0.9) },
  // `{ p50, p99, count }`: from the webhook's 2xx on instance A to the first refusal on instance B.
  'gate.revocationMs': { bench: 'gate', unit: 'ms', goal: atMost(100, 'p99') },
  'client.throughputRatioVsUndici': { bench: 'client', unit: '×', goal: ratio(0.9) },
  'sandbox.createPerSec': { bench: 'create', unit: '/s' },
  'kit.createRatioVsDirect': { bench: 'create', unit: '×' },
  // Core's Fetch door on Node (issue 31): its gate inside a visit against a plain Fetch route of the
  // same server, and its session creation against the Express kit's.
  'fetch.gate.visitVsPlainFetch': { bench: 'fetch', unit: '×', goal: ratio(0.9) },
  'fetch.createRatioVsExpress': { bench: 'fetch', unit: '×', goal: ratio(0.9) },
  // @verify-kit/hono on @hono/node-server (issue 32): requireApproved() inside a visit against a plain
  // Hono route of the same app; issue 42's goal, the cost of opening one cookie: 0.85.
  'hono.gate.visitVsPlainHono': { bench: 'hono', unit: '×', goal: ratio(0.85) },
  // The gate's physical limit inside a visit: the plain route that also reads the Cookie header and
  // finds the visitor's cookie in it, against the plain route.
  'hono.gate.cookieReadVsPlainHono': { bench: 'hono', unit: '×' },
  // `{ plain, cookieRead, visit }`: the app process's CPU time per request of each route, µs.
  'hono.gate.cpuUsPerRequest': { bench: 'hono', unit: 'µs' },
  // @verify-kit/next on `next start` (issue 32): kit.requireApproved() in the proxy ÷ a pass-through
  // proxy (NextResponse.next()), 50 anonymous visitors inside their visits.
  'next.gate.proxyVsPassThrough': { bench: 'next', unit: '×', goal: ratio(0.8) },
  ...peerFigures('hono'),
  ...peerFigures('express'),
  ...peerFigures('fetch'),
  // The kit's state in PostgreSQL (issue 39: sqlStore over pg's Pool), core's Fetch door on Node: its
  // gate inside a visit of signed-in accounts (the decision read from the database) against a plain
  // route of the same server; of anonymous visitors (their binding read too: no goal, they need no
  // store); its session creation against the same app's in memory.
  'sql.gate.visitVsPlain': { bench: 'sql', unit: '×', goal: ratio(0.8) },
  'sql.gate.anonymousVisitVsPlain': { bench: 'sql', unit: '×' },
  'sql.createRatioVsMemory': { bench: 'sql', unit: '×', goal: ratio(0.9) },
  // @verify-kit/otel (issue 41), core's Fetch door on Node, 50 anonymous visitors inside their visits,
  // `{ ratio, low, high }`: the gate with `instrumentation: openTelemetry()` and no SDK registered ÷
  // the same gate with no hook, and with the SDK recording ÷ no hook; the gate alone in the app's
  // process (`gate`: the hook's share undiluted), then its routes over HTTP (`server`).
  'otel.gate.hookNoSdkVsNoHook': { bench: 'otel', unit: '×', goal: ratioAtLeast(0.98) },
  'otel.gate.sdkVsNoHook': { bench: 'otel', unit: '×' },
  'otel.server.hookNoSdkVsNoHook': { bench: 'otel', unit: '×' },
  'otel.server.sdkVsNoHook': { bench: 'otel', unit: '×' },
} as const satisfies Record<string, FigureSpec>;

export type FigureKey = keyof typeof FIGURES;
export const FIGURE_KEYS = Object.keys(FIGURES) as FigureKey[];

/** A number, or an object of numbers (e.g. `{ count, median, p95, p99, max }`). */
export type FigureValue = number | { readonly [key: string]: number | FigureValue };
export type Figures = Partial<Record<FigureKey, FigureValue>>;

export const keysOf = (bench: BenchName) => FIGURE_KEYS.filter((key) => FIGURES[key].bench === bench);

export interface Verdict {
  key: FigureKey;
  goal: string;
  actual: number | null;
  met: boolean | null;
}

function read(value: FigureValue | undefined, field: readonly string[] = []): number | undefined {
  let current: FigureValue | undefined = value;
  for (const name of field) current = typeof current === 'object' ? current[name] : undefined;
  return typeof current === 'number' && Number.isFinite(current) ? current : undefined;
}

/** Each goal: met, missed, or not measured (null). */
export function judge(figures: Figures): Verdict[] {
  return FIGURE_KEYS.flatMap((key): Verdict[] => {
    const spec: FigureSpec = FIGURES[key];
    if (spec.goal === undefined) return [];
    const { field, comparison, limit } = spec.goal;
    const goal = `${field?.join('.') ?? 'value'} ${comparison} ${limit}${unitText(spec.unit, field?.at(-1))}`;
    const actual = read(figures[key], field);
    if (actual === undefined) return [{ key, goal, actual: null, met: null }];
    return [{ key, goal, actual, met: comparison === '<=' ? actual <= limit : actual >= limit }];
  });
}

/** A field named `vs…` (e.g. `vsLimit`) is a ratio, whatever the figure's unit. */
const unitText = (unit: FigureSpec['unit'], field?: string) =>
  unit === '×' || field?.startsWith('vs') ? '' : ` ${unit}`;

/** A figure for people: `11054 B`, `0.89×`, `median 38.8 ms, p95 47.3 ms`. */
export function formatFigure(key: FigureKey, value: FigureValue | null | undefined): string {
  if (value === null || value === undefined) return 'not measured';
  const unit = FIGURES[key].unit;
  const format = (v: FigureValue, name?: string): string => {
    if (typeof v !== 'number') {
      return Object.entries(v)
        .map(([inner, x]) => (typeof x === 'number' ? format(x, inner) : `${inner}: ${format(x)}`))
        .join(', ');
    }
    const withUnit =
      name === 'count' ? `${v}` : unit === '×' || name?.startsWith('vs') ? `${v}×` : `${v} ${unit}`;
    return name === undefined ? withUnit : `${name} ${withUnit}`;
  };
  return format(value);
}
