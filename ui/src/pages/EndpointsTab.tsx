import { Field, SelectField, TextField } from '../components/form';
import type { Definition } from '../definition';
import type { EditorProps } from './ApiDesigner';

const LISTS: Array<[string, string]> = [
  ['white_list', 'Allow (only listed paths pass)'],
  ['black_list', 'Block'],
  ['ignored', 'Ignore authentication'],
];
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'].map((m) => [m, m] as [string, string]);

interface Rule {
  list: string;
  path: string;
  method: string;
  action: 'no_action' | 'reply';
  code: number;
  data: string;
}

interface MethodAction {
  action?: string;
  code?: number;
  data?: string;
  headers?: Record<string, string>;
}

/** The version the designer edits: the default one, or the first. */
function versionName(def: Definition): string {
  const versions = Object.keys(def.version_data?.versions ?? {});
  return def.version_data?.default_version && versions.includes(def.version_data.default_version) ? def.version_data.default_version : (versions[0] ?? 'Default');
}

function rulesOf(def: Definition, version: string): Rule[] {
  const paths = def.version_data?.versions?.[version]?.extended_paths ?? {};
  const rules: Rule[] = [];
  for (const [list] of LISTS) {
    for (const entry of (paths[list] ?? []) as Array<{ path: string; method_actions?: Record<string, MethodAction> }>) {
      for (const [method, action] of Object.entries(entry.method_actions ?? { GET: {} })) {
        rules.push({ list, path: entry.path, method, action: action.action === 'reply' ? 'reply' : 'no_action', code: action.code ?? 200, data: action.data ?? '' });
      }
    }
  }
  return rules;
}

/** Writes the rules back as extended_paths lists, one entry per path with its methods' actions. */
function withRules(def: Definition, version: string, rules: Rule[]): Definition {
  const current = def.version_data?.versions?.[version] ?? { name: version };
  const extended: Definition = { ...(current.extended_paths ?? {}) };
  for (const [list] of LISTS) {
    const byPath = new Map<string, Record<string, MethodAction>>();
    for (const rule of rules.filter((r) => r.list === list)) {
      const actions = byPath.get(rule.path) ?? {};
      actions[rule.method] = rule.action === 'reply' ? { action: 'reply', code: rule.code, data: rule.data, headers: {} } : { action: 'no_action' };
      byPath.set(rule.path, actions);
    }
    if (byPath.size > 0) extended[list] = [...byPath].map(([path, method_actions]) => ({ path, method_actions }));
    else delete extended[list];
  }
  const versions = { ...(def.version_data?.versions ?? {}), [version]: { ...current, use_extended_paths: true, extended_paths: extended } };
  return { ...def, version_data: { ...(def.version_data ?? {}), versions } };
}

/** Endpoint rules of the default version: allow, block or ignore a path and method, or reply without the upstream. */
export function EndpointsTab({ def, replace, errors, readOnly }: EditorProps & { replace(def: Definition): void }) {
  const version = versionName(def);
  const rules = rulesOf(def, version);
  const update = (next: Rule[]) => replace(withRules(def, version, next));
  const change = (index: number, patch: Partial<Rule>) => update(rules.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const problem = Object.entries(errors).find(([path]) => path.startsWith('version_data'))?.[1];
  return (
    <fieldset>
      <legend>
        Endpoint rules of version <code>{version}</code>
      </legend>
      {problem && <p className="field-error">{problem}</p>}
      {rules.length === 0 && <p>No endpoint rules: every path is proxied.</p>}
      {rules.map((rule, index) => (
        <div className="grid rule" key={index}>
          <SelectField label="Rule" value={rule.list} options={LISTS} onChange={(list) => change(index, { list })} disabled={readOnly} />
          <TextField label="Path" value={rule.path} onChange={(path) => change(index, { path })} hint="e.g. /users/{id}" disabled={readOnly} />
          <SelectField label="Method" value={rule.method} options={METHODS} onChange={(method) => change(index, { method })} disabled={readOnly} />
          <SelectField
            label="Action"
            value={rule.action}
            options={[
              ['no_action', 'Proxy'],
              ['reply', 'Reply without the upstream'],
            ]}
            onChange={(action) => change(index, { action: action as Rule['action'] })}
            disabled={readOnly}
          />
          {rule.action === 'reply' && (
            <>
              <TextField label="Status" type="number" value={String(rule.code)} onChange={(code) => change(index, { code: Number(code) })} disabled={readOnly} />
              <Field label="Body">{(a) => <input {...a} value={rule.data} disabled={readOnly} onChange={(e: { target: HTMLInputElement }) => change(index, { data: e.target.value })} />}</Field>
            </>
          )}
          {!readOnly && (
            <div className="inline-actions">
              <button type="button" className="secondary outline small" onClick={() => update(rules.filter((_, i) => i !== index))}>
                Remove
              </button>
            </div>
          )}
        </div>
      ))}
      {!readOnly && (
        <button type="button" className="outline" onClick={() => update([...rules, { list: 'black_list', path: '/', method: 'GET', action: 'no_action', code: 200, data: '' }])}>
          Add a rule
        </button>
      )}
    </fieldset>
  );
}
