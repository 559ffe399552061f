import { get } from '../api';
import { useLoad } from '../components/status';

export interface PolicyRecord {
  id: string;
  name: string;
  rate: number;
  per: number;
  quota_max: number;
  quota_renewal_rate: number;
  active: boolean;
  access_rights: Record<string, { api_id: string; api_name: string; versions: string[] }>;
  [field: string]: unknown;
}

export const listPolicies = () => get<{ policies: PolicyRecord[]; pages: number }>('/portal/policies?p=0');

type Rights = PolicyRecord['access_rights'];

/**
 * Checkboxes of the organisation's policies. `onChange` also gets the chosen policies' access
 * rights together: a key must name the APIs it opens even when its policies decide the limits.
 */
export function PolicyPicker({
  value,
  onChange,
}: {
  value: string[];
  onChange(value: string[], rights: Rights): void;
}) {
  const policies = useLoad(listPolicies, 'policies');
  if (policies.error) return <p className="field-error">Could not list policies: {policies.error}</p>;
  if (!policies.data) return <p aria-busy="true">Loading policies…</p>;
  if (policies.data.policies.length === 0)
    return <p>No policies yet: create one under Policies, or set the key's own limits.</p>;
  return (
    <fieldset>
      <legend>Policies</legend>
      {policies.data.policies.map((policy) => (
        <label key={policy.id}>
          <input
            type="checkbox"
            name={`policy-${policy.id}`}
            checked={value.includes(policy.id)}
            onChange={(e: { target: HTMLInputElement }) => {
              const ids = e.target.checked ? [...value, policy.id] : value.filter((id) => id !== policy.id);
              const chosen = policies.data?.policies.filter((p) => ids.includes(p.id)) ?? [];
              onChange(ids, Object.assign({}, ...chosen.map((p) => p.access_rights ?? {})) as Rights);
            }}
          />
          {policy.name} ({policy.rate} requests per {policy.per} s)
        </label>
      ))}
    </fieldset>
  );
}
