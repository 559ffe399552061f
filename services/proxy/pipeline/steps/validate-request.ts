import { DONE, type Step } from '../compose';
import { sendGatewayError } from '../gateway-errors';
import type { RequestContext } from '../request-context';
import type { RequestValidator } from '../request-validation';

/**
 * `extended_paths.validate_json` and `validate_request`: the request is checked against the
 * endpoint's schema before it goes on; a failure is answered with the entry's status.
 */
export const validateRequestStep: Step = (ctx) => {
  const validators = ctx.version?.validators?.find(ctx.req.method ?? 'GET', ctx.relativePath);
  if (!validators) return;
  return runAll(ctx, validators);
};

async function runAll(ctx: RequestContext, validators: RequestValidator[]): Promise<typeof DONE | void> {
  for (const validate of validators) {
    const failure = await validate(ctx);
    if (failure) {
      sendGatewayError(ctx.res, failure.status, failure.message);
      return DONE;
    }
  }
}
