import { get } from '../api';
import { SelectField } from '../components/form';
import { useLoad } from '../components/status';

export interface HookReference {
  event_name: string;
  hook: { id?: string; [field: string]: unknown };
  event_timeout?: number;
}

/**
 * Events an API can send to webhooks (docs/webhooks-and-events.md#gateway-events; the reference
 * gateway names more).
 */
const EVENTS = [
  'QuotaExceeded',
  'RatelimitExceeded',
  'AuthFailure',
  'KeyExpired',
  'BreakerTriggered',
  'RateLimitSmoothingUp',
  'RateLimitSmoothingDown',
  'OrgQuotaExceeded',
  'OrgRateLimitExceeded',
].map((e) => [e, e] as [string, string]);

/** The API's `hook_references`: which organisation webhook each event goes to. */
export function HooksTab({
  value,
  onChange,
  error,
  readOnly,
}: {
  value: HookReference[];
  onChange(value: HookReference[]): void;
  error?: string;
  readOnly: boolean;
}) {
  const hooks = useLoad(
    () => get<{ hooks: Array<{ id: string; name: string }> }>('/hooks?p=0').catch(() => ({ hooks: [] })),
    'designer-hooks',
  );
  const choices = (hooks.data?.hooks ?? []).map((h) => [h.id, h.name] as [string, string]);
  const change = (index: number, next: HookReference) => onChange(value.map((r, i) => (i === index ? next : r)));
  return (
    <fieldset>
      <legend>Webhooks on events</legend>
      {error && <p className="field-error">{error}</p>}
      {value.length === 0 && <p>This API sends no events to webhooks.</p>}
      {value.map((reference, index) => (
        <div className="grid" key={index}>
          <SelectField
            label="Event"
            value={reference.event_name}
            options={EVENTS}
            onChange={(event_name) => change(index, { ...reference, event_name })}
            disabled={readOnly}
          />
          <SelectField
            label="Webhook"
            value={String(reference.hook?.id ?? '')}
            options={[['', 'choose a webhook'], ...choices]}
            onChange={(id) => change(index, { ...reference, hook: { id } })}
            disabled={readOnly}
          />
          {!readOnly && (
            <div className="inline-actions">
              <button
                type="button"
                className="secondary outline small"
                onClick={() => onChange(value.filter((_, i) => i !== index))}
              >
                Remove
              </button>
            </div>
          )}
        </div>
      ))}
      {!readOnly &&
        (choices.length === 0 ? (
          <p>
            <small>Create a webhook on the Webhooks page first.</small>
          </p>
        ) : (
          <button
            type="button"
            className="outline"
            onClick={() => onChange([...value, { event_name: 'QuotaExceeded', hook: { id: choices[0][0] } }])}
          >
            Add a webhook
          </button>
        ))}
    </fieldset>
  );
}
