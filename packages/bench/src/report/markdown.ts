import { median } from '../support/stats.js';
import { type BenchResults, type FigureKey, GOALS } from './figures.js';
import { rows } from './format.js';
import { type LoadResults, renderLoadSection } from './load-markdown.js';

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** What each figure measures and how, for people reading BENCHMARKS.md. */
export const HOW_TO_READ: Record<FigureKey, string> = {
  'widget.standalone.minBytes':
    'Size of `packages/widget/dist/verify-identity.standalone.js` (the one-file module with Lit bundled) as built.',
  'widget.standalone.gzipBytes':
    'The same file gzipped (level 9): what a browser downloads from a gzip server.',
  'widget.standalone.brotliBytes': 'The same file with brotli (quality 11).',
  'lit.minBytes':
    'Lit alone (`export * from "lit"`: all of its exports) bundled with Vite the same way (lib mode, ES, minified, no comments), for reference; the widget bundles only the parts of Lit it uses.',
  'lit.gzipBytes': 'Lit alone, gzip level 9.',
  'lit.brotliBytes': 'Lit alone, brotli quality 11.',
  'ui.clickToQrMs':
    'Chromium page served by a small Express app (express-session + the kit at /identity, the standalone widget), sandbox in another process. From the Start click to the QR `<img>` inserted, `img.decode()` resolved with `naturalWidth > 0`, measured in the page with `performance.now()` (3 warm-up runs not counted). Cookies are cleared and the page reloaded before each run, so each click creates an upstream session: POST /identity/session -> kit -> sandbox, then GET /identity/qr.svg rendered by the kit.',
  'push.decisionToUiMs':
    'From just before the bench POSTs a reviewer decision (APPROVED) on an IN_MANUAL_REVIEW identification in the sandbox, to the widget’s `phase-change` to `approved` in the page (both `Date.now()` of the same machine clock). `webhooks`: the sandbox signs and sends the event to the kit’s /identity/webhook, which wakes the parked long-poll. `polling`: no webhooks, the long-poll re-reads the upstream every pollInterval (2000 ms, the kit’s default); the decision lands at a random point of that cycle.',
  'gate.throughputRatio.reread':
    'autocannon requests/s of `GET /gated` (express-session + `requireApproved()`, which re-reads the status upstream on every request, coalesced) divided by requests/s of `GET /plain` (express-session, no gate), same approved user’s cookie, same connections and duration, interleaved rounds.',
  'gate.throughputRatio.cached':
    'The same with `requireApproved({ maxAgeMs: 5000 })`: a read younger than 5 s is reused.',
  'gate.coalescing.upstreamCallsPer100':
    'Upstream status reads (counted by a proxy on 127.0.0.1 in front of the sandbox) caused by 100 concurrent gated requests of one approved user, each on its own open connection. Median and max of 5 bursts.',
  'status.upstreamCallsPerPollWindow':
    'Upstream reads per poll window while 10 tabs of one user hold a long-poll of /identity/status (pollInterval 1000 ms here, counted over 3 windows after the tabs are parked). `initialReads`: reads caused by the 10 tabs arriving.',
  'client.throughputRatioVsUndici':
    '`client.getIdentification(id)` calls/s (validated, typed) divided by calls/s of a bare `undici.request` of the same URL with `body.json()`, 16 concurrent loops each, alternating rounds against the same sandbox process.',
  'sandbox.createPerSec':
    'autocannon POST /api/v1/verification-sessions straight to the sandbox (10 connections): creations/s.',
  'kit.createRatioVsDirect':
    'POST /identity/session through the kit with no cookie (a new browser session and a new upstream session each time) divided by sandbox.createPerSec, interleaved in the same run.',
  'memory.kit.rssMB':
    'RSS of the app process (Express, express-session memory store, the kit) after a full GC: before (warmed up by 1,000 sessions created and expired), after 10,000 sessions created through the kit, and after they expired (session cookies expired by real time and the store pruned; kit clock moved past expiry). The kit’s per-user memories are bounded maps that drop expired entries lazily (when read again, or when full), so part of afterExpiry is entries past their time to live that nothing has touched since (see heapUsedMB in the details).',
  'memory.sandbox.rssMB':
    'RSS of the sandbox process after a full GC: before, after the same 10,000 sessions, and after its clock moved past their expiry and the retention of their identifications (which makes it evict them).',
};

function baselines(results: BenchResults): string[] {
  const d = results.details as Record<
    string,
    { requestsPerSec?: Record<string, { rps: number }> } | undefined
  >;
  const out: string[] = [];
  for (const bench of ['gate', 'create']) {
    const rps = d[bench]?.requestsPerSec;
    if (rps) {
      out.push(
        `- ${bench}: ${Object.entries(rps)
          .map(([name, r]) => `${name} ${r.rps} req/s`)
          .join(', ')}`,
      );
    }
  }
  const client = (
    results.details.client as { callsPerSec?: { undici: number[]; client: number[] } } | undefined
  )?.callsPerSec;
  if (client) {
    out.push(
      `- client: undici.request median ${median(client.undici)} calls/s, client median ${median(client.client)} calls/s over ${client.undici.length} alternating rounds`,
    );
  }
  return out;
}

type Json = Record<string, unknown> | undefined;
const at = (value: unknown, ...path: string[]): unknown =>
  path.reduce<unknown>(
    (v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined),
    value,
  );
const list = (value: unknown) => (Array.isArray(value) ? value.join(', ') : undefined);

