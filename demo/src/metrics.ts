import type { IncomingMessage, ServerResponse } from 'node:http';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { openTelemetry } from '@verify-kit/otel';

/**
 * `--metrics`: the kit's series through OpenTelemetry (@verify-kit/otel) into a Prometheus exporter,
 * answered at the demo's own `GET /metrics` (no second port). A provider of its own, not the global
 * one: two demos in one process (the tests) keep their series apart.
 */
export function demoMetrics() {
  const exporter = new PrometheusExporter({ preventServerStart: true });
  const meterProvider = new MeterProvider({ readers: [exporter] });
  return {
    instrumentation: openTelemetry({ meterProvider }),
    /** GET /metrics in Prometheus's text format. */
    serve: (req: IncomingMessage, res: ServerResponse) => exporter.getMetricsRequestHandler(req, res),
    close: () => meterProvider.shutdown(),
  };
}
