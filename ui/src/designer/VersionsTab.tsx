import { useState } from 'react';
import { SelectField, TextField, Toggle } from '../components/form';
import type { Definition } from '../definition';
import type { EditorProps } from '../pages/ApiDesigner';
import {
  DEFAULT_KEYS,
  expiryInput,
  expiryValue,
  VERSION_LOCATIONS,
  versionNames,
  versionsOf,
  withoutVersion,
  withVersion,
  withVersioning,
} from './versions';

/** Versions of the API: on or off, where a request names one, the default, and each version's expiry and target. */
export function VersionsTab({
  def,
  set,
  replace,
  errors,
  readOnly,
  onEditRules,
}: EditorProps & { replace(def: Definition): void; onEditRules(version: string): void }) {
  const versioned = def.version_data?.not_versioned === false;
  const names = versionNames(def);
  const versions = versionsOf(def);
  const location = String(def.definition?.location ?? 'header');
  const [newName, setNewName] = useState('');
  const [nameError, setNameError] = useState('');
  const add = () => {
    const name = newName.trim();
    if (name === '') return setNameError('Give the version a name, e.g. v2.');
    if (names.includes(name) && versions[name]) return setNameError(`There is already a version ${name}.`);
    setNameError('');
    setNewName('');
    // A new version starts with no rules of its own; the designer never copies rules implicitly.
    replace(withVersion(def, name, { name, expires: '', use_extended_paths: true, extended_paths: {} }));
  };
  const versionField = (name: string, field: string) => `version_data.versions.${name}.${field}`;
  return (
    <>
      <fieldset>
        <Toggle
          label="This API has versions"
          name="version_data.not_versioned"
          checked={versioned}
          onChange={(v) => replace(withVersioning(def, v))}
          disabled={readOnly}
        />
        {!versioned && (
          <p>
            Every request is served by version <code>{def.version_data?.default_version || names[0]}</code>.
          </p>
        )}
        {versioned && (
          <div className="grid">
            <SelectField
              label="Requests name their version in"
              name="definition.location"
              value={location}
              options={VERSION_LOCATIONS}
              onChange={(v) =>
                replace({ ...def, definition: { ...(def.definition ?? {}), location: v, key: DEFAULT_KEYS[v] } })
              }
              error={errors['definition.location']}
              disabled={readOnly}
            />
            {location !== 'url' && (
              <TextField
                label={location === 'header' ? 'Header name' : 'Query parameter'}
                name="definition.key"
                value={String(def.definition?.key ?? '')}
                onChange={(v) => set('definition.key', v)}
                error={errors['definition.key']}
                hint={`${DEFAULT_KEYS[location]} when empty`}
                disabled={readOnly}
              />
            )}
            <SelectField
              label="Default version (requests naming none)"
              name="version_data.default_version"
              value={String(def.version_data?.default_version ?? '')}
              options={[['', 'none: such requests are refused'], ...names.map((n) => [n, n] as [string, string])]}
              onChange={(v) => set('version_data.default_version', v)}
              error={errors['version_data.default_version']}
              disabled={readOnly}
            />
          </div>
        )}
        {versioned && location === 'url' && (
          <Toggle
            label="Remove the version segment before proxying"
            name="definition.strip_versioning_data"
            checked={def.definition?.strip_versioning_data === true}
            onChange={(v) => set('definition.strip_versioning_data', v)}
            disabled={readOnly}
          />
        )}
      </fieldset>
      {names.map((name) => {
        const version = versions[name] ?? { name };
        const change = (field: string, value: unknown) =>
          replace(withVersion(def, name, { ...version, [field]: value }));
        return (
          <fieldset key={name} className="version" data-version={name}>
            <legend>
              Version <code>{name}</code>
            </legend>
            <div className="grid">
              <TextField
                label="Expires (UTC)"
                type="datetime-local"
                name={versionField(name, 'expires')}
                value={expiryInput(version.expires)}
                onChange={(v) => change('expires', expiryValue(v))}
                error={errors[versionField(name, 'expires')]}
                hint="Empty: never. Requests to an expired version are refused."
                disabled={readOnly}
              />
              <TextField
                label="Target URL of this version"
                name={versionField(name, 'override_target')}
                value={String(version.override_target ?? '')}
                onChange={(v) => change('override_target', v)}
                error={errors[versionField(name, 'override_target')]}
                hint="Empty: the API's target URL"
                disabled={readOnly}
              />
            </div>
            <div className="inline-actions">
              <button type="button" className="outline small" onClick={() => onEditRules(name)}>
                Endpoint rules of {name}
              </button>
              {!readOnly && names.length > 1 && (
                <button
                  type="button"
                  className="secondary outline small"
                  onClick={() => replace(withoutVersion(def, name))}
                >
                  Remove version {name}
                </button>
              )}
            </div>
          </fieldset>
        );
      })}
      {!readOnly && (
        <fieldset>
          <legend>Add a version</legend>
          <div className="grid">
            <TextField
              label="New version name"
              name="new-version"
              value={newName}
              onChange={setNewName}
              error={nameError}
              hint="e.g. v2"
            />
            <div className="inline-actions">
              <button type="button" className="outline" onClick={add}>
                Add version
              </button>
            </div>
          </div>
        </fieldset>
      )}
    </>
  );
}
