import { GwError } from '../../lib/errors';

export const WebhooksErrors = {
  notFound: (id: string) => new GwError('GW_ERR_WEBHOOKS_NOT_FOUND', 404, `Webhook not found: ${id}`, { id }),
  invalid: (message: string) => new GwError('GW_ERR_WEBHOOKS_INVALID', 400, message),
};
