// A child process (benches/otel.ts) serving core's Fetch door four times on one port, each kit made
// of the same options and secret, so a visitor's sealed cookie opens on every one of them:
// - `/visit`, `/identity/*`: the kit the bench's people verify through;
// - `/none/visit`: the gate with no instrumentation (the baseline);
// - `/hook/visit`: `instrumentation: openTelemetry()` with no SDK registered (the API's no-op meter
//   and tracer: what an app pays that turned it on and never installed an SDK);
// - `/sdk/visit`: `openTelemetry({ meterProvider, tracerProvider })` into the real SDK, recording.
// A request is routed by its first path segment, synchronously, so each route costs the same to reach.
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { METRICS, openTelemetry } from '@verify-kit/otel';
import { type Listening, serveFetch } from '@verify-kit/testkit';
import type { AppConfig } from './app.js';
import { serveCommands } from './child.js';
import { closingKits, fetchDoor, shellKitOptions } from './shell-apps.js';
import { compareRatios, type LoadSettings, type Pairs, type Target } from './throughput.js';

/** The kits measured, by their path's first segment. */
type Measured = 'none' | 'hook' | 'sdk';

const HOUR_MS = 3_600_000;
let server: Listening | undefined;
let kits: Record<Measured, ReturnType<typeof fetchDoor>['kit']> | undefined;
let reader: PeriodicExportingMetricReader | undefined;
let providers: { meterProvider: MeterProvider; tracerProvider: BasicTracerProvider } | undefined;

/** The SDK as an app runs it: metrics exported every 10 s, spans in batches. */
function recordingSdk() {
  reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 10_000,
  });
  return {
    meterProvider: new MeterProvider({ readers: [reader] }),
    tracerProvider: new BasicTracerProvider({
      spanProcessors: [new BatchSpanProcessor(new InMemorySpanExporter())],
    }),
  };
}

const commands = {
  async start({ config }: { config: AppConfig }) {
    // Inside the measured visits nothing is re-read or re-entered: the figures are the hook's alone.
    const options = {
      ...shellKitOptions(config),
      basePath: '/identity',
      visitIdleMs: 24 * HOUR_MS,
      maxAgeMs: HOUR_MS,
      staleIfErrorMs: HOUR_MS,
    };
    providers = recordingSdk();
    const doors = {
      setup: fetchDoor(options),
      none: fetchDoor(options, '/none'),
      hook: fetchDoor({ ...options, instrumentation: openTelemetry() }, '/hook'),
      sdk: fetchDoor({ ...options, instrumentation: openTelemetry(providers) }, '/sdk'),
    };
    const listening = await serveFetch(async (request, context) => {
      const { pathname } = new URL(request.url);
      const first = pathname.split('/', 2)[1];
      const door = first === 'none' || first === 'hook' || first === 'sdk' ? doors[first] : doors.setup;
      return (await door.answer(request, context, pathname)) ?? new Response('not found', { status: 404 });
    });
    server = closingKits(listening, ...Object.values(doors).map((door) => door.kit));
    kits = { none: doors.none.kit, hook: doors.hook.kit, sdk: doors.sdk.kit };
    return { url: server.url };
  },
  /**
   * The gate alone, in this process: `kit.gate(request)` of each measured kit called in `load`'s
   * loops for visitors holding `cookies` (a new Request each call, as a server makes one), compared
   * as the HTTP routes are (compareRatios): the hook's share not diluted by HTTP and the bridge.
   */
  async inProcess({
    names,
    cookies,
    load,
    pairs,
  }: {
    names: readonly Measured[];
    cookies: string[];
    load: LoadSettings;
    pairs: Pairs<string>;
  }) {
    const targets = names.map((name): Target => {
      let next = 0;
      const url = `http://bench.localhost/${name}/visit`;
      return {
        name,
        async call() {
          const cookie = cookies[next++ % cookies.length]!;
          const gate = await kits![name].gate(
            new Request(url, { headers: { accept: 'application/json', cookie } }),
          );
          if (gate.kind !== 'granted')
            throw new Error(`${name}: the gate ${gate.kind} a visitor inside a visit`);
        },
      };
    });
    return compareRatios(targets, load, pairs, async () => commands.cpuMicros());
  },
  /** Gate decisions the SDK recorded so far: proof that `/sdk/visit` was measured recording. */
  async recorded() {
    const collected = await reader?.collect();
    const metric = collected?.resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((found) => found.descriptor.name === METRICS.gateDecisions.name);
    return (metric?.dataPoints ?? []).reduce((sum, point) => sum + Number(point.value), 0);
  },
  /** This process's CPU time so far (user + system), µs. */
  cpuMicros() {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
  async close() {
    await server?.close();
    await providers?.meterProvider.shutdown();
    await providers?.tracerProvider.shutdown();
  },
};

export type OtelAppCommands = typeof commands;

serveCommands(commands);
