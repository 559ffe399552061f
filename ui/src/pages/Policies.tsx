import { useEffect, useState } from 'react';
import { ApiError, del, get, messageOf, post, put, type Envelope } from '../api';
import { NumberField, TextField, Toggle } from '../components/form';
import { ErrorBox, Loading, Notice, Show, useLoad } from '../components/status';
import { navigate } from '../router';
import { useSession } from '../session';
import { PolicyAccess } from './PolicyAccess';
import { listPolicies, type PolicyRecord } from './PolicyPicker';

/** Policies: the list, or one policy's editor (`#/policies/<id>`, `#/policies/new`). */
export function Policies({ id }: { id?: string }) {
  return id ? <PolicyEditor id={id} /> : <PolicyList />;
}

function PolicyList() {
  const { can } = useSession();
  const loaded = useLoad(listPolicies, 'policies');
  return (
    <section>
      <div className="page-head">
        <h1>Policies</h1>
        {can('policies', 'write') && (
          <button type="button" onClick={() => navigate('/policies/new')}>
            Create policy
          </button>
        )}
      </div>
      <Show loaded={loaded} what="policies">
        {({ policies }) =>
          policies.length === 0 ? (
            <p>No policies yet. A policy sets limits and access rights that many keys share.</p>
          ) : (
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Rate</th>
                  <th scope="col">Quota</th>
                  <th scope="col">APIs</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {policies.map((p) => (
                  <tr key={p.id}>
                    <td>
                      <a href={`#/policies/${p.id}`}>{p.name}</a>
                    </td>
                    <td>
                      {p.rate} per {p.per}s
                    </td>
                    <td>{p.quota_max < 0 ? 'unlimited' : `${p.quota_max} per ${p.quota_renewal_rate}s`}</td>
                    <td>
                      {Object.values(p.access_rights ?? {})
                        .map((r) => r.api_name)
                        .join(', ')}
                    </td>
                    <td>
                      {p.active ? (
                        <span className="badge ok">Active</span>
                      ) : (
                        <span className="badge off">Inactive</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
    </section>
  );
}

const NEW_POLICY: PolicyRecord = {
  id: '',
  name: '',
  rate: 100,
  per: 60,
  quota_max: -1,
  quota_renewal_rate: 3600,
  active: true,
  access_rights: {},
};

function PolicyEditor({ id }: { id: string }) {
  const { can } = useSession();
  const writable = can('policies', 'write');
  const creating = id === 'new';
  const [policy, setPolicy] = useState<PolicyRecord | undefined>(creating ? NEW_POLICY : undefined);
  const [error, setError] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState('');
  useEffect(() => {
    if (!creating)
      get<PolicyRecord>(`/portal/policies/${encodeURIComponent(id)}`).then(setPolicy, (err) =>
        setError(messageOf(err)),
      );
  }, [id, creating]);
  if (!policy) return error ? <ErrorBox error={error} /> : <Loading what="the policy" />;
  const set = (field: keyof PolicyRecord, value: unknown) => setPolicy({ ...policy, [field]: value });
  const save = async () => {
    setError('');
    setErrors({});
    try {
      const { id: _id, ...body } = policy;
      if (creating) navigate(`/policies/${(await post<Envelope<string>>('/portal/policies', body)).Meta}`);
      else await put(`/portal/policies/${encodeURIComponent(id)}`, body);
      setNotice('Policy saved.');
    } catch (err) {
      setError(messageOf(err));
      if (err instanceof ApiError) setErrors(policyErrors(err));
    }
  };
  const remove = async () => {
    if (!window.confirm(`Delete the policy “${policy.name}”?`)) return;
    try {
      await del(`/portal/policies/${encodeURIComponent(id)}`);
      navigate('/policies');
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <section>
      <div className="page-head">
        <h1>{creating ? 'New policy' : policy.name}</h1>
        <div className="actions">
          <a href="#/policies" role="button" className="secondary outline">
            Back to policies
          </a>
          {writable && !creating && (
            <button type="button" className="secondary" onClick={remove}>
              Delete
            </button>
          )}
          {writable && (
            <button type="button" onClick={save}>
              {creating ? 'Create policy' : 'Save'}
            </button>
          )}
        </div>
      </div>
      <Notice text={notice} />
      {error && <ErrorBox error={error} />}
      <TextField
        label="Name"
        name="name"
        value={policy.name}
        error={errors.name}
        onChange={(v) => set('name', v)}
        disabled={!writable}
      />
      <div className="grid">
        <NumberField
          label="Rate (requests)"
          name="rate"
          value={policy.rate}
          error={errors.rate}
          onChange={(v) => set('rate', v)}
          disabled={!writable}
        />
        <NumberField
          label="Per (seconds)"
          name="per"
          value={policy.per}
          error={errors.per}
          onChange={(v) => set('per', v)}
          disabled={!writable}
        />
        <NumberField
          label="Quota (-1: none)"
          name="quota_max"
          value={policy.quota_max}
          error={errors.quota_max}
          onChange={(v) => set('quota_max', v)}
          disabled={!writable}
        />
        <NumberField
          label="Quota period (s)"
          name="quota_renewal_rate"
          value={policy.quota_renewal_rate}
          error={errors.quota_renewal_rate}
          onChange={(v) => set('quota_renewal_rate', v)}
          disabled={!writable}
        />
      </div>
      <Toggle
        label="Active"
        name="active"
        checked={policy.active}
        onChange={(v) => set('active', v)}
        disabled={!writable}
      />
      <PolicyAccess
        value={policy.access_rights}
        onChange={(v) => set('access_rights', v)}
        policy={policy}
        errors={errors}
        disabled={!writable}
      />
    </section>
  );
}

/** Fields a refusal names: quoted by the validator ("The 'policy.rate' field …"), or leading the message ("access_rights.<api id>.api_id must be …"). */
function policyErrors(err: ApiError): Record<string, string> {
  const fields = err.fields('policy.');
  const led = /^(access_rights(?:\.[A-Za-z0-9._~-]+?)?)(?::| )/.exec(err.message);
  if (led && Object.keys(fields).length === 0) fields[led[1]] = err.message;
  return fields;
}
