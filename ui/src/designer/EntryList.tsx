import { useState } from 'react';
import { Field, NumberField, SelectField, TextField, Toggle } from '../components/form';
import { at, setAt } from '../definition';
import { unshownErrors } from './errors';
import { fromBase64, toBase64 } from './base64';
import { METHODS, type Entry, type EntryField, type ListSpec } from './endpoint-lists';

interface Props {
  spec: ListSpec;
  entries: Entry[];
  onChange(entries: Entry[]): void;
  /** field path of the list in the definition (`version_data.versions.v2.extended_paths.transform`), which server errors name */
  errorPath: string;
  errors: Record<string, string>;
  readOnly: boolean;
}

/** One `extended_paths` list: an entry per row, its fields as the spec says; fields the designer does not know are kept. */
export function EntryList({ spec, entries, onChange, errorPath, errors, readOnly }: Props) {
  const change = (index: number, key: string, value: unknown) =>
    onChange(entries.map((entry, i) => (i === index ? setAt(entry, key, value) : entry)));
  return (
    <fieldset data-list={spec.list}>
      <legend>{spec.title}</legend>
      <p>
        <small>{spec.about}</small>
      </p>
      {entries.map((entry, index) => {
        const prefix = `${errorPath}[${index}]`;
        const fieldPaths = new Set(spec.fields.map((f) => `${prefix}.${f.key}`));
        const input = (field: EntryField) => (
          <EntryInput
            key={field.key}
            field={field}
            entry={entry}
            name={`${prefix}.${field.key}`}
            error={errors[`${prefix}.${field.key}`]}
            onChange={(v) => change(index, field.key, v)}
            readOnly={readOnly}
          />
        );
        const other = unshownErrors(errors, `${prefix}.`, (path) => fieldPaths.has(path)).concat(errors[prefix] ?? []);
        return (
          <div className="entry" key={index} data-entry={index}>
            {other.map((message) => (
              <p className="field-error" key={message}>
                {message}
              </p>
            ))}
            <div className="grid rule">
              {spec.fields.filter((field) => field.kind !== 'template').map(input)}
              {!readOnly && (
                <div className="inline-actions">
                  <button
                    type="button"
                    className="secondary outline small"
                    onClick={() => onChange(entries.filter((_, i) => i !== index))}
                  >
                    Remove
                  </button>
                </div>
              )}
            </div>
            {/* Templates get the full width: they are code, not a short value. */}
            {spec.fields.filter((field) => field.kind === 'template').map(input)}
          </div>
        );
      })}
      {!readOnly && (
        <button type="button" className="outline" onClick={() => onChange([...entries, spec.fresh()])}>
          {spec.add}
        </button>
      )}
    </fieldset>
  );
}

interface InputProps {
  field: EntryField;
  entry: Entry;
  error?: string;
  onChange(value: unknown): void;
  readOnly: boolean;
  /** the field's path in the definition, as server errors name it (and tests find it) */
  name: string;
}

function EntryInput({ field, entry, error, onChange, readOnly, name }: InputProps) {
  const value = at(entry, field.key);
  switch (field.kind) {
    case 'number':
      return (
        <NumberField
          label={field.label}
          name={name}
          value={Number(value ?? 0)}
          onChange={onChange}
          error={error}
          hint={field.hint}
          disabled={readOnly}
        />
      );
    case 'toggle':
      return (
        <Toggle label={field.label} name={name} checked={value === true} onChange={onChange} disabled={readOnly} />
      );
    case 'method':
      return (
        <SelectField
          label={field.label}
          name={name}
          value={String(value || 'GET')}
          options={METHODS}
          onChange={onChange}
          error={error}
          disabled={readOnly}
        />
      );
    case 'select':
      return (
        <SelectField
          label={field.label}
          name={name}
          value={String(value ?? field.options![0][0])}
          options={field.options!}
          onChange={onChange}
          error={error}
          disabled={readOnly}
        />
      );
    case 'template':
      return (
        <Field label={field.label} name={name} error={error} hint={field.hint}>
          {(a) => (
            <textarea
              {...a}
              className="code"
              rows={4}
              spellCheck={false}
              value={fromBase64(String(value ?? ''))}
              readOnly={readOnly}
              onChange={(e: { target: HTMLTextAreaElement }) => onChange(toBase64(e.target.value))}
            />
          )}
        </Field>
      );
    case 'headers':
      return (
        <LooseText
          label={field.label}
          name={name}
          value={value}
          parse={parseHeaders}
          format={formatHeaders}
          onChange={onChange}
          error={error}
          hint={field.hint}
          readOnly={readOnly}
          rows={3}
        />
      );
    case 'names':
      return (
        <LooseText
          label={field.label}
          name={name}
          value={value}
          parse={parseNames}
          format={formatNames}
          onChange={onChange}
          error={error}
          hint={field.hint}
          readOnly={readOnly}
        />
      );
    default:
      return (
        <TextField
          label={field.label}
          name={name}
          value={String(value ?? '')}
          onChange={onChange}
          error={error}
          hint={field.hint}
          disabled={readOnly}
        />
      );
  }
}

/**
 * Text the user types freely (a half-typed "X-Name" line) that becomes a structured value: the
 * text is kept while it still means the value, and redrawn when the value changed elsewhere.
 */
function LooseText(props: {
  label: string;
  name: string;
  value: unknown;
  parse(text: string): unknown;
  format(value: unknown): string;
  onChange(value: unknown): void;
  error?: string;
  hint?: string;
  readOnly: boolean;
  rows?: number;
}) {
  const { value, parse, format } = props;
  const [text, setText] = useState(() => format(value));
  // When the value changed elsewhere, redraw the text (during render, React's pattern for state
  // that follows a prop).
  const valueKey = JSON.stringify(value);
  const [drawnFor, setDrawnFor] = useState(valueKey);
  if (valueKey !== drawnFor) {
    setDrawnFor(valueKey);
    if (JSON.stringify(parse(text)) !== JSON.stringify(parse(format(value)))) setText(format(value));
  }
  const edit = (next: string) => {
    setText(next);
    props.onChange(parse(next));
  };
  return (
    <Field label={props.label} name={props.name} error={props.error} hint={props.hint}>
      {(a) =>
        props.rows ? (
          <textarea
            {...a}
            rows={props.rows}
            spellCheck={false}
            value={text}
            readOnly={props.readOnly}
            onChange={(e: { target: HTMLTextAreaElement }) => edit(e.target.value)}
          />
        ) : (
          <input
            {...a}
            value={text}
            disabled={props.readOnly}
            onChange={(e: { target: HTMLInputElement }) => edit(e.target.value)}
          />
        )
      }
    </Field>
  );
}

function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim();
    if (name !== '') headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

function formatHeaders(value: unknown): string {
  return Object.entries((value ?? {}) as Record<string, unknown>)
    .map(([name, v]) => `${name}: ${String(v)}`)
    .join('\n');
}

function parseNames(text: string): string[] {
  return text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

function formatNames(value: unknown): string {
  return Array.isArray(value) ? value.join(', ') : '';
}
