import { DONE, type Step } from '../compose';

/** An endpoint whose method action is `reply` is answered by the gateway; upstream is not called. */
export const replyStep: Step = (ctx) => {
  const decision = ctx.endpoint;
  const reply = decision.kind === 'ignored' || decision.kind === 'allowed' ? decision.reply : undefined;
  if (!reply) return;
  ctx.res.writeHead(reply.code, {
    ...reply.headers,
    ...ctx.responseHeaders,
    'content-length': Buffer.byteLength(reply.body),
  });
  ctx.res.end(reply.body);
  return DONE;
};
