import { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
import { DONE, type Step, type StepResult } from '../compose';
import type { RequestContext } from '../request-context';

/**
 * A step of a node with tracing on: it notes its name on the request's trace, so a refusal says
 * which step refused, and with the API's `detailed_tracing` it runs in a span of its own below
 * the server span. Steps are wrapped only when tracing is on: a node without tracing runs the
 * bare steps.
 */
export function tracedStep(name: string, step: Step, detailed: boolean): Step {
  if (!detailed)
    return (ctx) => {
      if (ctx.trace) ctx.trace.step = name;
      return step(ctx);
    };
  return (ctx) => {
    const trace = ctx.trace;
    if (!trace) return step(ctx);
    trace.step = name;
    const span = trace.tracing.startSpan(name, SpanKind.INTERNAL, trace.span, { 'gw.step': name });
    let result: StepResult | Promise<StepResult>;
    try {
      result = step(ctx);
    } catch (err) {
      failed(span, err);
      throw err;
    }
    if (!(result instanceof Promise)) return finished(span, ctx, result);
    return result.then(
      (settled) => finished(span, ctx, settled),
      (err: unknown) => {
        failed(span, err);
        throw err;
      },
    );
  };
}

function finished(span: Span, ctx: RequestContext, result: StepResult): StepResult {
  if (result === DONE) {
    span.setAttribute('gw.step.answered', true);
    const status = ctx.res.statusCode;
    if (ctx.res.headersSent && status >= 400) {
      span.setAttribute('http.response.status_code', status);
      span.setStatus({ code: SpanStatusCode.ERROR, message: `answered ${status}` });
    }
  }
  span.end();
  return result;
}

function failed(span: Span, err: unknown): void {
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  span.end();
}
