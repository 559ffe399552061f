import { useId, useState, type ReactNode } from 'react';

interface FieldProps {
  label: string;
  /** the server's complaint about this field, shown under it */
  error?: string;
  hint?: string;
  name?: string;
  children: (props: { id: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string; name?: string }) => ReactNode;
}

/** A labelled control with its hint and, when the server refused it, its error. */
export function Field({ label, error, hint, name, children }: FieldProps) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <label htmlFor={id} data-field={name}>
      {label}
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy, name })}
      {error ? (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      ) : hint ? (
        <small id={`${id}-hint`}>{hint}</small>
      ) : null}
    </label>
  );
}

export function TextField(props: {
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  hint?: string;
  name?: string;
  type?: string;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  autoComplete?: string;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint} name={props.name}>
      {(a) => (
        <input
          {...a}
          type={props.type ?? 'text'}
          value={props.value}
          placeholder={props.placeholder}
          autoComplete={props.autoComplete}
          required={props.required}
          disabled={props.disabled}
          onChange={(e: { target: HTMLInputElement }) => props.onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

export function NumberField(props: {
  label: string;
  value: number | undefined;
  onChange(value: number): void;
  error?: string;
  hint?: string;
  name?: string;
  disabled?: boolean;
}) {
  return (
    <Field label={props.label} error={props.error} hint={props.hint} name={props.name}>
      {(a) => (
        <input
          {...a}
          type="number"
          value={props.value ?? 0}
          disabled={props.disabled}
          onChange={(e: { target: HTMLInputElement }) =>
            props.onChange(e.target.value === '' ? 0 : Number(e.target.value))
          }
        />
      )}
    </Field>
  );
}

export function Toggle(props: {
  label: string;
  checked: boolean;
  onChange(value: boolean): void;
  name?: string;
  disabled?: boolean;
}) {
  return (
    <label data-field={props.name}>
      <input
        type="checkbox"
        role="switch"
        checked={props.checked}
        disabled={props.disabled}
        onChange={(e: { target: HTMLInputElement }) => props.onChange(e.target.checked)}
      />
      {props.label}
    </label>
  );
}

export function SelectField(props: {
  label: string;
  value: string;
  options: Array<[string, string]>;
  onChange(value: string): void;
  error?: string;
  name?: string;
  disabled?: boolean;
}) {
  return (
    <Field label={props.label} error={props.error} name={props.name}>
      {(a) => (
        <select
          {...a}
          value={props.value}
          disabled={props.disabled}
          onChange={(e: { target: HTMLSelectElement }) => props.onChange(e.target.value)}
        >
          {props.options.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/** A button that copies a secret shown once; says when it did. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      window.prompt('Copy this value', text);
    }
  };
  return (
    <button type="button" className="secondary small" onClick={copy}>
      {copied ? 'Copied' : label}
    </button>
  );
}

export function Pager({ page, pages, onPage }: { page: number; pages: number; onPage(page: number): void }) {
  if (pages <= 1) return null;
  return (
    <nav aria-label="Pages" className="pager">
      <button type="button" className="outline small" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" className="outline small" disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}
