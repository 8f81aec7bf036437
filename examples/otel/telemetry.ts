// telemetry.ts: loaded before the app (node --import ./telemetry.js server.js), as any OpenTelemetry
// SDK is. Here the metrics SDK alone, scraped by Prometheus at http://localhost:9464/metrics.
import { metrics } from '@opentelemetry/api';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { MeterProvider } from '@opentelemetry/sdk-metrics';

const exporter = new PrometheusExporter({ port: Number(process.env.METRICS_PORT ?? 9464) });
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [exporter] }));
