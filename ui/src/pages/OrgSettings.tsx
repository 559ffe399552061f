import { useState } from 'react';
import { get, messageOf, put } from '../api';
import { Field } from '../components/form';
import { ErrorBox, Notice, Show, useLoad } from '../components/status';

interface OpenPolicy {
  rules?: string;
  enabled?: boolean;
  [field: string]: unknown;
}

/** Organisation settings for administrators: additional permissions and policy-engine rules. */
export function OrgSettings() {
  const permissions = useLoad(() => get<{ additional_permissions: Record<string, string> }>('/org/permissions'), 'perms');
  const opa = useLoad(() => get<{ open_policy: OpenPolicy }>('/org/opa'), 'opa');
  return (
    <section>
      <h1>Organisation</h1>
      <article>
        <h2>Additional permissions</h2>
        <Show loaded={permissions} what="permissions">
          {({ additional_permissions }) =>
            Object.keys(additional_permissions ?? {}).length === 0 ? (
              <p>None.</p>
            ) : (
              <ul>
                {Object.entries(additional_permissions).map(([id, label]) => (
                  <li key={id}>
                    <code>{id}</code>: {label}
                  </li>
                ))}
              </ul>
            )
          }
        </Show>
      </article>
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
        {(a) => <textarea {...a} className="code" rows={14} spellCheck={false} value={rules} onChange={(e: { target: HTMLTextAreaElement }) => setRules(e.target.value)} />}
      </Field>
      <Notice text={notice} />
      {error && <ErrorBox error={error} />}
      <button type="button" onClick={save}>
        Save rules
      </button>
    </article>
  );
}
