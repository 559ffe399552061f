/** `orgs.*` actions and the organisation object, in the reference dashboard's format. */

export interface Organisation {
  id: string;
  owner_name: string;
  owner_slug: string;
  cname_enabled: boolean;
  cname: string;
  apis: Array<{ api_human_name: string; api_id: string }>;
  developer_quota: number;
  developer_count: number;
  event_options: Record<string, unknown>;
  hybrid_enabled: boolean;
  ui: Record<string, unknown>;
  org_options_meta: Record<string, unknown>;
}

const optionalBoolean = { type: 'boolean', optional: true };
const optionalObject = { type: 'object', optional: true };

export const organisationRule = {
  type: 'object',
  props: {
    id: {
      type: 'string',
      optional: true,
      pattern: /^[A-Za-z0-9_-]{1,64}$/,
      messages: { stringPattern: "The '{field}' field may only hold letters, digits, '_' and '-' (at most 64)." },
    },
    owner_name: { type: 'string', empty: false, trim: true },
    owner_slug: { type: 'string', optional: true },
    cname_enabled: optionalBoolean,
    cname: { type: 'string', optional: true },
    apis: {
      type: 'array',
      optional: true,
      items: { type: 'object', props: { api_human_name: { type: 'string' }, api_id: { type: 'string' } } },
    },
    developer_quota: { type: 'number', integer: true, optional: true },
    developer_count: { type: 'number', integer: true, optional: true },
    event_options: optionalObject,
    hybrid_enabled: optionalBoolean,
    ui: optionalObject,
    org_options_meta: optionalObject,
  },
} as const;

export const orgsActionParams = {
  list: { page: { type: 'number', integer: true, optional: true } },
  get: { id: { type: 'string', empty: false } },
  create: { organisation: organisationRule },
  update: { id: { type: 'string', empty: false }, organisation: organisationRule },
  remove: { id: { type: 'string', empty: false } },
  'settings.get': { org_id: { type: 'string', empty: false } },
  'settings.setPermissions': {
    org_id: { type: 'string', empty: false },
    additional_permissions: { type: 'record', key: { type: 'string', empty: false }, value: { type: 'string' } },
  },
  'settings.setOpenPolicy': {
    org_id: { type: 'string', empty: false },
    open_policy: {
      type: 'object',
      props: { enabled: 'boolean', rules: { type: 'string' }, debug: { type: 'boolean', optional: true } },
    },
  },
  'openPolicy.get': { org_id: { type: 'string', empty: false } },
  'openPolicy.revision': {},
};

export interface OrgSettingsResult {
  additional_permissions: Record<string, string>;
  open_policy: OpenPolicy;
}

export type OrganisationInput = Partial<Organisation> & Pick<Organisation, 'owner_name'>;

export interface OrgsListParams {
  /** page number; 0 or lower = all */
  page?: number;
}
export interface OrgsListResult {
  organisations: Organisation[];
  pages: number;
}
export interface OrgsGetParams {
  id: string;
}
export interface OrgsCreateParams {
  organisation: OrganisationInput;
}
export interface OrgsUpdateParams {
  id: string;
  organisation: OrganisationInput;
}
export interface OrgsRemoveParams {
  id: string;
}

/** An organisation's open policy (policy-engine rules, lib/rego). */
export interface OpenPolicy {
  enabled: boolean;
  rules: string;
  /** log every decision (the input without secrets); only present once set */
  debug?: boolean;
}

/**
 * What a dashboard node needs to enforce an organisation's rules: the policy, what `input.org`
 * shows of the organisation (only `id` when it has no record), and the settings revision the
 * answer reflects (see ORGS_SETTINGS_CHANGED).
 */
export interface OrgsOpenPolicyResult {
  open_policy: OpenPolicy;
  org: { id: string; owner_name?: string; owner_slug?: string };
  revision: number;
}
export interface OrgsSettingsGetParams {
  org_id: string;
}
export interface OrgsSetPermissionsParams {
  org_id: string;
  additional_permissions: Record<string, string>;
}
export interface OrgsSetOpenPolicyParams {
  org_id: string;
  open_policy: OpenPolicy;
}

/** The `orgs.*` actions: params and result of each (see contracts/actions.ts). */
export interface OrgsActions {
  'orgs.list': { params: OrgsListParams; result: OrgsListResult };
  'orgs.get': { params: OrgsGetParams; result: Organisation };
  'orgs.create': { params: OrgsCreateParams; result: Organisation };
  'orgs.update': { params: OrgsUpdateParams; result: Organisation };
  'orgs.remove': { params: OrgsRemoveParams; result: void };
  'orgs.settings.get': { params: OrgsSettingsGetParams; result: OrgSettingsResult };
  'orgs.settings.setPermissions': { params: OrgsSetPermissionsParams; result: void };
  'orgs.settings.setOpenPolicy': { params: OrgsSetOpenPolicyParams; result: void };
  'orgs.openPolicy.get': { params: OrgsSettingsGetParams; result: OrgsOpenPolicyResult };
  'orgs.openPolicy.revision': { params: Record<string, never>; result: { revision: number } };
}
