import { useState } from 'react';
import { messageOf, post, type Envelope } from '../api';
import { Field, SelectField } from '../components/form';
import { Notice } from '../components/status';
import { SupergraphSettings } from '../designer/SupergraphSettings';
import type { EditorProps } from './ApiDesigner';

/** The gateway's default port (GW_GATEWAY_PORT); the dashboard does not know where gateways run. */
const GATEWAY_PORT = 8080;

/**
 * GraphQL settings: the schema, checked by the server on save, its sync from the upstream, and the
 * playground; for a supergraph its subgraphs, composition errors and hints.
 */
export function GraphqlTab({
  def,
  set,
  errors,
  readOnly,
  compositionErrors = [],
}: EditorProps & { compositionErrors?: string[] }) {
  const graphql = def.graphql ?? {};
  const supergraph = graphql.execution_mode === 'supergraph';
  const schemaError = Object.entries(errors).find(
    ([path]) => path.startsWith('graphql') && !path.startsWith('graphql.supergraph'),
  )?.[1];
  const playgroundPath = `${def.proxy?.listen_path ?? ''}${String(graphql.playground?.path ?? '/playground').replace(/^\//, '')}`;
  const playgroundUrl = `${window.location.protocol}//${window.location.hostname}:${GATEWAY_PORT}${playgroundPath}`;
  return (
    <fieldset>
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={Boolean(graphql.enabled)}
          disabled={readOnly}
          onChange={(e: { target: HTMLInputElement }) => set('graphql.enabled', e.target.checked)}
        />
        This is a GraphQL API
      </label>
      {graphql.enabled && (
        <>
          <SelectField
            label="Execution mode"
            value={String(graphql.execution_mode ?? 'proxyOnly')}
            options={[
              ['proxyOnly', 'Proxy to a GraphQL upstream'],
              ['subgraph', 'Federation subgraph'],
              ['supergraph', 'Federation supergraph'],
            ]}
            onChange={(v) => set('graphql.execution_mode', v)}
            disabled={readOnly}
          />
          {supergraph && (
            <SupergraphSettings def={def} set={set} readOnly={readOnly} compositionErrors={compositionErrors} />
          )}
          <Field
            label={supergraph ? 'Composed schema (SDL)' : 'Schema (SDL)'}
            error={schemaError}
            hint={supergraph ? 'Composed from the subgraphs when you save.' : 'Checked by the server when you save.'}
          >
            {(a) => (
              <textarea
                {...a}
                className="code"
                rows={16}
                spellCheck={false}
                value={String(graphql.schema ?? '')}
                readOnly={readOnly || supergraph}
                onChange={(e: { target: HTMLTextAreaElement }) => set('graphql.schema', e.target.value)}
              />
            )}
          </Field>
          {!readOnly && def.id && (graphql.execution_mode ?? 'proxyOnly') === 'proxyOnly' && (
            <SchemaSync id={String(def.id)} lastUpdate={graphql.last_schema_update} />
          )}
          {graphql.playground?.enabled && (
            <p>
              Playground on the gateway at{' '}
              <a href={playgroundUrl} target="_blank" rel="noreferrer">
                <code>{playgroundPath}</code>
              </a>
            </p>
          )}
        </>
      )}
    </fieldset>
  );
}

/** Re-reads the schema from the upstream by introspection; the server stores it on the API. */
function SchemaSync({ id, lastUpdate }: { id: string; lastUpdate?: string }) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const [error, setError] = useState('');
  const sync = async () => {
    setBusy(true);
    setNotice('');
    setError('');
    try {
      const answer = await post<Envelope<{ last_schema_update?: string }>>(
        `/apis/${encodeURIComponent(id)}/graphql/schema/sync`,
        {},
      );
      setNotice(
        `Schema synchronised from the upstream${answer.Meta?.last_schema_update ? ` at ${answer.Meta.last_schema_update}` : ''}. Reload the API to see it.`,
      );
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div>
      <button type="button" className="secondary" aria-busy={busy} disabled={busy} onClick={() => void sync()}>
        Sync schema from upstream
      </button>{' '}
      {lastUpdate && <small>Last synchronised {lastUpdate}</small>}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      <Notice text={notice} />
    </div>
  );
}
