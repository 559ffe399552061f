/**
 * The connectors and processors gw streams run, with the fields each accepts (Bento's names and
 * defaults). The `apis` service checks a definition against it when saved, and the `streams`
 * service reads its defaults, so a field is declared once.
 */

import { BROKER_INPUTS, BROKER_OUTPUTS } from './broker-catalogue';

export type FieldKind =
  | 'string'
  | 'number'
  | 'boolean'
  | 'duration'
  | 'strings'
  | 'numbers'
  | 'string-map'
  | 'object'
  | 'mapping'
  | 'processors'
  | 'inputs'
  | 'outputs'
  | 'any';

export interface FieldSpec {
  kind: FieldKind;
  required?: boolean;
  /** allowed values of a string */
  oneOf?: readonly string[];
  /** a string with Bloblang interpolations (`${! … }`), checked when saved */
  interpolated?: boolean;
  /** the fields of an `object` (others refused) */
  fields?: Record<string, FieldSpec>;
}

export type ComponentSpec = Record<string, FieldSpec>;

const HTTP_VERBS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

const clientCommon: ComponentSpec = {
  url: { kind: 'string', required: true, interpolated: true },
  verb: { kind: 'string', oneOf: HTTP_VERBS },
  headers: { kind: 'string-map', interpolated: true },
  rate_limit: { kind: 'string' },
  timeout: { kind: 'duration' },
  retry_period: { kind: 'duration' },
  max_retry_backoff: { kind: 'duration' },
  retries: { kind: 'number' },
  successful_on: { kind: 'numbers' },
  drop_on: { kind: 'numbers' },
  backoff_on: { kind: 'numbers' },
};

export const INPUTS: Record<string, ComponentSpec> = {
  http_server: {
    path: { kind: 'string' },
    ws_path: { kind: 'string' },
    allowed_verbs: { kind: 'strings' },
    timeout: { kind: 'duration' },
    rate_limit: { kind: 'string' },
    sync_response: {
      kind: 'object',
      fields: {
        status: { kind: 'string', interpolated: true },
        headers: { kind: 'string-map', interpolated: true },
        metadata_headers: { kind: 'object', fields: { include_prefixes: { kind: 'strings' } } },
      },
    },
  },
  http_client: {
    ...clientCommon,
    payload: { kind: 'string' },
    body: { kind: 'string' },
    drop_empty_bodies: { kind: 'boolean' },
    stream: { kind: 'object', fields: { enabled: { kind: 'boolean' }, reconnect: { kind: 'boolean' } } },
  },
  broker: { inputs: { kind: 'inputs', required: true } },
  ...BROKER_INPUTS,
};

export const OUTPUTS: Record<string, ComponentSpec> = {
  http_server: {
    path: { kind: 'string' },
    stream_path: { kind: 'string' },
    ws_path: { kind: 'string' },
    allowed_verbs: { kind: 'strings' },
    timeout: { kind: 'duration' },
  },
  http_client: { ...clientCommon, propagate_response: { kind: 'boolean' }, max_in_flight: { kind: 'number' } },
  broker: {
    outputs: { kind: 'outputs', required: true },
    pattern: { kind: 'string', oneOf: ['fan_out', 'fan_out_sequential', 'round_robin', 'greedy'] },
  },
  portal_webhook: {
    event_type: { kind: 'string', required: true },
    portal_url: { kind: 'string', required: true },
    secret: { kind: 'string' },
  },
  ...BROKER_OUTPUTS,
};

const switchCase: ComponentSpec = {
  check: { kind: 'mapping' },
  processors: { kind: 'processors' },
  fallthrough: { kind: 'boolean' },
};

export const PROCESSORS: Record<string, ComponentSpec | 'mapping' | 'switch'> = {
  mapping: 'mapping',
  bloblang: 'mapping',
  branch: { request_map: { kind: 'mapping' }, processors: { kind: 'processors' }, result_map: { kind: 'mapping' } },
  http: { ...clientCommon, parallel: { kind: 'boolean' } },
  switch: 'switch',
};

export const SWITCH_CASE = switchCase;

/** Fields of a stream beside input, pipeline and output. */
export const RATE_LIMIT_RESOURCE: ComponentSpec = {
  label: { kind: 'string', required: true },
  local: { kind: 'object', required: true, fields: { count: { kind: 'number' }, interval: { kind: 'duration' } } },
};
