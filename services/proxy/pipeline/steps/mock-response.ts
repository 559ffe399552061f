import { DONE, type Step } from '../compose';

/** `extended_paths.mock_response`: the gateway answers the endpoint itself; upstream is not called. */
export const mockResponseStep: Step = (ctx) => {
  const mock = ctx.version?.mockResponses?.find(ctx.req.method ?? 'GET', ctx.relativePath);
  if (!mock) return;
  ctx.res.writeHead(mock.code, {
    ...mock.headers,
    ...ctx.responseHeaders,
    'content-length': Buffer.byteLength(mock.body),
  });
  ctx.res.end(ctx.req.method === 'HEAD' ? undefined : mock.body);
  return DONE;
};
