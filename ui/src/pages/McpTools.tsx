import { useState } from 'react';
import { get, messageOf, put } from '../api';
import { ErrorBox, Notice, Show, useLoad } from '../components/status';
import {
  mcpNameOf,
  remoteToolsOf,
  restSourceOf,
  restToolsOf,
  sourceKey,
  upstreamOf,
  withDeniedTool,
  withToolAllowed,
  withToolBlocked,
  type McpDocument,
} from '../mcp-document';
import { useSession } from '../session';

interface Loaded {
  /** the document as stored: what a save edits and PUTs */
  stored: McpDocument;
  /** for REST as MCP, the expanded document with the whole tool catalogue */
  expanded?: McpDocument;
}

/** One MCP API's tools with an allow/deny switch each; Save PUTs the edited document. */
export function McpTools({ id }: { id: string }) {
  const path = `/mcps/${encodeURIComponent(id)}`;
  const loaded = useLoad<Loaded>(async () => {
    const stored = await get<McpDocument>(path);
    if (!restSourceOf(stored)) return { stored };
    return { stored, expanded: await get<McpDocument>(`${path}?expand=true`) };
  }, id);
  // Kept here: a save reloads the document, which gives the form a new key (a fresh state).
  const [notice, setNotice] = useState('');
  return (
    <section>
      <p>
        <a href="#/mcps">← MCP APIs</a>
      </p>
      <Show loaded={loaded} what="the MCP API">
        {(data) => (
          <ToolsForm
            key={JSON.stringify(data.stored)}
            path={path}
            data={data}
            notice={notice}
            setNotice={setNotice}
            onSaved={loaded.reload}
          />
        )}
      </Show>
    </section>
  );
}

function ToolsForm({
  path,
  data,
  notice,
  setNotice,
  onSaved,
}: {
  path: string;
  data: Loaded;
  notice: string;
  setNotice(text: string): void;
  onSaved(): void;
}) {
  const { can } = useSession();
  const writable = can('apis', 'write');
  const [document, setDocument] = useState<McpDocument>(data.stored);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);
  const [newTool, setNewTool] = useState('');
  const restSource = restSourceOf(data.stored);
  const edit = (change: () => McpDocument) => {
    try {
      setDocument(change());
      setError('');
      setNotice('');
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const save = async () => {
    setSaving(true);
    setError('');
    setNotice('');
    try {
      await put(path, document);
      setNotice('MCP API saved.');
      onSaved();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setSaving(false);
    }
  };
  return (
    <>
      <div className="page-head">
        <h1>{mcpNameOf(data.stored)}</h1>
      </div>
      <p className="meta">
        {restSource ? 'REST as MCP: the tools are the operations of ' : 'MCP proxy of '}
        <code>{restSource ?? upstreamOf(data.stored)}</code>
      </p>
      <Notice text={notice} />
      <form
        aria-label="Tools"
        onSubmit={(e: { preventDefault(): void }) => {
          e.preventDefault();
          void save();
        }}
      >
        {restSource ? (
          <RestTools expanded={data.expanded ?? data.stored} document={document} disabled={!writable} edit={edit} />
        ) : (
          <RemoteTools document={document} disabled={!writable} edit={edit} />
        )}
        {!restSource && writable && (
          <fieldset role="group">
            <input
              name="deny-tool"
              aria-label="Tool name to deny"
              placeholder="Tool name to deny"
              value={newTool}
              onChange={(e: { target: HTMLInputElement }) => setNewTool(e.target.value)}
            />
            <button
              type="button"
              className="secondary"
              onClick={() =>
                edit(() => {
                  const next = withDeniedTool(document, newTool);
                  setNewTool('');
                  return next;
                })
              }
            >
              Deny tool
            </button>
          </fieldset>
        )}
        {error && <ErrorBox error={error} />}
        {writable && (
          <button type="submit" aria-busy={saving} disabled={saving}>
            Save
          </button>
        )}
      </form>
    </>
  );
}

interface ToolsProps {
  document: McpDocument;
  disabled: boolean;
  edit(change: () => McpDocument): void;
}

/** The REST source's catalogue; a tool is on when the stored document allows it (else as expanded). */
function RestTools({ expanded, document, disabled, edit }: ToolsProps & { expanded: McpDocument }) {
  const stored = new Map(restToolsOf(document).map((tool) => [sourceKey(tool.source), tool.allow]));
  const tools = restToolsOf(expanded);
  if (tools.length === 0) return <p>The REST API has no operations to offer as tools.</p>;
  return (
    <>
      <p className="meta">
        Once one tool is allowed, only the allowed ones are offered; with none allowed, every operation is a tool.
      </p>
      <ToolTable
        rows={tools.map((tool) => {
          const allowed = stored.get(sourceKey(tool.source)) ?? tool.allow;
          return {
            key: sourceKey(tool.source),
            name: tool.name,
            description: tool.description,
            on: allowed,
            toggle: () => edit(() => withToolAllowed(document, tool.source, !allowed)),
          };
        })}
        disabled={disabled}
      />
    </>
  );
}

/** The tools the remote API names in `middleware.mcpTools`; a tool is on unless its block is enabled. */
function RemoteTools({ document, disabled, edit }: ToolsProps) {
  const tools = remoteToolsOf(document);
  if (tools.length === 0) return <p>No tool rules yet: every tool of the MCP server passes. Deny one by name below.</p>;
  return (
    <ToolTable
      rows={tools.map((tool) => ({
        key: tool.name,
        name: tool.name,
        on: !tool.denied,
        toggle: () => edit(() => withToolBlocked(document, tool.name, !tool.denied)),
      }))}
      disabled={disabled}
    />
  );
}

function ToolTable({
  rows,
  disabled,
}: {
  rows: Array<{ key: string; name: string; description?: string; on: boolean; toggle(): void }>;
  disabled: boolean;
}) {
  return (
    <div className="overflow-auto">
      <table className="striped">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Description</th>
            <th scope="col">Allow / deny</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td>
                <code>{row.name}</code>
              </td>
              <td>{row.description}</td>
              <td>
                <label>
                  <input
                    type="checkbox"
                    role="switch"
                    aria-label={`Allow ${row.name}`}
                    checked={row.on}
                    disabled={disabled}
                    onChange={row.toggle}
                  />
                  {row.on ? 'Allowed' : 'Denied'}
                </label>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
