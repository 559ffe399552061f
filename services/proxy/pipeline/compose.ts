import type { RequestContext } from './request-context';

/** Returned by a step that has answered the client: the chain stops there. */
export const DONE = Symbol('done');
export type StepResult = void | typeof DONE;
export type Step = (ctx: RequestContext) => StepResult | Promise<StepResult>;

/**
 * Runs an API's steps in order. Synchronous steps run without allocating promises; the chain
 * only becomes asynchronous from the first step that returns a promise.
 */
export function compose(steps: Step[]): (ctx: RequestContext) => void | Promise<void> {
  const run = (ctx: RequestContext, from: number): void | Promise<void> => {
    for (let i = from; i < steps.length; i++) {
      const result = steps[i](ctx);
      if (result === DONE) return;
      if (result instanceof Promise) return result.then((settled) => (settled === DONE ? undefined : run(ctx, i + 1)));
    }
  };
  return (ctx) => run(ctx, 0);
}
