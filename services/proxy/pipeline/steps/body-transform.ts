import type { LoggerInstance } from 'moleculer';
import { DONE, type Step } from '../compose';
import { ExecError } from '../../../../lib/go-template/template';
import { BodyUnreadable } from '../body-transform/body-transform';
import { sendGatewayError } from '../gateway-errors';
import type { HeldResponse, RequestContext } from '../request-context';

/**
 * `extended_paths.transform`: the request body is rewritten by the endpoint's template before it
 * goes on (a body that is not the declared JSON or XML is refused with 400; a template that
 * fails to run is logged and the body goes on unchanged, as in the reference gateway);
 * `transform_response`: the upstream's body is held and rewritten the same way (a body that can
 * not be read is sent as it came, and logged; compressed bodies are left alone).
 */
export function bodyTransformStep(logger: LoggerInstance): Step {
  return (ctx) => {
    const method = ctx.req.method ?? 'GET';
    const version = ctx.version!;
    const onResponse = version.responseTransforms?.find(method, ctx.relativePath);
    if (onResponse) {
      ctx.addResponseFilter((response) =>
        transformResponse(response, ctx, (body) => onResponse.apply(body, ctx), logger),
      );
    }
    const onRequest = version.requestTransforms?.find(method, ctx.relativePath);
    if (!onRequest) return;
    return ctx.readBody().then((body) => {
      try {
        ctx.replacedBody = Buffer.from(onRequest.apply(body, ctx));
      } catch (err) {
        if (err instanceof ExecError) {
          // the template failed to run (Go's Execute error): logged, and the body goes on as it came
          logger.warn(`API ${ctx.api.definition.api_id}: request body transformation failed: ${err.message}`);
          return undefined;
        }
        if (!(err instanceof BodyUnreadable)) throw err;
        sendGatewayError(ctx.res, 400, `Request body transformation failed: ${err.message}`);
        return DONE;
      }
      return undefined;
    });
  };
}

function transformResponse(
  response: HeldResponse,
  ctx: RequestContext,
  apply: (body: Buffer) => string,
  logger: LoggerInstance,
): HeldResponse {
  if (response.headers['content-encoding'] !== undefined) return response;
  try {
    return { ...response, body: Buffer.from(apply(response.body)) };
  } catch (err) {
    logger.warn(`API ${ctx.api.definition.api_id}: response body transformation failed: ${(err as Error).message}`);
    return response;
  }
}
