import { useState } from 'react';
import { get, query } from '../api';
import { SelectField } from '../components/form';
import { Show, useLoad } from '../components/status';
import type { ApiRecord, Definition } from '../definition';

/** One entry of `graphql.supergraph.subgraphs`, as the server keeps it. */
interface SubgraphEntry {
  api_id?: string;
  name?: string;
  url?: string;
  [field: string]: unknown;
}

/** A composition hint as the server stores it on the supergraph (`composition_hints`). */
export interface CompositionHint {
  code: string;
  message: string;
  subgraphs: string[];
  type?: string;
  field?: string;
}

/** How many pages of APIs the subgraph picker reads (the list is paged by the server). */
const MAX_PAGES = 20;

/** The organisation's subgraph APIs, the candidates for a supergraph. */
async function subgraphApis(): Promise<Definition[]> {
  const found: Definition[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const answer = await get<{ apis: ApiRecord[]; pages: number }>(`/apis${query({ p: page })}`);
    found.push(
      ...answer.apis.map((record) => record.api_definition).filter((def) => def.graphql?.execution_mode === 'subgraph'),
    );
    if (page >= (answer.pages || 1)) break;
  }
  return found;
}

/**
 * A supergraph's subgraphs (pick the organisation's subgraph APIs), the errors of a save the
 * composition refused, one per item, and the hints of the last composition.
 */
export function SupergraphSettings({
  def,
  set,
  readOnly,
  compositionErrors,
}: {
  def: Definition;
  set(path: string, value: unknown): void;
  readOnly: boolean;
  compositionErrors: string[];
}) {
  const supergraph = def.graphql?.supergraph ?? {};
  const entries: SubgraphEntry[] = Array.isArray(supergraph.subgraphs) ? supergraph.subgraphs : [];
  const hints: CompositionHint[] = Array.isArray(supergraph.composition_hints) ? supergraph.composition_hints : [];
  const candidates = useLoad(subgraphApis, 'subgraph-apis');
  return (
    <>
      <fieldset aria-label="Subgraphs">
        <legend>Subgraphs</legend>
        <Show loaded={candidates} what="the subgraph APIs">
          {(apis) => (
            <SubgraphList
              entries={entries}
              apis={apis}
              readOnly={readOnly}
              onChange={(next) => set('graphql.supergraph.subgraphs', next)}
            />
          )}
        </Show>
      </fieldset>
      {compositionErrors.length > 0 && (
        <article className="error-box" role="alert" aria-label="Composition errors">
          <strong>The subgraphs do not compose; the API was not saved.</strong>
          <ul>
            {compositionErrors.map((error) => (
              <li key={error}>{error}</li>
            ))}
          </ul>
        </article>
      )}
      <section aria-label="Composition hints">
        <h4>Composition hints</h4>
        {hints.length === 0 ? (
          <p>
            <small>The last composition gave no hints.</small>
          </p>
        ) : (
          <>
            <p>
              <small>From the last save: the supergraph works, but these look unintended.</small>
            </p>
            <ul>
              {hints.map((hint) => (
                <li key={`${hint.code} ${hint.message}`}>
                  <code>{hint.code}</code> {hint.message}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
    </>
  );
}

function SubgraphList({
  entries,
  apis,
  readOnly,
  onChange,
}: {
  entries: SubgraphEntry[];
  apis: Definition[];
  readOnly: boolean;
  onChange(entries: SubgraphEntry[]): void;
}) {
  const [picked, setPicked] = useState('');
  const chosen = new Set(entries.map((entry) => entry.api_id).filter(Boolean));
  const available = apis.filter((api) => !chosen.has(api.api_id));
  const nameOf = (entry: SubgraphEntry) =>
    apis.find((api) => api.api_id === entry.api_id)?.name ?? entry.name ?? entry.api_id ?? '';
  const pick = picked || available[0]?.api_id || '';
  return (
    <>
      {entries.length === 0 ? (
        <p>
          <small>No subgraphs yet: add the subgraph APIs this supergraph composes.</small>
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Subgraph</th>
              <th>API or URL</th>
              {!readOnly && <th />}
            </tr>
          </thead>
          <tbody>
            {entries.map((entry, index) => (
              <tr key={`${entry.api_id ?? entry.url ?? ''}-${index}`}>
                <td>{entry.name || nameOf(entry)}</td>
                <td>{entry.api_id ? `API ${nameOf(entry)}` : <code>{entry.url}</code>}</td>
                {!readOnly && (
                  <td>
                    <button
                      type="button"
                      className="secondary outline small"
                      aria-label={`Remove subgraph ${entry.name || nameOf(entry)}`}
                      onClick={() => onChange(entries.filter((_, i) => i !== index))}
                    >
                      Remove
                    </button>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!readOnly &&
        (available.length === 0 ? (
          <p>
            <small>Every subgraph API of your organisation is in this supergraph.</small>
          </p>
        ) : (
          <div className="grid">
            <SelectField
              label="Subgraph API to add"
              value={pick}
              options={available.map((api) => [String(api.api_id), String(api.name)])}
              onChange={setPicked}
            />
            <div className="inline-actions">
              <button
                type="button"
                className="outline"
                onClick={() => {
                  const api = available.find((candidate) => candidate.api_id === pick);
                  if (!api) return;
                  onChange([...entries, { name: api.name, api_id: api.api_id }]);
                  setPicked('');
                }}
              >
                Add subgraph
              </button>
            </div>
          </div>
        ))}
    </>
  );
}
