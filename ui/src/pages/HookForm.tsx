import { useState } from 'react';
import { ApiError, messageOf } from '../api';
import { Field, NumberField, SelectField, TextField } from '../components/form';
import { ErrorBox } from '../components/status';

/** The fields of a webhook (docs/webhooks-and-events.md#webhooks) the dashboard edits. */
export interface HookFields {
  name: string;
  method: string;
  target_path: string;
  template_path: string;
  header_map: Record<string, string>;
  event_timeout: number;
}

export const NEW_HOOK: HookFields = {
  name: '',
  method: 'POST',
  target_path: 'https://',
  template_path: '',
  header_map: {},
  event_timeout: 60,
};

const headersText = (map: Record<string, string>) =>
  Object.entries(map)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

/** `Name: value` lines → a header map; a line without a name before its colon is an error. */
function parseHeaders(text: string): { map: Record<string, string> } | { error: string } {
  const map: Record<string, string> = {};
  for (const [index, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!name) return { error: `Line ${index + 1} is not "Name: value".` };
    map[name] = line.slice(colon + 1).trim();
  }
  return { map };
}

/**
 * A webhook's fields, to create one or change one: `save` sends them; the server's refusal is
 * shown next to the field it names (or above the button).
 */
export function HookForm({
  initial,
  submitLabel,
  onSave,
  onCancel,
}: {
  initial: HookFields;
  submitLabel: string;
  onSave(hook: HookFields): Promise<void>;
  onCancel?(): void;
}) {
  const [hook, setHook] = useState(initial);
  const [headers, setHeaders] = useState(headersText(initial.header_map));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setError('');
    setErrors({});
    const parsed = parseHeaders(headers);
    if ('error' in parsed) return setErrors({ header_map: parsed.error });
    setBusy(true);
    try {
      await onSave({ ...hook, header_map: parsed.map });
    } catch (err) {
      const fields = err instanceof ApiError ? err.fields('hook.') : {};
      if (Object.keys(fields).length > 0) setErrors(fields);
      else setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={submit} aria-label={submitLabel}>
      <div className="grid">
        <TextField
          label="Name"
          name="hook-name"
          value={hook.name}
          error={errors.name}
          onChange={(name) => setHook({ ...hook, name })}
          required
        />
        <SelectField
          label="Method"
          name="hook-method"
          value={hook.method}
          error={errors.method}
          options={['POST', 'PUT', 'GET', 'PATCH', 'DELETE'].map((m) => [m, m] as [string, string])}
          onChange={(method) => setHook({ ...hook, method })}
        />
      </div>
      <div className="grid">
        <TextField
          label="Target URL"
          name="target_path"
          value={hook.target_path}
          error={errors.target_path}
          onChange={(target_path) => setHook({ ...hook, target_path })}
          required
        />
        <NumberField
          label="Quiet period (s)"
          name="event_timeout"
          value={hook.event_timeout}
          error={errors.event_timeout}
          onChange={(event_timeout) => setHook({ ...hook, event_timeout })}
          hint="The same event for the same key is not sent again within it"
        />
      </div>
      <div className="grid">
        <Field label="Headers" name="header_map" error={errors.header_map} hint="One per line: Name: value">
          {(a) => (
            <textarea
              {...a}
              className="code"
              rows={3}
              spellCheck={false}
              value={headers}
              placeholder="X-Signature: secret"
              onChange={(e: { target: HTMLTextAreaElement }) => setHeaders(e.target.value)}
            />
          )}
        </Field>
        <TextField
          label="Body template (optional)"
          name="template_path"
          value={hook.template_path}
          error={errors.template_path}
          onChange={(template_path) => setHook({ ...hook, template_path })}
          hint="A template file on the gateway nodes; empty sends the event as JSON"
        />
      </div>
      {error && <ErrorBox error={error} />}
      <div className="inline-actions">
        <button type="submit" aria-busy={busy} disabled={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="secondary outline" onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
