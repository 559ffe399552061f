import { get } from '../api';
import { useLoad } from '../components/status';
import type { ApiRecord } from '../definition';

export interface AccessRight {
  api_id: string;
  api_name: string;
  versions: string[];
}

/** All the organisation's APIs (p=0: every page), for access-rights pickers. */
export function useApis() {
  return useLoad(
    () => get<{ apis: ApiRecord[] }>('/apis?p=0').then((r) => r.apis.map((a) => a.api_definition)),
    'apis',
  );
}

/** Checkboxes of APIs; checked ones become access rights to all their versions. */
export function AccessRights({
  value,
  onChange,
  disabled,
}: {
  value: Record<string, AccessRight>;
  onChange(value: Record<string, AccessRight>): void;
  disabled?: boolean;
}) {
  const apis = useApis();
  if (apis.error) return <p className="field-error">Could not list APIs: {apis.error}</p>;
  if (!apis.data) return <p aria-busy="true">Loading APIs…</p>;
  if (apis.data.length === 0) return <p>No APIs yet.</p>;
  return (
    <fieldset>
      <legend>Access rights</legend>
      {apis.data.map((def) => (
        <label key={def.api_id}>
          <input
            type="checkbox"
            name={`access-${def.api_id}`}
            checked={Boolean(value[def.api_id])}
            disabled={disabled}
            onChange={(e: { target: HTMLInputElement }) => {
              const next = { ...value };
              if (e.target.checked)
                next[def.api_id] = {
                  api_id: def.api_id,
                  api_name: def.name,
                  versions: Object.keys(def.version_data?.versions ?? { Default: {} }),
                };
              else delete next[def.api_id];
              onChange(next);
            }}
          />
          {def.name} <code>{def.proxy?.listen_path}</code>
        </label>
      ))}
    </fieldset>
  );
}
