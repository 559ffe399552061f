import { definePlugin } from '../../../plugins/sdk';

/** Test plugin: rewrites the URL and body upstream, and the response on the way back. */
export default definePlugin({
  name: 'rewrite',
  sdk: '^1.0.0',
  hooks: {
    async post(ctx) {
      const body = (await ctx.request.readBody()).toString();
      ctx.request.setBody(body.toUpperCase());
      ctx.request.setUrl(`/rewritten${ctx.request.path.replace(/^\/plugins/, '')}?by=plugin`);
    },
    async response(ctx) {
      const body = (await ctx.response.readBody()).toString();
      ctx.response.setBody(`wrapped(${body})`);
      ctx.response.setStatus(299);
    },
  },
});
