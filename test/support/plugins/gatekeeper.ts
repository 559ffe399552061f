import { definePlugin } from '../../../plugins/sdk';

/** Test plugin: answers early when asked to, throws when asked to, otherwise tags the request. */
export const gatekeeper = definePlugin({
  name: 'gatekeeper',
  sdk: '^1.0.0',
  hooks: {
    pre(ctx) {
      if (ctx.request.query.get('stop') === '1')
        return ctx.respond({ status: 418, headers: { 'x-stopped': 'yes' }, body: { stopped: true } });
      if (ctx.request.query.get('crash') === '1') throw new Error('gatekeeper exploded');
      ctx.request.setHeader('x-gatekeeper', 'passed');
    },
  },
});
