import { useState } from 'react';
import { SelectField, TextField } from '../components/form';
import { useLoad, type Loaded } from '../components/status';
import { listPolicies, type PolicyRecord } from '../pages/PolicyPicker';
import { commaList, commaText, type MapRow } from './jwt-fields';

type Policies = Loaded<{ policies: PolicyRecord[] }>;

/** The organisation's policies, for the fields that name one; a user who may not list them types ids instead. */
export function usePolicies(key: string): Policies {
  return useLoad(listPolicies, key);
}

/** A list of strings typed as a comma list; the text is kept as typed so a trailing comma or space survives. */
export function CommaListField(props: {
  label: string;
  name: string;
  value: unknown;
  onChange(list: string[]): void;
  hint?: string;
  error?: string;
  disabled?: boolean;
}) {
  const [text, setText] = useState(() => commaText(props.value));
  return (
    <TextField
      label={props.label}
      name={props.name}
      value={text}
      onChange={(next) => {
        setText(next);
        props.onChange(commaList(next));
      }}
      hint={props.hint}
      error={props.error}
      disabled={props.disabled}
    />
  );
}

/** Checkboxes of the policies, or a comma list of ids when they cannot be listed. */
export function PolicyChoices(props: {
  legend: string;
  name: string;
  value: string[];
  onChange(ids: string[]): void;
  policies: Policies;
  error?: string;
  disabled?: boolean;
}) {
  const { policies, value, name } = props;
  if (policies.loading && !policies.data) return <p aria-busy="true">Loading policies…</p>;
  if (policies.error || !policies.data)
    return (
      <CommaListField
        label={`${props.legend} (policy ids, comma separated)`}
        name={name}
        value={value}
        onChange={props.onChange}
        hint={`Could not list policies: ${policies.error}`}
        error={props.error}
        disabled={props.disabled}
      />
    );
  const known = policies.data.policies;
  // A chosen id that is no longer listed (a deleted policy) stays visible so it can be unticked.
  const missing = value.filter((id) => !known.some((p) => p.id === id));
  return (
    <fieldset data-field={name}>
      <legend>{props.legend}</legend>
      {known.length === 0 && <small>No policies yet: create one under Policies.</small>}
      {[...known.map((p) => [p.id, p.name] as const), ...missing.map((id) => [id, `${id} (not found)`] as const)].map(
        ([id, label]) => (
          <label key={id}>
            <input
              type="checkbox"
              name={`${name}:${id}`}
              checked={value.includes(id)}
              disabled={props.disabled}
              onChange={(e: { target: HTMLInputElement }) =>
                props.onChange(e.target.checked ? [...value, id] : value.filter((v) => v !== id))
              }
            />
            {label}
          </label>
        ),
      )}
      {props.error && <small className="field-error">{props.error}</small>}
    </fieldset>
  );
}

/** One policy: a select of the listed ones, or its id typed when they cannot be listed. */
function PolicySelect(props: {
  label: string;
  name: string;
  value: string;
  onChange(id: string): void;
  policies: Policies;
  disabled?: boolean;
}) {
  const { policies, value } = props;
  if (policies.error || !policies.data)
    return (
      <TextField
        label={`${props.label} (id)`}
        name={props.name}
        value={value}
        onChange={props.onChange}
        disabled={props.disabled}
      />
    );
  const options: Array<[string, string]> = [
    ['', 'Choose a policy'],
    ...policies.data.policies.map((p) => [p.id, p.name] as [string, string]),
  ];
  if (value && !options.some(([id]) => id === value)) options.push([value, `${value} (not found)`]);
  return (
    <SelectField
      label={props.label}
      name={props.name}
      value={value}
      options={options}
      onChange={props.onChange}
      disabled={props.disabled}
    />
  );
}

/**
 * Rows of key → policy (scope → policy, client id → policy). The rows live here while they are
 * edited, so a row whose key is still empty, or equal to another's, is not lost; `onChange`
 * gets them all and the caller stores the map they make.
 */
export function PolicyMapRows(props: {
  name: string;
  keyLabel: string;
  addLabel: string;
  initial: MapRow[];
  onChange(rows: MapRow[]): void;
  policies: Policies;
  error?: string;
  disabled?: boolean;
}) {
  const [rows, setRows] = useState<MapRow[]>(props.initial);
  const change = (next: MapRow[]) => {
    setRows(next);
    props.onChange(next);
  };
  const update = (index: number, patch: Partial<MapRow>) =>
    change(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <div data-field={props.name}>
      {rows.map((row, index) => (
        <div className="grid" key={index}>
          <TextField
            label={props.keyLabel}
            name={`${props.name}[${index}].key`}
            value={row.key}
            onChange={(key) => update(index, { key })}
            disabled={props.disabled}
          />
          <PolicySelect
            label="Policy"
            name={`${props.name}[${index}].policy`}
            value={row.value}
            onChange={(value) => update(index, { value })}
            policies={props.policies}
            disabled={props.disabled}
          />
          <div>
            <button
              type="button"
              className="secondary outline small"
              disabled={props.disabled}
              onClick={() => change(rows.filter((_, i) => i !== index))}
            >
              Remove
            </button>
          </div>
        </div>
      ))}
      {props.error && <small className="field-error">{props.error}</small>}
      {!props.disabled && (
        <button type="button" className="outline small" onClick={() => change([...rows, { key: '', value: '' }])}>
          {props.addLabel}
        </button>
      )}
    </div>
  );
}
