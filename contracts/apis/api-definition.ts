/**
 * The classic API definition (SPEC.md, "API definition (classic format)"). Only the fields gw
 * reads are typed; every other field of the reference format is kept as sent.
 */
export interface ApiDefinition {
  /** internal id, generated */
  id: string;
  /** public id, generated when absent */
  api_id: string;
  name: string;
  org_id: string;
  active: boolean;
  use_keyless?: boolean;
  /** host name the API answers on; empty = any host */
  domain?: string;
  proxy: {
    listen_path: string;
    target_url: string;
    strip_listen_path?: boolean;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

/** A hook reference of a dashboard API record. */
export interface HookReference {
  event_name: string;
  hook: Record<string, unknown>;
  event_timeout?: number;
}

/** An API as the dashboard REST API returns it. */
export interface ApiRecord {
  api_model: Record<string, unknown>;
  api_definition: ApiDefinition;
  hook_references: HookReference[];
  is_site: boolean;
  sort_by: number;
}
