// @verify-kit/otel: verify-kit's instrumentation hook (the kit's `instrumentation` option) mapped to
// OpenTelemetry metrics and spans with @opentelemetry/api alone (a peer: your SDK's own API).
export { DURATION_BUCKETS_SECONDS, METRICS, type MetricSpec } from './metric-names.js';
export { type OpenTelemetryOptions, openTelemetry, SCOPE } from './open-telemetry.js';
