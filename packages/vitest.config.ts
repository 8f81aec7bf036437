import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Unit and integration tests of the Node packages and the demo server, run from the repository root
// (`pnpm test:unit`). Sources are resolved through the `source` export condition, so tests never
// need a prior build.
//
// Four projects (`pnpm test:unit --project <name>`):
// - unit: no socket, server, process or Redis, only code (the files listed below);
// - isolated: files that replace a module (vi.mock), each in a module registry of its own;
// - integration: every other test file, most with real sockets on 127.0.0.1, the sandbox, Redis or
//   child processes (a new file lands here unless listed);
// - alone: the bench's chaos test (HAProxy, Redis restarts, kill -9) and the read floods, one file
//   at a time after the others, so no other suite's load stretches their faults or starves a flood.
// unit, isolated and integration run together, on WORKERS workers: the suites mostly wait on sockets, so
// Vitest's default (one worker fewer than the cores: 1 on CI's 2) leaves the cores idle, and three
// left a quarter of CI's two idle (four: 87 s -> 83 s).

/** Test files whose every test is pure code: nothing listens, connects or spawns. */
const UNIT = [
  'demo/test/cli-options.test.ts',
  'demo/test/page-text.test.ts',
  'demo/test/scenario-locale.test.ts',
  'docs/test/**/*.test.ts',
  'examples/test/docs-options.test.ts',
  'examples/test/quick-start-ci.test.ts',
  'examples/test/readme-blocks.test.ts',
  'packages/bench/test/chaos-figures.test.ts',
  'packages/bench/test/results.test.ts',
  'packages/bench/test/stats.test.ts',
  'packages/client/test/errors.test.ts',
  'packages/client/test/exports.test.ts',
  'packages/client/test/match-criterion.test.ts',
  'packages/client/test/parse-options.test.ts',
  'packages/client/test/retry.test.ts',
  'packages/client/test/schemas.test.ts',
  'packages/client/test/verify-webhook.test.ts',
  'packages/client/test/webhooks.test.ts',
  'packages/core/test/cookie-header.test.ts',
  'packages/core/test/exports.test.ts',
  'packages/core/test/kit-store.test.ts',
  'packages/core/test/sealed-cookie.test.ts',
  'packages/core/test/store-contract-memory.test.ts',
  'packages/core/test/sealed-state.test.ts',
  'packages/core/test/platform-store.test.ts',
  'packages/core/test/webhooks.test.ts',
  'packages/express/test/decide.test.ts',
  'packages/express/test/exports.test.ts',
  'packages/express/test/import-cycles.test.ts',
  'packages/core/test/ip-address.test.ts',
  'packages/core/test/lru.test.ts',
  'packages/express/test/options.test.ts',
  'packages/otel/test/no-sdk.test.ts',
  'packages/otel/test/readme.test.ts',
  'packages/core/test/phase.test.ts',
  'packages/protocol/test/**/*.test.ts',
  'packages/widget/test/**/*.test.ts',
];
/**
 * What must run with nothing else: the chaos run (HAProxy, Redis restarts, kill -9) and the read
 * floods (each must keep up 120 polls a second: another suite's load would starve it, not the kit).
 */
const ALONE = [
  'packages/bench/test/chaos.test.ts',
  'packages/express/test/read-flood.test.ts',
  'packages/core/test/read-flood.test.ts',
  'packages/hono/test/read-flood.test.ts',
];
/** Test files that replace a module (vi.mock): each in a fresh module registry of its own. */
const ISOLATED = ['packages/next/test/kit.test.ts'];
const ALL = [
  'packages/*/test/**/*.test.ts',
  'demo/test/**/*.test.ts',
  'docs/test/**/*.test.ts',
  'examples/test/**/*.test.ts',
];

/**
 * The files that take longest (tens of seconds: a Next.js build, instances killed and their claims
 * left to run out, floods of requests), started first: a worker that drew one of them last would
 * hold the whole run up after the others are done. A fresh clone has no timings of earlier runs.
 */
const LONGEST = [
  'examples/test/next-example.test.ts',
  'packages/express/test/approval-delivery.test.ts',
  'packages/express/test/visits.test.ts',
  'packages/core/test/sql-accounts.test.ts',
  'packages/runtime-tests/test/workerd-instances.test.ts',
  'packages/runtime-tests/test/workerd.test.ts',
  'demo/test/demo-hardening.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const at = LONGEST.findIndex((path) => file.moduleId.endsWith(path));
      return at === -1 ? LONGEST.length : at;
    };
    return [...(await super.sort(files))].sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * CI's second Node (VITEST_NODE_PASS=1, .ci/run) runs what can differ by runtime: the unit project,
 * and of the rest the stores (node:sqlite is Node 22.5+'s: only this pass runs it), the client, the
 * sandbox, the shells and their processes. Not what runs the same whatever Node runs it: the
 * examples and the demo, Bun, Deno and workerd (their own binaries), the bench, and the engine's
 * scenario suites (through one shell each, whose every Node API the files kept use too).
 */
const SAME_ON_EVERY_NODE =
  process.env.VITEST_NODE_PASS === '1'
    ? [
        'examples/**',
        'demo/**',
        'packages/runtime-tests/**',
        'packages/bench/**',
        ...[
          'one-move',
          'parity-concurrency',
          'parity-refusals',
          'parity-widget',
          'red-team',
          'shared-cache',
          'sql-accounts',
        ].map((name) => `packages/core/test/${name}.test.ts`),
        ...[
          'accounts-redis',
          'approval-delivery',
          'binding-stores',
          'coalescing',
          'decision-latency',
          'deep-link-styles',
          'definitive-answers',
          'false-grants',
          'fault-matrix',
          'fixation',
          'gate-refusals',
          'identification-case',
          'limits',
          'multi-instance',
          'outage',
          'properties',
          'read-budget',
          'redis-resilience',
          'same-origin-json',
          'send-link',
          'send-points',
          'session-move',
          'session-store-growth',
          'shared-cache',
          'shared-limits',
          'stored-expiry',
          'superseded-events',
          'threats',
          'threats-server',
          'visit-bus',
          'visit-redis',
          'visits',
        ].map((name) => `packages/express/test/${name}.test.ts`),
        ...['bindings', 'one-move', 'red-team', 'shared-cache'].map(
          (name) => `packages/hono/test/${name}.test.ts`,
        ),
      ]
    : [];

/** Workers for unit + integration; VITEST_WORKERS overrides (e.g. 1 to compare with a serial run). */
const WORKERS = Number(process.env.VITEST_WORKERS ?? 4);

export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 20_000,
    sequence: { sequencer: LongestFirst },
    // Each file starts with log lines and browser responses of its own (files share a registry).
    setupFiles: ['packages/testkit/src/per-file-state.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: UNIT,
          isolate: false,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'isolated', include: ISOLATED, maxWorkers: WORKERS, sequence: { groupOrder: 0 } },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ALL,
          exclude: [...configDefaults.exclude, ...UNIT, ...ALONE, ...ISOLATED, ...SAME_ON_EVERY_NODE],
          // A worker's files share one module registry: each file imports the workspace's sources
          // once per worker, not once per file (measured: 165 s -> 101 s for these projects, half
          // the CPU). Every file starts and closes its own servers, kits and stores; only
          // ISOLATED's replace a module.
          isolate: false,
          maxWorkers: WORKERS,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: { name: 'alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 1 } },
      },
    ],
  },
});
