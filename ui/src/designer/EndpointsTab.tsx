import { Field, SelectField, TextField } from '../components/form';
import type { Definition } from '../definition';
import type { EditorProps } from '../pages/ApiDesigner';
import { ENDPOINT_LISTS, METHODS, type Entry } from './endpoint-lists';
import { EntryList } from './EntryList';
import { unshownErrors } from './errors';
import { versionNames, versionsOf, withVersion } from './versions';

const LISTS: Array<[string, string]> = [
  ['white_list', 'Allow (only listed paths pass)'],
  ['black_list', 'Block'],
  ['ignored', 'Ignore authentication'],
];

interface Rule {
  list: string;
  /** index of the rule's entry in its list, which server errors name */
  entry: number;
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

function rulesOf(extended: Definition): Rule[] {
  const rules: Rule[] = [];
  for (const [list] of LISTS) {
    ((extended[list] ?? []) as Array<{ path: string; method_actions?: Record<string, MethodAction> }>).forEach(
      (entry, index) => {
        for (const [method, action] of Object.entries(entry.method_actions ?? { GET: {} })) {
          rules.push({
            list,
            entry: index,
            path: entry.path,
            method,
            action: action.action === 'reply' ? 'reply' : 'no_action',
            code: action.code ?? 200,
            data: action.data ?? '',
          });
        }
      },
    );
  }
  return rules;
}

/** Writes the rules back as extended_paths lists, one entry per path with its methods' actions. */
function withRules(extended: Definition, rules: Rule[]): Definition {
  const next: Definition = { ...extended };
  for (const [list] of LISTS) {
    const byPath = new Map<string, Record<string, MethodAction>>();
    for (const rule of rules.filter((r) => r.list === list)) {
      const actions = byPath.get(rule.path) ?? {};
      actions[rule.method] =
        rule.action === 'reply'
          ? { action: 'reply', code: rule.code, data: rule.data, headers: {} }
          : { action: 'no_action' };
      byPath.set(rule.path, actions);
    }
    if (byPath.size > 0) next[list] = [...byPath].map(([path, method_actions]) => ({ path, method_actions }));
    else delete next[list];
  }
  return next;
}

interface Props extends EditorProps {
  replace(def: Definition): void;
  /** the version whose rules show */
  version: string;
  onVersion(version: string): void;
}

/** Endpoint rules of one version: allow, block or ignore, reply without the upstream, transforms, rewrites and per-endpoint limits. */
export function EndpointsTab({ def, replace, errors, readOnly, version, onVersion }: Props) {
  const names = versionNames(def);
  const current = versionsOf(def)[version] ?? { name: version };
  const extended: Definition = current.extended_paths ?? {};
  const base = `version_data.versions.${version}`;
  const updateExtended = (next: Definition) =>
    replace(withVersion(def, version, { ...current, use_extended_paths: true, extended_paths: next }));
  const shownLists = new Set([...LISTS.map(([list]) => list), ...ENDPOINT_LISTS.map((spec) => spec.list)]);
  const elsewhere = unshownErrors(errors, `${base}.`, (path) => {
    const list = /^version_data\.versions\..+?\.extended_paths\.([a-z_]+)\[/.exec(path)?.[1];
    return list !== undefined && shownLists.has(list);
  });
  return (
    <>
      {names.length > 1 && (
        <SelectField
          label="Version"
          name="rules-version"
          value={version}
          options={names.map((n) => [n, n])}
          onChange={onVersion}
        />
      )}
      {elsewhere.map((message) => (
        <p className="field-error" key={message}>
          {message}
        </p>
      ))}
      <AccessRules
        rules={rulesOf(extended)}
        onChange={(rules) => updateExtended(withRules(extended, rules))}
        version={version}
        errorBase={`${base}.extended_paths`}
        errors={errors}
        readOnly={readOnly}
      />
      {ENDPOINT_LISTS.map((spec) => (
        <EntryList
          key={`${version}/${spec.list}`}
          spec={spec}
          entries={(extended[spec.list] ?? []) as Entry[]}
          onChange={(entries) => {
            const next = { ...extended, [spec.list]: entries };
            if (entries.length === 0) delete next[spec.list];
            updateExtended(next);
          }}
          errorPath={`${base}.extended_paths.${spec.list}`}
          errors={errors}
          readOnly={readOnly}
        />
      ))}
    </>
  );
}

function AccessRules({
  rules,
  onChange,
  version,
  errorBase,
  errors,
  readOnly,
}: {
  rules: Rule[];
  onChange(rules: Rule[]): void;
  version: string;
  errorBase: string;
  errors: Record<string, string>;
  readOnly: boolean;
}) {
  const change = (index: number, patch: Partial<Rule>) =>
    onChange(rules.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  const entryErrors = (rule: Rule) => {
    const prefix = `${errorBase}.${rule.list}[${rule.entry}]`;
    return Object.entries(errors)
      .filter(([path]) => path === prefix || path.startsWith(`${prefix}.`))
      .map(([, message]) => message)
      .join(' ');
  };
  return (
    <fieldset data-list="access">
      <legend>
        Allow, block and ignore in version <code>{version}</code>
      </legend>
      {rules.length === 0 && <p>No endpoint rules: every path is proxied.</p>}
      {rules.map((rule, index) => (
        <div className="grid rule" key={index}>
          <SelectField
            label="Rule"
            value={rule.list}
            options={LISTS}
            onChange={(list) => change(index, { list })}
            disabled={readOnly}
          />
          <TextField
            label="Path"
            name={`${errorBase}.${rule.list}[${rule.entry}].path`}
            value={rule.path}
            onChange={(path) => change(index, { path })}
            error={entryErrors(rule) || undefined}
            hint="e.g. /users/{id}"
            disabled={readOnly}
          />
          <SelectField
            label="Method"
            value={rule.method}
            options={METHODS}
            onChange={(method) => change(index, { method })}
            disabled={readOnly}
          />
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
              <TextField
                label="Status"
                type="number"
                value={String(rule.code)}
                onChange={(code) => change(index, { code: Number(code) })}
                disabled={readOnly}
              />
              <Field label="Body">
                {(a) => (
                  <input
                    {...a}
                    value={rule.data}
                    disabled={readOnly}
                    onChange={(e: { target: HTMLInputElement }) => change(index, { data: e.target.value })}
                  />
                )}
              </Field>
            </>
          )}
          {!readOnly && (
            <div className="inline-actions">
              <button
                type="button"
                className="secondary outline small"
                onClick={() => onChange(rules.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            </div>
          )}
        </div>
      ))}
      {!readOnly && (
        <button
          type="button"
          className="outline"
          onClick={() =>
            onChange([
              ...rules,
              {
                list: 'black_list',
                entry: rules.filter((r) => r.list === 'black_list').length,
                path: '/',
                method: 'GET',
                action: 'no_action',
                code: 200,
                data: '',
              },
            ])
          }
        >
          Add a rule
        </button>
      )}
    </fieldset>
  );
}
