import { Field, SelectField } from '../components/form';
import type { EditorProps } from './ApiDesigner';

/** GraphQL settings: the schema, checked by the server on save, and the API's playground. */
export function GraphqlTab({ def, set, errors, readOnly }: EditorProps) {
  const graphql = def.graphql ?? {};
  const schemaError = Object.entries(errors).find(([path]) => path.startsWith('graphql'))?.[1];
  return (
    <fieldset>
      <label>
        <input type="checkbox" role="switch" checked={Boolean(graphql.enabled)} disabled={readOnly} onChange={(e: { target: HTMLInputElement }) => set('graphql.enabled', e.target.checked)} />
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
          <Field label="Schema (SDL)" error={schemaError} hint="Checked by the server when you save.">
            {(a) => <textarea {...a} className="code" rows={16} spellCheck={false} value={String(graphql.schema ?? '')} readOnly={readOnly} onChange={(e: { target: HTMLTextAreaElement }) => set('graphql.schema', e.target.value)} />}
          </Field>
          {graphql.playground?.enabled && (
            <p>
              Playground on the gateway at <code>{`${def.proxy?.listen_path ?? ''}${String(graphql.playground.path ?? '/playground').replace(/^\//, '')}`}</code>
            </p>
          )}
        </>
      )}
    </fieldset>
  );
}
