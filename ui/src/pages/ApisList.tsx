import { useState } from 'react';
import { get, query } from '../api';
import { Pager } from '../components/form';
import { Show, useLoad } from '../components/status';
import { authLabel, kindOf, type ApiRecord } from '../definition';
import { navigate } from '../router';
import { useSession } from '../session';

/** The organisation's APIs: search by name or listen path, a page at a time. */
export function ApisList() {
  const { can, me } = useSession();
  const [search, setSearch] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const loaded = useLoad(
    () => get<{ apis: ApiRecord[]; pages: number }>(`/apis${query({ q, p: page })}`),
    `${q}|${page}`,
  );
  return (
    <section>
      <div className="page-head">
        <h1>APIs</h1>
        {can('apis', 'write') && (
          <button type="button" onClick={() => navigate('/apis/new')}>
            Create API
          </button>
        )}
        {can('apis', 'write') && (
          <button type="button" className="secondary" onClick={() => navigate('/apis/oas/new')}>
            Create OAS API
          </button>
        )}
        {can('apis', 'write') && (
          <button type="button" className="secondary" onClick={() => navigate('/apis/streams/new')}>
            Create streams API
          </button>
        )}
      </div>
      <form
        role="search"
        onSubmit={(e: { preventDefault(): void }) => {
          e.preventDefault();
          setPage(1);
          setQ(search);
        }}
      >
        <input
          type="search"
          name="q"
          aria-label="Search APIs"
          placeholder="Search by name or listen path"
          value={search}
          onChange={(e: { target: HTMLInputElement }) => setSearch(e.target.value)}
        />
        <button type="submit">Search</button>
      </form>
      <Show loaded={loaded} what="APIs">
        {({ apis, pages }) =>
          apis.length === 0 ? (
            <p>{q ? `No API matches “${q}”.` : 'No APIs yet. Create one to start proxying requests.'}</p>
          ) : (
            <>
              <p className="meta" data-testid="gateway-hint">
                Call them on the gateway at <code>{me.gateway_url}</code> followed by their listen path, e.g.{' '}
                <code>{`${me.gateway_url}${apis[0].api_definition.proxy?.listen_path ?? '/'}`}</code>
              </p>
              <div className="overflow-auto">
                <table className="striped">
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Listen path</th>
                      <th scope="col">Authentication</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {apis.map(({ api_definition: def }) => (
                      <tr key={def.id}>
                        <td>
                          <a href={`#/apis/${editorPath(def)}${def.id}`}>{def.name}</a>
                        </td>
                        <td>
                          <code>{def.proxy?.listen_path}</code>
                        </td>
                        <td>{authLabel(def)}</td>
                        <td>{kindOf(def)}</td>
                        <td>
                          {def.active ? (
                            <span className="badge ok">Active</span>
                          ) : (
                            <span className="badge off">Inactive</span>
                          )}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <Pager page={page} pages={pages} onPage={setPage} />
            </>
          )
        }
      </Show>
    </section>
  );
}

/** OAS APIs open in the document editor (streams APIs in the streams one), classic ones in the designer. */
function editorPath(def: ApiRecord['api_definition']): string {
  if (!def.is_oas) return '';
  return kindOf(def) === 'Stream' ? 'streams/' : 'oas/';
}
