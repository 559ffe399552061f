import { setTimeout as delay } from 'node:timers/promises';
import { definePlugin } from '../../../plugins/sdk';

/** Test plugin: a response hook that takes a while, then fails, never reading the body. */
export default definePlugin({
  name: 'slow-crash',
  sdk: '^1.0.0',
  hooks: {
    async response() {
      await delay(100);
      throw new Error('response plugin failed');
    },
  },
});
