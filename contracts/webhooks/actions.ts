/** `webhooks.*` actions and the webhook object (docs/webhooks-and-events.md#webhooks). */

export interface Webhook {
  id: string;
  org_id: string;
  name: string;
  method: string;
  /** the URL events are delivered to */
  target_path: string;
  /** a template file for the body; empty = the event as JSON */
  template_path: string;
  header_map: Record<string, string>;
  /** seconds during which the same event for the same key is not sent again */
  event_timeout: number;
}

export interface Delivery {
  id: string;
  hook_id: string;
  api_id: string;
  event: string;
  status: 'delivered' | 'failed';
  attempts: number;
  response_code: number;
  error: string;
  created_at: string;
}

export const webhookRule = {
  type: 'object',
  props: {
    name: { type: 'string', empty: false, trim: true },
    method: { type: 'enum', values: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'], optional: true },
    target_path: {
      type: 'string',
      pattern: /^https?:\/\/\S+$/i,
      messages: { stringPattern: "The '{field}' field must be an absolute http:// or https:// URL." },
    },
    template_path: { type: 'string', optional: true },
    header_map: { type: 'record', optional: true, key: { type: 'string', empty: false }, value: { type: 'string' } },
    event_timeout: { type: 'number', integer: true, min: 0, optional: true },
    org_id: { type: 'string', optional: true },
  },
} as const;

const id = { type: 'string', empty: false };
const scope = { type: 'string', optional: true };

export const webhooksActionParams = {
  list: { org_scope: scope, page: { type: 'number', integer: true, optional: true } },
  get: { id, org_scope: scope },
  create: { hook: webhookRule, org_scope: scope },
  update: { id, hook: webhookRule, org_scope: scope },
  remove: { id, org_scope: scope },
  deliveries: { id, org_scope: scope },
};

export interface WebhooksListResult {
  hooks: Webhook[];
  pages: number;
}

export interface WebhooksListParams {
  org_scope?: string;
  /** page number; 0 or lower = all */
  page?: number;
}
export interface WebhooksGetParams {
  id: string;
  org_scope?: string;
}
/** A webhook as clients send it: name and target required, the rest defaulted. */
export type WebhookInput = Partial<Webhook> & Pick<Webhook, 'name' | 'target_path'>;
export interface WebhooksCreateParams {
  hook: WebhookInput;
  org_scope?: string;
}
export interface WebhooksUpdateParams extends WebhooksCreateParams {
  id: string;
}

/** The `webhooks.*` actions: params and result of each (see contracts/actions.ts). */
export interface WebhooksActions {
  'webhooks.list': { params: WebhooksListParams; result: WebhooksListResult };
  'webhooks.get': { params: WebhooksGetParams; result: Webhook };
  'webhooks.create': { params: WebhooksCreateParams; result: Webhook };
  'webhooks.update': { params: WebhooksUpdateParams; result: Webhook };
  'webhooks.remove': { params: WebhooksGetParams; result: void };
  'webhooks.deliveries': { params: WebhooksGetParams; result: { deliveries: Delivery[] } };
}
