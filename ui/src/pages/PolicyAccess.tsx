import { NumberField, Toggle } from '../components/form';
import type { Definition } from '../definition';
import { errorAt } from '../designer/auth-modes';
import { useApis } from './access';

/** A per-API limit of a policy's access right (`access_rights[api].limit`). */
export interface AccessLimit {
  rate: number;
  per: number;
  quota_max: number;
  quota_renewal_rate: number;
  throttle_interval: number;
  throttle_retry_limit: number;
  max_query_depth: number;
  [field: string]: unknown;
}

export interface PolicyAccessRight {
  api_id: string;
  api_name: string;
  versions: string[];
  limit?: AccessLimit | null;
  [field: string]: unknown;
}

type Rights = Record<string, PolicyAccessRight>;

/** The policy-wide values a new per-API limit starts from. */
export interface PolicyLimits {
  rate: number;
  per: number;
  quota_max: number;
  quota_renewal_rate: number;
  throttle_interval?: number;
  throttle_retry_limit?: number;
  max_query_depth?: number;
}

const LIMIT_FIELDS: Array<[keyof AccessLimit & string, string, string?]> = [
  ['rate', 'Rate (requests)'],
  ['per', 'Per (seconds)'],
  ['quota_max', 'Quota (-1: none)'],
  ['quota_renewal_rate', 'Quota period (s)'],
  ['throttle_interval', 'Throttle interval (s)', '-1: no throttling'],
  ['throttle_retry_limit', 'Throttle retries', '-1: no throttling'],
  ['max_query_depth', 'GraphQL query depth', '-1: unlimited'],
];

/**
 * The APIs a policy opens: per API its versions and, when set, limits of its own (rate, quota,
 * throttling, query depth) that replace the policy's for that API, with a counter of their own.
 */
export function PolicyAccess({
  value,
  onChange,
  policy,
  errors,
  disabled,
}: {
  value: Rights;
  onChange(value: Rights): void;
  policy: PolicyLimits;
  errors: Record<string, string>;
  disabled?: boolean;
}) {
  const apis = useApis();
  if (apis.error) return <p className="field-error">Could not list APIs: {apis.error}</p>;
  if (!apis.data) return <p aria-busy="true">Loading APIs…</p>;
  if (apis.data.length === 0) return <p>No APIs yet.</p>;
  const put = (apiId: string, right: PolicyAccessRight | undefined) => {
    const next = { ...value };
    if (right) next[apiId] = right;
    else delete next[apiId];
    onChange(next);
  };
  const general =
    errorAt(errors, 'access_rights') && !Object.keys(value).some((id) => errorAt(errors, `access_rights.${id}`))
      ? errorAt(errors, 'access_rights')
      : undefined;
  return (
    <fieldset>
      <legend>Access rights</legend>
      {general && <p className="field-error">{general}</p>}
      {apis.data.map((def) => (
        <ApiAccess
          key={def.api_id}
          def={def}
          right={value[def.api_id]}
          onChange={(right) => put(def.api_id, right)}
          policy={policy}
          error={errorAt(errors, `access_rights.${def.api_id}`)}
          disabled={disabled}
        />
      ))}
    </fieldset>
  );
}

function ApiAccess({
  def,
  right,
  onChange,
  policy,
  error,
  disabled,
}: {
  def: Definition;
  right: PolicyAccessRight | undefined;
  onChange(right: PolicyAccessRight | undefined): void;
  policy: PolicyLimits;
  error?: string;
  disabled?: boolean;
}) {
  const versions = Object.keys(def.version_data?.versions ?? { Default: {} });
  const limit = right?.limit ?? undefined;
  const ownLimit = (): AccessLimit => ({
    rate: policy.rate,
    per: policy.per,
    quota_max: policy.quota_max,
    quota_renewal_rate: policy.quota_renewal_rate,
    throttle_interval: policy.throttle_interval ?? -1,
    throttle_retry_limit: policy.throttle_retry_limit ?? -1,
    max_query_depth: policy.max_query_depth ?? -1,
  });
  return (
    <div className="access-right" data-api={def.api_id}>
      <label>
        <input
          type="checkbox"
          name={`access-${def.api_id}`}
          checked={Boolean(right)}
          disabled={disabled}
          onChange={(e: { target: HTMLInputElement }) =>
            onChange(e.target.checked ? { api_id: def.api_id, api_name: def.name, versions } : undefined)
          }
        />
        {def.name} <code>{def.proxy?.listen_path}</code>
      </label>
      {error && <p className="field-error">{error}</p>}
      {right && (
        <div className="access-detail">
          {versions.length > 1 && (
            <fieldset>
              <legend>Versions of {def.name}</legend>
              {versions.map((version) => (
                <label key={version}>
                  <input
                    type="checkbox"
                    name={`access-${def.api_id}-version-${version}`}
                    checked={right.versions.includes(version)}
                    disabled={disabled}
                    onChange={(e: { target: HTMLInputElement }) =>
                      onChange({
                        ...right,
                        versions: e.target.checked
                          ? [...right.versions, version]
                          : right.versions.filter((v) => v !== version),
                      })
                    }
                  />
                  {version}
                </label>
              ))}
              {right.versions.length === 0 && (
                <small className="field-error">Choose at least one version: keys of this policy can call none.</small>
              )}
            </fieldset>
          )}
          <Toggle
            label={`Limits of its own for ${def.name}`}
            name={`access-${def.api_id}-limit`}
            checked={Boolean(limit)}
            onChange={(on) => onChange({ ...right, limit: on ? ownLimit() : null })}
            disabled={disabled}
          />
          {limit && (
            <>
              <div className="grid">
                {LIMIT_FIELDS.map(([field, label, hint]) => (
                  <NumberField
                    key={field}
                    label={label}
                    name={`access_rights.${def.api_id}.limit.${field}`}
                    value={Number(limit[field] ?? 0)}
                    hint={hint}
                    onChange={(v) => onChange({ ...right, limit: { ...limit, [field]: v } })}
                    disabled={disabled}
                  />
                ))}
              </div>
              {!(limit.rate > 0 && limit.per > 0) && (
                <small className="field-error">
                  Rate and Per must be above 0, or the policy's own limits and quota apply to this API.
                </small>
              )}
            </>
          )}
        </div>
      )}
    </div>
  );
}
