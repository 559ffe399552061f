import { useState } from 'react';
import { adminRequest } from '../admin-api';
import { ApiError, get, messageOf } from '../api';
import { NumberField, TextField, Toggle } from '../components/form';
import { ErrorBox, Notice, Show, useLoad } from '../components/status';

/** The organisation session's fields this page shows and sets (docs/limits.md#organisation-quotas). */
interface OrgLimitsValues {
  rate?: number;
  per?: number;
  quota_max?: number;
  quota_renewal_rate?: number;
  is_inactive?: boolean;
  quota_remaining?: number;
  quota_renews?: number;
}

/**
 * The organisation's shared rate limit and quota, and whether it is cut off. Administrators of
 * the organisation see them; only the node's administrator changes them, with the admin secret
 * (sent to the admin API with that one request, kept in this component's state only).
 */
export function OrgLimits({ orgId }: { orgId: string }) {
  const loaded = useLoad(
    () =>
      get<OrgLimitsValues>('/org/session').catch((err: unknown) =>
        err instanceof ApiError && err.status === 404 ? {} : Promise.reject(err),
      ),
    'org-session',
  );
  return (
    <Show loaded={loaded} what="organisation limits">
      {(values) => <OrgLimitsForm orgId={orgId} initial={values} onSaved={loaded.reload} />}
    </Show>
  );
}

function OrgLimitsForm(props: { orgId: string; initial: OrgLimitsValues; onSaved(): void }) {
  const { initial } = props;
  const [values, setValues] = useState<OrgLimitsValues>({
    rate: initial.rate ?? 0,
    per: initial.per ?? 0,
    quota_max: initial.quota_max ?? -1,
    quota_renewal_rate: initial.quota_renewal_rate ?? 3600,
    is_inactive: initial.is_inactive === true,
  });
  const [resetQuota, setResetQuota] = useState(false);
  const [secret, setSecret] = useState('');
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const set = (field: keyof OrgLimitsValues) => (value: number | boolean) => setValues({ ...values, [field]: value });
  const save = async () => {
    setError('');
    setNotice('');
    try {
      const path = `/organisations/${encodeURIComponent(props.orgId)}/session${resetQuota ? '?reset_quota=1' : ''}`;
      await adminRequest('PUT', path, secret, values);
      setNotice('Organisation limits saved.');
      setResetQuota(false);
      props.onSaved();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const quotaShown = typeof initial.quota_remaining === 'number';
  return (
    <article>
      <h2>Organisation limits</h2>
      <p>
        A rate limit and a quota every key of the organisation shares, enforced before authentication when the gateway
        runs with <code>GW_ENFORCE_ORG_QUOTAS=true</code>. An inactive organisation is refused on every API.
        {quotaShown && ` Quota left: ${initial.quota_remaining}.`}
      </p>
      <NumberField
        label="Rate (requests)"
        name="rate"
        value={values.rate}
        onChange={set('rate')}
        hint="0: no rate limit"
      />
      <NumberField label="Per (seconds)" name="per" value={values.per} onChange={set('per')} />
      <NumberField
        label="Quota (requests)"
        name="quota_max"
        value={values.quota_max}
        onChange={set('quota_max')}
        hint="-1 or 0: no quota"
      />
      <NumberField
        label="Quota renews every (seconds)"
        name="quota_renewal_rate"
        value={values.quota_renewal_rate}
        onChange={set('quota_renewal_rate')}
      />
      <Toggle
        label="Inactive: refuse every request of this organisation"
        name="is_inactive"
        checked={values.is_inactive === true}
        onChange={set('is_inactive')}
      />
      <Toggle label="Reset the quota now" name="reset_quota" checked={resetQuota} onChange={setResetQuota} />
      <TextField
        label="Admin secret"
        type="password"
        autoComplete="off"
        name="admin_secret"
        value={secret}
        onChange={setSecret}
        hint="Only the node's administrator changes these limits. Sent to the admin API only; the browser does not keep it."
      />
      <Notice text={notice} />
      {error && <ErrorBox error={error} />}
      <button type="button" onClick={save} disabled={secret === ''}>
        Save limits
      </button>
    </article>
  );
}
