import { setTimeout as delay } from 'node:timers/promises';
import { definePlugin } from '../../../plugins/sdk';

/** Test plugin: a response hook that takes a while and only sets a header, never reading the body. */
export default definePlugin({
  name: 'slow-header',
  sdk: '^1.0.0',
  hooks: {
    async response(ctx) {
      await delay(100);
      ctx.response.setHeader('x-slow', 'done');
    },
  },
});
