import { useEffect, useState } from 'react';
import { ApiError, del, get, messageOf, post, put, type Envelope } from '../api';
import { NumberField, TextField, Toggle } from '../components/form';
import { ErrorBox, Loading, Notice } from '../components/status';
import { at, newDefinition, setAt, type ApiRecord, type Definition } from '../definition';
import { navigate } from '../router';
import { useSession } from '../session';
import { AuthTab } from '../designer/AuthTab';
import { EndpointsTab } from '../designer/EndpointsTab';
import { fieldErrors, placeOf, TABS, type Tab } from '../designer/errors';
import { defaultVersionName } from '../designer/versions';
import { UpstreamProtocol } from '../designer/UpstreamProtocol';
import { VersionsTab } from '../designer/VersionsTab';
import { GraphqlTab } from './GraphqlTab';
import { HooksTab, type HookReference } from './HooksTab';
import { RawJson } from './RawJson';

export interface EditorProps {
  def: Definition;
  set(path: string, value: unknown): void;
  errors: Record<string, string>;
  readOnly: boolean;
}

/** Creates or edits one API definition; the server validates, and its errors show by their fields. */
export function ApiDesigner({ id }: { id: string }) {
  const { can } = useSession();
  const readOnly = !can('apis', 'write');
  const creating = id === 'new';
  const [def, setDef] = useState<Definition | undefined>(creating ? newDefinition() : undefined);
  const [hooks, setHooks] = useState<HookReference[] | undefined>(creating ? [] : undefined);
  const [loadError, setLoadError] = useState('');
  const [tab, setTab] = useState<Tab>('Core settings');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<{ message: string; errors: string[] } | null>(null);
  const [notice, setNotice] = useState('');
  const [busy, setBusy] = useState(false);
  // The version whose endpoint rules show; undefined = the default version.
  const [rulesVersion, setRulesVersion] = useState<string | undefined>(undefined);

  useEffect(() => {
    if (creating) return setDef(newDefinition());
    get<ApiRecord>(`/apis/${encodeURIComponent(id)}`).then(
      (record) => {
        setDef(record.api_definition);
        setHooks((record.hook_references ?? []) as HookReference[]);
      },
      (err) => setLoadError(messageOf(err)),
    );
  }, [id, creating]);

  if (loadError) return <ErrorBox error={loadError} />;
  if (!def) return <Loading what="the API definition" />;
  const set = (path: string, value: unknown) => setDef((current) => setAt(current ?? {}, path, value));

  const save = async () => {
    setBusy(true);
    setErrors({});
    setFailure(null);
    setNotice('');
    try {
      if (creating) {
        const created = await post<Envelope<string>>('/apis', { api_definition: def, hook_references: hooks });
        navigate(`/apis/${created.Meta}`);
        setNotice('API created.');
      } else {
        const saved = await put<Envelope>(`/apis/${encodeURIComponent(id)}`, {
          api_definition: def,
          hook_references: hooks,
        });
        // A supergraph's save answers with the hints of the composition it stored.
        if (Array.isArray(saved.Hints)) set('graphql.supergraph.composition_hints', saved.Hints);
        setNotice('API saved.');
      }
    } catch (err) {
      const fields = fieldErrors(err);
      setErrors(fields);
      setFailure({ message: messageOf(err), errors: err instanceof ApiError ? err.errors : [] });
      const first = Object.keys(fields)[0];
      if (first) {
        const place = placeOf(first);
        setTab(place.tab);
        if (place.version) setRulesVersion(place.version);
      }
    } finally {
      setBusy(false);
    }
  };
  const remove = async () => {
    if (
      !window.confirm(`Delete the API “${def.name}”? Requests to ${def.proxy?.listen_path} will no longer be proxied.`)
    )
      return;
    try {
      await del(`/apis/${encodeURIComponent(id)}`);
      navigate('/apis');
    } catch (err) {
      setFailure({ message: messageOf(err), errors: [] });
    }
  };
  const props: EditorProps = { def, set, errors, readOnly };
  // A supergraph that does not compose: the GraphQL tab lists its errors beside its subgraphs.
  const compositionFailed =
    failure !== null && /^Federation failed/.test(failure.message) && def.graphql?.execution_mode === 'supergraph';
  const names = Object.keys(def.version_data?.versions ?? {});
  const version = rulesVersion !== undefined && names.includes(rulesVersion) ? rulesVersion : defaultVersionName(def);

  return (
    <section>
      <div className="page-head">
        <h1>{creating ? 'New API' : def.name || 'API'}</h1>
        <div className="actions">
          <a href="#/apis" role="button" className="secondary outline">
            Back to APIs
          </a>
          {!readOnly && !creating && (
            <button type="button" className="secondary" onClick={remove}>
              Delete
            </button>
          )}
          {!readOnly && (
            <button type="button" onClick={save} aria-busy={busy} disabled={busy}>
              {creating ? 'Create API' : 'Save'}
            </button>
          )}
        </div>
      </div>
      {!creating && (
        <p className="meta">
          API id <code>{def.api_id}</code>
        </p>
      )}
      <Notice text={notice} />
      {failure && (
        <article className="error-box" role="alert">
          <strong>The API was not saved.</strong>{' '}
          {compositionFailed
            ? `${failure.message}. The errors are listed on the GraphQL tab.`
            : failure.errors.length > 1
              ? 'The server found these problems:'
              : failure.message}
          {failure.errors.length > 1 && !compositionFailed && (
            <ul>
              {failure.errors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          )}
        </article>
      )}
      <div role="tablist" aria-label="Designer sections" className="tabs">
        {TABS.map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            className={tab === name ? '' : 'outline'}
            onClick={() => setTab(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <div role="tabpanel" aria-label={tab}>
        {tab === 'Core settings' && <CoreTab {...props} />}
        {tab === 'Authentication' && <AuthTab {...props} replace={setDef} />}
        {tab === 'Versions' && (
          <VersionsTab
            {...props}
            replace={setDef}
            onEditRules={(name) => {
              setRulesVersion(name);
              setTab('Endpoint rules');
            }}
          />
        )}
        {tab === 'Endpoint rules' && (
          <EndpointsTab {...props} replace={setDef} version={version} onVersion={setRulesVersion} />
        )}
        {tab === 'Rate limits and quotas' && <LimitsTab {...props} />}
        {tab === 'GraphQL' && <GraphqlTab {...props} compositionErrors={compositionFailed ? failure.errors : []} />}
        {tab === 'Webhooks' && (
          <HooksTab value={hooks ?? []} onChange={setHooks} error={errors.hook_references} readOnly={readOnly} />
        )}
        {tab === 'Raw definition' && (
          <RawJson value={def} readOnly={readOnly} onApply={(next) => setDef(next as Definition)} />
        )}
      </div>
    </section>
  );
}

function CoreTab({ def, set, errors, readOnly }: EditorProps) {
  const text = (label: string, path: string, hint?: string) => (
    <TextField
      label={label}
      name={path}
      value={String(at(def, path) ?? '')}
      onChange={(v) => set(path, v)}
      error={errors[path]}
      hint={hint}
      disabled={readOnly}
    />
  );
  return (
    <fieldset>
      {text('Name', 'name')}
      <div className="grid">
        {text('Listen path', 'proxy.listen_path', 'Where the gateway answers, e.g. /orders/')}
        {text(
          'Target URL',
          'proxy.target_url',
          'The upstream service, e.g. http://orders.internal:8080; h2c:// for cleartext HTTP/2 (gRPC servers inside your network)',
        )}
      </div>
      <UpstreamProtocol def={def} set={set} errors={errors} readOnly={readOnly} />
      <Toggle
        label="Strip the listen path before proxying"
        name="proxy.strip_listen_path"
        checked={Boolean(at(def, 'proxy.strip_listen_path'))}
        onChange={(v) => set('proxy.strip_listen_path', v)}
        disabled={readOnly}
      />
      <Toggle
        label="Active (served by the gateway)"
        name="active"
        checked={Boolean(def.active)}
        onChange={(v) => set('active', v)}
        disabled={readOnly}
      />
    </fieldset>
  );
}

function LimitsTab({ def, set, errors, readOnly }: EditorProps) {
  const number = (label: string, path: string, hint?: string) => (
    <NumberField
      label={label}
      name={path}
      value={Number(at(def, path) ?? 0)}
      onChange={(v) => set(path, v)}
      error={errors[path]}
      hint={hint}
      disabled={readOnly}
    />
  );
  return (
    <fieldset>
      <legend>API-wide rate limit</legend>
      <div className="grid">
        {number('Requests', 'global_rate_limit.rate', 'Across all callers; 0 means no limit')}
        {number('Per seconds', 'global_rate_limit.per')}
      </div>
      <Toggle
        label="Ignore the keys' rate limits"
        name="disable_rate_limit"
        checked={Boolean(def.disable_rate_limit)}
        onChange={(v) => set('disable_rate_limit', v)}
        disabled={readOnly}
      />
      <Toggle
        label="Ignore the keys' quotas"
        name="disable_quota"
        checked={Boolean(def.disable_quota)}
        onChange={(v) => set('disable_quota', v)}
        disabled={readOnly}
      />
      <p>
        <small>
          Per-key rate limits and quotas are set on keys and policies (per API there too); per-endpoint limits on each
          version's Endpoint rules.
        </small>
      </p>
    </fieldset>
  );
}
