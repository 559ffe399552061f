import { useState } from 'react';
import { get, messageOf, put } from '../api';
import { Field } from '../components/form';
import { ErrorBox, Notice, Show, useLoad } from '../components/status';
import { useSession } from '../session';
import { OrgLimits } from './OrgLimits';

interface OpenPolicy {
  rules?: string;
  enabled?: boolean;
  [field: string]: unknown;
}

/** Organisation settings for administrators: limits, additional permissions and policy-engine rules. */
export function OrgSettings() {
  const permissions = useLoad(
    () => get<{ additional_permissions: Record<string, string> }>('/org/permissions'),
    'perms',
  );
  const opa = useLoad(() => get<{ open_policy: OpenPolicy }>('/org/opa'), 'opa');
  const { me } = useSession();
  return (
    <section>
      <h1>Organisation</h1>
      <OrgLimits orgId={me.org.id} />
      <Show loaded={permissions} what="permissions">
        {({ additional_permissions }) => <AdditionalPermissions initial={additional_permissions ?? {}} />}
      </Show>
      <Show loaded={opa} what="policy-engine rules">
        {({ open_policy }) => <RulesEditor initial={open_policy ?? {}} />}
      </Show>
    </section>
  );
}

function RulesEditor({ initial }: { initial: OpenPolicy }) {
  const [rules, setRules] = useState(String(initial.rules ?? ''));
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const save = async () => {
    setError('');
    setNotice('');
    try {
      // The server checks the rules' syntax on save; its message names the line.
      await put('/org/opa', { open_policy: { ...initial, rules } });
      setNotice('Rules saved.');
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <article>
      <h2>Policy-engine rules</h2>
      <Field label="Rules" error={error} hint="Checked by the server when you save.">
        {(a) => (
          <textarea
            {...a}
            className="code"
            rows={14}
            spellCheck={false}
            value={rules}
            onChange={(e: { target: HTMLTextAreaElement }) => setRules(e.target.value)}
          />
        )}
      </Field>
      <Notice text={notice} />
      {error && <ErrorBox error={error} />}
      <button type="button" onClick={save}>
        Save rules
      </button>
    </article>
  );
}

/** Permissions of the organisation's own (id → label), which policy-engine rules can check. */
function AdditionalPermissions({ initial }: { initial: Record<string, string> }) {
  const [rows, setRows] = useState<Array<[string, string]>>(Object.entries(initial));
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const change = (index: number, row: [string, string]) => setRows(rows.map((r, i) => (i === index ? row : r)));
  const save = async () => {
    setError('');
    setNotice('');
    try {
      await put('/org/permissions', {
        additional_permissions: Object.fromEntries(rows.filter(([id]) => id.trim() !== '')),
      });
      setNotice('Additional permissions saved.');
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <article>
      <h2>Additional permissions</h2>
      {rows.length === 0 && <p>None yet. Add permissions of your own for policy-engine rules to check.</p>}
      {rows.map(([id, label], index) => (
        <div className="grid" key={index}>
          <Field label="Permission id">
            {(a) => (
              <input
                {...a}
                value={id}
                onChange={(e: { target: HTMLInputElement }) => change(index, [e.target.value, label])}
              />
            )}
          </Field>
          <Field label="Label">
            {(a) => (
              <input
                {...a}
                value={label}
                onChange={(e: { target: HTMLInputElement }) => change(index, [id, e.target.value])}
              />
            )}
          </Field>
          <div className="inline-actions">
            <button
              type="button"
              className="secondary outline small"
              onClick={() => setRows(rows.filter((_, i) => i !== index))}
            >
              Remove
            </button>
          </div>
        </div>
      ))}
      <Notice text={notice} />
      {error && <ErrorBox error={error} />}
      <div className="inline-actions">
        <button type="button" className="outline" onClick={() => setRows([...rows, ['', '']])}>
          Add a permission
        </button>
        <button type="button" onClick={save}>
          Save permissions
        </button>
      </div>
    </article>
  );
}
