/**
 * Spans through @opentelemetry/api: without an SDK (tests, a plain start) every call here is a
 * no-op costing next to nothing; with one, the spans nest under the incoming request's span.
 */
import { SpanStatusCode, trace, type Attributes, type Span } from "@opentelemetry/api";

const tracer = trace.getTracer("countersign");

/**
 * Runs `work` inside a span named `name`, ended when the work settles. A failure is marked on
 * the span with the error's name only (no message: a driver's message may quote data) and
 * rethrown unchanged.
 */
export async function traced<T>(name: string, work: (span: Span) => Promise<T> | T, attributes?: Attributes): Promise<T> {
  return tracer.startActiveSpan(name, attributes ? { attributes } : {}, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : "error" });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** The trace and span ids of the active span, for log lines; empty when nothing is traced. */
export function activeTraceIds(): { traceId?: string; spanId?: string } {
  const context = trace.getActiveSpan()?.spanContext();
  if (!context || !trace.isSpanContextValid(context)) return {};
  return { traceId: context.traceId, spanId: context.spanId };
}
