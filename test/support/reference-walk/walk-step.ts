/**
 * The walk of the reference gateway's API document: one step per request, in an order where what
 * a step needs (an API, a policy, a key, an OAuth client, a certificate, an organisation's key)
 * was made by an earlier one. Bodies start from the document's own examples, with its ids, hosts
 * and listen paths replaced by the walk's.
 */

/** What the walk started with, and the ids its steps made. */
export interface WalkContext {
  upstreamUrl: string;
  orgId: string;
  /** a certificate and its private key, PEM */
  pem: string;
  /** the request body example of an operation, copied */
  example(operationId: string, variant?: number): Record<string, any>;
  /** a request outside the document (the OAuth flow that issues a token) */
  gateway(path: string, init: { method: string; headers?: Record<string, string>; body?: string }): Promise<any>;
  ids: Record<string, string>;
}

export interface WalkRequest {
  /** values for the path template's `{names}` */
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** JSON unless `form` or `text` */
  body?: unknown;
  form?: Record<string, string>;
  text?: string;
}

export interface WalkStep {
  operation: string;
  /** says which call this is when an operation is walked more than once */
  what?: string;
  /** runs first: what the request needs that no operation of the document makes */
  prepare?(ctx: WalkContext): Promise<void>;
  request(ctx: WalkContext): WalkRequest;
  /** the status a gateway that does what was asked answers; 200 unless given */
  expect?: number;
  /** the request goes without `x-gw-authorization` */
  withoutSecret?: boolean;
  /** another method than the operation's */
  method?: string;
  /** keeps the ids later steps need */
  remember?(ctx: WalkContext, body: any): void;
  /**
   * What the document says in words and its loose schemas cannot tell (every field of a session is
   * optional, so any object passes): problems with the answer, empty when it is the one asked for.
   */
  answers?(ctx: WalkContext, body: any): string[];
}

/** An id an earlier step made; the step fails saying so when that step did not make it. */
export function need(ctx: WalkContext, name: string): string {
  const id = ctx.ids[name];
  if (!id) throw new Error(`needs ${name}, which an earlier step did not make`);
  return id;
}

export const OAUTH_API = 'conformance-oauth';
export const KEYED_API = 'conformance-keyed';
export const KEYED_API_V2 = 'conformance-keyed-v2';
export const POLICY = 'conformance-policy';
export const CUSTOM_KEY = 'conformance-custom-key';
export const CLIENT = 'conformance-client';
export const REDIRECT_URI = 'http://client.example.test/callback';

/** The document's classic API example, serving the walk's upstream. */
export function classicApi(ctx: WalkContext, operation: string, apiId: string, fields: Record<string, unknown>) {
  const api = ctx.example(operation);
  return {
    ...api,
    api_id: apiId,
    org_id: ctx.orgId,
    proxy: { ...api.proxy, listen_path: `/${apiId}/`, target_url: ctx.upstreamUrl },
    ...fields,
  };
}

export const OAUTH_FIELDS = {
  use_oauth2: true,
  oauth_meta: {
    allowed_access_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    allowed_authorize_types: ['code', 'token'],
    auth_login_redirect: 'http://login.example.test/login',
  },
};
export const KEYED_FIELDS = { use_oauth2: false, use_keyless: false, enable_batch_request_support: true };

/** The document's session example, granting the keyed API. */
export function session(ctx: WalkContext, operation: string, fields: Record<string, unknown> = {}) {
  const example = ctx.example(operation);
  const [rights] = Object.values(example.access_rights as Record<string, any>);
  return {
    ...example,
    org_id: ctx.orgId,
    apply_policies: [],
    access_rights: { [KEYED_API]: { ...rights, api_id: KEYED_API, api_name: KEYED_API } },
    ...fields,
  };
}
