import { randomUUID } from 'node:crypto';
import { definePlugin } from '../../sdk';

const STARTED = 'request-id.started';

/**
 * Gives every request an `X-Request-Id` (keeping one the client sent), passes it upstream and
 * back, and reports how long the upstream took in `X-Upstream-Time` (milliseconds).
 * List it under both `pre` and `response` in `custom_middleware`.
 */
export default definePlugin({
  name: 'request-id',
  sdk: '^1.0.0',
  hooks: {
    pre(ctx) {
      const id = ctx.request.header('x-request-id') ?? randomUUID();
      ctx.request.setHeader('x-request-id', id);
      ctx.state[STARTED] = performance.now();
    },
    response(ctx) {
      const id = ctx.request.header('x-request-id');
      if (id) ctx.response.setHeader('x-request-id', id);
      const started = ctx.state[STARTED];
      if (typeof started === 'number')
        ctx.response.setHeader('x-upstream-time', (performance.now() - started).toFixed(1));
    },
  },
});
