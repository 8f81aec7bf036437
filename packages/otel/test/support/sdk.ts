import type { Attributes } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type DataPoint,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** One recorded series point: its attributes and its value (a sum, or a histogram's count and sum). */
export interface Point {
  attributes: Attributes;
  value: number | { count: number; sum: number | undefined };
}

/**
 * The real OpenTelemetry SDK with its in-memory exporters, as a test reads it: a MeterProvider
 * whose metrics are exported on demand (`collect`), and a tracer provider keeping every ended span.
 */
export function inMemorySdk() {
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  // Exported when the test asks (forceFlush), not on a timer.
  const reader = new PeriodicExportingMetricReader({
    exporter: metricExporter,
    exportIntervalMillis: 3_600_000,
  });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spanExporter)] });

  /** Every series by metric name, as the SDK exports it now (cumulative). */
  async function collect(): Promise<Map<string, Point[]>> {
    metricExporter.reset();
    await reader.forceFlush();
    const series = new Map<string, Point[]>();
    for (const resource of metricExporter.getMetrics()) {
      for (const scope of resource.scopeMetrics) {
        for (const metric of scope.metrics) {
          const points = (metric.dataPoints as DataPoint<unknown>[]).map((point) => ({
            attributes: point.attributes,
            value:
              typeof point.value === 'number'
                ? point.value
                : {
                    count: (point.value as { count: number }).count,
                    sum: (point.value as { sum?: number }).sum,
                  },
          }));
          series.set(metric.descriptor.name, points);
        }
      }
    }
    return series;
  }

  return {
    meterProvider,
    tracerProvider,
    collect,
    spans: (): ReadableSpan[] => spanExporter.getFinishedSpans(),
    async shutdown() {
      await meterProvider.shutdown();
      await tracerProvider.shutdown();
    },
  };
}

/** The value of the point whose attributes include `match` (0 when none). */
export function pointValue(points: readonly Point[] | undefined, match: Attributes): number {
  const found = (points ?? []).filter((point) =>
    Object.entries(match).every(([key, value]) => point.attributes[key] === value),
  );
  return found.reduce(
    (sum, point) => sum + (typeof point.value === 'number' ? point.value : point.value.count),
    0,
  );
}

/** Every attribute value of every series and span, and every span's name, as strings. */
export function everyAttributeValue(series: Map<string, Point[]>, spans: readonly ReadableSpan[]): string[] {
  const values: string[] = [];
  for (const points of series.values()) {
    for (const point of points) values.push(...Object.values(point.attributes).map(String));
  }
  for (const span of spans) {
    values.push(span.name, ...Object.values(span.attributes).map(String));
    for (const event of span.events)
      values.push(event.name, ...Object.values(event.attributes ?? {}).map(String));
  }
  return values;
}
