import { SelectField } from '../components/form';

/**
 * The dashboard's permission names (docs/users-and-organisations.md#permissions), and the levels
 * a user or group may hold.
 */
export const PERMISSION_NAMES = [
  'apis',
  'keys',
  'policies',
  'analytics',
  'users',
  'user_groups',
  'hooks',
  'certificates',
];
const LEVELS: Array<[string, string]> = [
  ['', 'not set'],
  ['deny', 'deny'],
  ['read', 'read'],
  ['write', 'write'],
];

/** One select per permission; an administrator holds `IsAdmin: admin` and needs none. */
export function PermissionsEditor({
  value,
  onChange,
  disabled,
}: {
  value: Record<string, string>;
  onChange(value: Record<string, string>): void;
  disabled?: boolean;
}) {
  const admin = value.IsAdmin === 'admin';
  const set = (name: string, level: string) => {
    const next = { ...value };
    if (level) next[name] = level;
    else delete next[name];
    onChange(next);
  };
  return (
    <fieldset>
      <legend>Permissions</legend>
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={admin}
          disabled={disabled}
          onChange={(e: { target: HTMLInputElement }) => set('IsAdmin', e.target.checked ? 'admin' : '')}
        />
        Administrator (every permission)
      </label>
      {!admin && (
        <div className="grid permissions">
          {PERMISSION_NAMES.map((name) => (
            <SelectField
              key={name}
              label={name}
              name={`perm-${name}`}
              value={value[name] ?? ''}
              options={LEVELS}
              onChange={(level) => set(name, level)}
              disabled={disabled}
            />
          ))}
        </div>
      )}
    </fieldset>
  );
}
