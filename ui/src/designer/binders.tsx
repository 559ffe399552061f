import { NumberField, TextField, Toggle } from '../components/form';
import { at } from '../definition';
import type { EditorProps } from '../pages/ApiDesigner';
import { errorAt } from './auth-modes';

/** Inputs bound to a definition path, with the server's error for it. */
export function binders({ def, set, errors, readOnly }: EditorProps) {
  return {
    text: (label: string, path: string, hint?: string, placeholder?: string) => (
      <TextField
        label={label}
        name={path}
        value={String(at(def, path) ?? '')}
        onChange={(v) => set(path, v)}
        error={errorAt(errors, path)}
        hint={hint}
        placeholder={placeholder}
        disabled={readOnly}
      />
    ),
    number: (label: string, path: string, hint?: string) => (
      <NumberField
        label={label}
        name={path}
        value={Number(at(def, path) ?? 0)}
        onChange={(v) => set(path, v)}
        error={errorAt(errors, path)}
        hint={hint}
        disabled={readOnly}
      />
    ),
    toggle: (label: string, path: string) => (
      <Toggle
        label={label}
        name={path}
        checked={at(def, path) === true}
        onChange={(v) => set(path, v)}
        disabled={readOnly}
      />
    ),
    choices: (legend: string, path: string, options: Array<[string, string]>) => {
      const chosen = (at(def, path) ?? []) as string[];
      return (
        <fieldset data-field={path}>
          <legend>{legend}</legend>
          {options.map(([value, label]) => (
            <label key={value}>
              <input
                type="checkbox"
                name={`${path}:${value}`}
                checked={chosen.includes(value)}
                disabled={readOnly}
                onChange={(e: { target: HTMLInputElement }) =>
                  set(path, e.target.checked ? [...chosen, value] : chosen.filter((c) => c !== value))
                }
              />
              {label}
            </label>
          ))}
          {errorAt(errors, path) && <small className="field-error">{errorAt(errors, path)}</small>}
        </fieldset>
      );
    },
  };
}
