import { get } from '../api';
import { Show, useLoad } from '../components/status';
import { listenPathOf, mcpIdOf, mcpNameOf, restSourceOf, upstreamOf, type McpDocument } from '../mcp-document';

/** The organisation's MCP APIs (`/api/mcps`): name, listen path and upstream, each opening its tools page. */
export function McpList() {
  const loaded = useLoad(() => get<{ apis: McpDocument[]; pages: number }>('/mcps'), 'mcps');
  return (
    <section>
      <div className="page-head">
        <h1>MCP APIs</h1>
      </div>
      <Show loaded={loaded} what="MCP APIs">
        {({ apis }) =>
          apis.length === 0 ? (
            <p>No MCP APIs yet. Create one with POST /api/mcps (see the MCP guide).</p>
          ) : (
            <div className="overflow-auto">
              <table className="striped">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Listen path</th>
                    <th scope="col">Upstream</th>
                    <th scope="col">Kind</th>
                  </tr>
                </thead>
                <tbody>
                  {apis.map((document) => (
                    <tr key={mcpIdOf(document)}>
                      <td>
                        <a href={`#/mcps/${encodeURIComponent(mcpIdOf(document))}`}>{mcpNameOf(document)}</a>
                      </td>
                      <td>
                        <code>{listenPathOf(document)}</code>
                      </td>
                      <td>
                        <code>{upstreamOf(document)}</code>
                      </td>
                      <td>{restSourceOf(document) ? 'REST as MCP' : 'MCP proxy'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Show>
    </section>
  );
}
