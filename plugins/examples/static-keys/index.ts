import { definePlugin } from '../../sdk';

/**
 * An `auth_check` plugin: lets a request through when its `X-Api-Key` header is one of the keys
 * in the API's `config_data.static_keys` (`{"<key>": {"owner": "..."}}`), with that entry as
 * its session, and passes the owner upstream in `X-Key-Owner`. A missing key is 401, an unknown
 * one 403, in the gateway's error shape.
 */
export default definePlugin({
  name: 'static-keys',
  sdk: '^1.0.0',
  hooks: {
    auth_check(ctx) {
      const presented = ctx.request.header('x-api-key');
      if (!presented) return ctx.respond({ status: 401, body: { error: 'Authorization field missing' } });
      const keys = (ctx.api.config.static_keys ?? {}) as Record<string, { owner?: string }>;
      const entry = Object.prototype.hasOwnProperty.call(keys, presented) ? keys[presented] : undefined;
      if (!entry) return ctx.respond({ status: 403, body: { error: 'Access to this API has been disallowed' } });
      ctx.request.removeHeader('x-api-key');
      if (entry.owner) ctx.request.setHeader('x-key-owner', entry.owner);
      ctx.allow({ ...entry });
    },
  },
});
