import { type MeterProvider, metrics, type Tracer, type TracerProvider, trace } from '@opentelemetry/api';
import type { Instrumentation } from '@verify-kit/core';
import { KitMetrics } from './metrics.js';
import { recordUpstreamSpan } from './spans.js';

/** The instrumentation scope the series and spans are recorded under. */
export const SCOPE = '@verify-kit/otel';

export interface OpenTelemetryOptions {
  /** Default: the global one (`metrics.setGlobalMeterProvider`, or what an SDK such as NodeSDK registers). */
  meterProvider?: MeterProvider;
  /** Default: the global one (`trace.setGlobalTracerProvider`, or what an SDK registers). */
  tracerProvider?: TracerProvider;
}

/**
 * The kit's `instrumentation` option, mapped to OpenTelemetry through `@opentelemetry/api` alone:
 * `createVerifyKit({ …, instrumentation: openTelemetry() })`. Metrics (README, "Metrics") for every
 * event, and a client span for each HTTP request to the service. With no SDK registered the API's
 * no-op meter and tracer take the calls; a meter provider registered after the kit is made is found
 * at the next event (the global one is looked up each time: a comparison when it has not changed).
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Instrumentation {
  const given = options.meterProvider;
  let provider: MeterProvider | undefined;
  let recorder: KitMetrics | undefined;
  const metricsOf = (): KitMetrics => {
    const current = given ?? metrics.getMeterProvider();
    if (recorder === undefined || current !== provider) {
      provider = current;
      recorder = new KitMetrics(current.getMeter(SCOPE));
    }
    return recorder;
  };
  // The global tracer provider is a proxy: a tracer taken now follows an SDK registered later.
  let tracer: Tracer | undefined;
  const tracerOf = () => {
    tracer ??= (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
    return tracer;
  };
  return (event) => {
    metricsOf().record(event);
    if (event.type === 'upstream.request') recordUpstreamSpan(tracerOf(), event);
  };
}