/** The numbers of this run that back up (or refine) the closing note of a missed goal. */
export function evidence(key: FigureKey, results: BenchResults): string {
  const d = results.details as Json;
  const parts: (string | undefined)[] = [];
  switch (key) {
    case 'widget.standalone.gzipBytes': {
      const lit = results.figures['lit.gzipBytes'];
      if (typeof lit === 'number') parts.push(`Lit alone (all exports) is ${lit} B gzipped in this run.`);
      break;
    }
    case 'ui.clickToQrMs': {
      const session = at(d, 'click-to-qr', 'sessionResponseEndMs', 'median');
      const qr = at(d, 'click-to-qr', 'qrResponseEndMs', 'median');
      if (session !== undefined) {
        parts.push(
          `Median after the click: POST /identity/session answered at ${session} ms, GET /qr.svg at ${qr} ms.`,
        );
      }
      break;
    }
    case 'gate.throughputRatio.reread':
    case 'gate.throughputRatio.cached': {
      const ratios = list(at(d, 'gate', 'perRoundRatios', key.split('.').pop()!));
      if (ratios) parts.push(`Per-round ratios of this run: ${ratios}.`);
      break;
    }
    case 'client.throughputRatioVsUndici': {
      const ratios = list(at(d, 'client', 'perRoundRatios'));
      if (ratios) parts.push(`Per-round ratios of this run: ${ratios}.`);
      break;
    }
    case 'gate.coalescing.upstreamCallsPer100': {
      const bursts = list(at(d, 'coalescing', 'bursts'));
      if (bursts) parts.push(`Upstream reads per burst in this run: ${bursts}.`);
      const timings = at(d, 'coalescing', 'burstTimings');
      if (Array.isArray(timings)) {
        const described = timings.map(
          (t) => `reads at ${list(at(t, 'readsAtMs'))} ms, last answer at ${at(t, 'lastAnswerMs')} ms`,
        );
        parts.push(`After each burst was sent: ${described.join('; ')}.`);
      }
      break;
    }
    default:
      break;
  }
  return parts.filter(Boolean).join(' ');
}

/** Pure: the content of BENCHMARKS.md. */
export function renderMarkdown(results: BenchResults, load?: LoadResults): string {
  const m = results.machine;
  const lines: string[] = [
    '# Benchmarks',
    '',
    '<!-- Generated by `pnpm bench` (packages/bench). Do not edit: rerun instead. -->',
    '',
    `Last run: ${results.date} on ${m.cpuModel}, ${m.cores} cores, ${m.memoryGB} GB, ${m.platform} ${m.arch}, Node ${results.node}; the whole run took ${results.durationSec} s. Load average (1 min, ${m.cores} cores) at start ${results.loadAverage.start}, at end ${results.loadAverage.end}.`,
    '',
    'These machines are shared and noisy: read the ratios (each measured against its baseline in the same',
    'run, interleaved) rather than absolute times. Every server runs on 127.0.0.1: the sandbox, the',
    'integrator’s app (Express + express-session + the kit) and the load generator each in their own process,',
    'all on the same cores.',
    '',
    '## Rerun',
    '',
    '```sh',
    'pnpm bench                     # builds every package, then runs all benchmarks (a few minutes)',
    'BENCH_ONLY=gate,push pnpm bench  # some of them: sizes, click-to-qr, push, gate, coalescing, client, create, memory',
    '```',
    '',
    'Chromium is `/usr/bin/chromium` unless `CHROMIUM_PATH` says otherwise. Results go to',
    '`bench-results.json` (the figures below as keys, plus machine, Node version, date, goals and the raw',
    'numbers behind each figure under `details`) and to this file. A figure that could not be measured is',
    '`null`, with the reason under `unavailable`. Benchmarks are not tests: nothing here fails CI.',
    '',
    '## Results',
    '',
    '| figure | value | goal |',
    '|---|---|---|',
    ...rows(results).map(([key, value, goal]) => `| \`${key}\` | ${cell(value)} | ${cell(goal)} |`),
    '',
    '## Goals',
    '',
    '| figure | goal | this run | verdict |',
    '|---|---|---|---|',
    ...results.goals.map(
      (g) =>
        `| \`${g.key}\` | ${cell(g.goal)} | ${g.actual ?? 'n/a'} | ${
          g.met === null
            ? 'not measured'
            : g.met
              ? 'met'
              : `**missed** by ${g.missedBy?.amount} (${g.missedBy?.percent}%)`
        } |`,
    ),
    '',
  ];
  const missed = results.goals.filter((g) => g.met === false);
  const unmeasured = results.goals.filter((g) => g.met === null);
  lines.push('## Closing note', '');
  if (missed.length === 0 && unmeasured.length === 0) lines.push('Every goal was met in this run.');
  const busiest = Math.max(results.loadAverage.start, results.loadAverage.end);
  if (busiest > m.cores) {
    lines.push(
      `The machine was busy with other work during this run (load average up to ${busiest} on ${m.cores} cores): timings and ratios are noisier than on an idle machine; rerun to compare.`,
      '',
    );
  }
  for (const g of missed) {
    const why = GOALS.find((goal) => goal.key === g.key)?.whyMissed ?? '';
    const seen = evidence(g.key, results);
    lines.push(
      `- \`${g.key}\` missed ${g.goal} by ${g.missedBy?.amount} (${g.missedBy?.percent}%): ${why}${seen ? ` ${seen}` : ''}`,
    );
  }
  for (const g of unmeasured)
    lines.push(`- \`${g.key}\` was not measured: ${results.unavailable[g.key] ?? ''}`);
  const base = baselines(results);
  if (base.length > 0) lines.push('', '### Baselines of this run', '', ...base);
  const loadSection = renderLoadSection(load);
  if (loadSection.length > 0) lines.push('', ...loadSection);
  lines.push('', '## How to read each figure', '');
  for (const [key, text] of Object.entries(HOW_TO_READ)) lines.push(`- \`${key}\`: ${text}`);
  lines.push('');
  return lines.join('\n');
}
