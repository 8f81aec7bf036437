import { type Span, SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { UpstreamRequestEvent } from '@verify-kit/core';
import { errorTypeOf, upstreamAttributes } from './metrics.js';

/**
 * One HTTP exchange with the service as a client span, after the fact (it starts and ends at the
 * exchange's own times): named `{method} {url.template}` as the HTTP conventions name a client span
 * with a template, a child of whatever span is active where the kit called (your server's request's).
 */
export function recordUpstreamSpan(tracer: Tracer, event: UpstreamRequestEvent): Span {
  const attributes = upstreamAttributes(event);
  if (event.resendCount > 0) attributes['http.request.resend_count'] = event.resendCount;
  const span = tracer.startSpan(`${event.method} ${event.urlTemplate}`, {
    kind: SpanKind.CLIENT,
    startTime: event.startTime,
    attributes,
  });
  if (errorTypeOf(event) !== undefined) span.setStatus({ code: SpanStatusCode.ERROR });
  span.end(event.startTime + event.durationMs);
  return span;
}
