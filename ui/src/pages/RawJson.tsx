import { useEffect, useState } from 'react';
import { Field } from '../components/form';

/** The whole object as JSON text; Apply replaces the form's value when the text parses. */
export function RawJson({
  value,
  onApply,
  readOnly,
}: {
  value: unknown;
  onApply(value: unknown): void;
  readOnly: boolean;
}) {
  const [text, setText] = useState(() => JSON.stringify(value, null, 2));
  const [error, setError] = useState('');
  useEffect(() => setText(JSON.stringify(value, null, 2)), [value]);
  const apply = () => {
    try {
      const parsed = JSON.parse(text) as unknown;
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw new Error('The definition must be a JSON object.');
      setError('');
      onApply(parsed);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  };
  return (
    <div>
      <Field label="Definition (JSON)" error={error} hint="Edit, then Apply to the form; Save sends it to the server.">
        {(a) => (
          <textarea
            {...a}
            className="code"
            rows={24}
            spellCheck={false}
            value={text}
            readOnly={readOnly}
            onChange={(e: { target: HTMLTextAreaElement }) => setText(e.target.value)}
          />
        )}
      </Field>
      {!readOnly && (
        <button type="button" className="secondary" onClick={apply}>
          Apply JSON
        </button>
      )}
    </div>
  );
}
