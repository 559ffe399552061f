import { useState } from 'react';
import { del, get, messageOf, post, put } from '../api';
import { Notice, Show, useLoad } from '../components/status';
import { useSession } from '../session';
import { HookForm, NEW_HOOK, type HookFields } from './HookForm';

interface Hook extends HookFields {
  id: string;
}
interface Delivery {
  id: string;
  event: string;
  status: string;
  attempts: number;
  response_code: number;
  error: string;
  created_at: string;
}

/** Webhooks: add, change and delete them, and read the delivery log of the one picked. */
export function Webhooks() {
  const { can } = useSession();
  const writable = can('hooks', 'write');
  const hooks = useLoad(() => get<{ hooks: Hook[] }>('/hooks?p=0'), 'hooks');
  const [picked, setPicked] = useState<Hook | null>(null);
  const [editing, setEditing] = useState('');
  const [notice, setNotice] = useState('');
  return (
    <section>
      <h1>Webhooks</h1>
      <Notice text={notice} />
      {writable && !editing && <NewHook onCreated={() => (setNotice('Webhook created.'), hooks.reload())} />}
      {editing && (
        <EditHook
          id={editing}
          onDone={(saved) => {
            setEditing('');
            if (saved) {
              setNotice('Webhook updated.');
              hooks.reload();
            }
          }}
        />
      )}
      <Show loaded={hooks} what="webhooks">
        {({ hooks: rows }) =>
          rows.length === 0 ? (
            <p>No webhooks. APIs send events (quota exceeded, key expired, …) to the webhooks they reference.</p>
          ) : (
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Target</th>
                  <th scope="col">Deliveries</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((h) => (
                  <tr key={h.id}>
                    <td>{h.name}</td>
                    <td>
                      <code>
                        {h.method} {h.target_path}
                      </code>
                    </td>
                    <td>
                      <button type="button" className="outline small" onClick={() => setPicked(h)}>
                        Show log
                      </button>{' '}
                      {writable && (
                        <button
                          type="button"
                          className="outline small"
                          onClick={() => (setNotice(''), setEditing(h.id))}
                        >
                          Edit
                        </button>
                      )}{' '}
                      {writable && (
                        <button
                          type="button"
                          className="secondary outline small"
                          onClick={async () =>
                            window.confirm(`Delete the webhook ${h.name}?`) &&
                            (await del(`/hooks/${h.id}`).then(hooks.reload, (err) => window.alert(messageOf(err))))
                          }
                        >
                          Delete
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
      {picked && <DeliveryLog key={picked.id} hook={picked} />}
    </section>
  );
}

/** The newest deliveries of one webhook (the server keeps the last 100). */
function DeliveryLog({ hook }: { hook: Hook }) {
  const log = useLoad(
    () => get<{ deliveries: Delivery[] }>(`/hooks/${encodeURIComponent(hook.id)}/deliveries`),
    hook.id,
  );
  return (
    <article aria-label={`Delivery log of ${hook.name}`}>
      <div className="page-head">
        <h2>Delivery log of {hook.name}</h2>
        <button type="button" className="secondary outline small" onClick={log.reload}>
          Refresh
        </button>
      </div>
      <Show loaded={log} what="deliveries">
        {({ deliveries }) =>
          deliveries.length === 0 ? (
            <p>Nothing delivered yet.</p>
          ) : (
            <table className="striped">
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Answer</th>
                </tr>
              </thead>
              <tbody>
                {deliveries.map((d) => (
                  <tr key={d.id}>
                    <td>{d.created_at}</td>
                    <td>{d.event}</td>
                    <td>{d.status}</td>
                    <td>{d.attempts}</td>
                    <td>{d.error || d.response_code}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Show>
    </article>
  );
}

function NewHook({ onCreated }: { onCreated(): void }) {
  // A new form (empty again) after each webhook made.
  const [round, setRound] = useState(0);
  return (
    <article>
      <h2>Add a webhook</h2>
      <HookForm
        key={round}
        initial={NEW_HOOK}
        submitLabel="Add webhook"
        onSave={async (hook) => {
          await post('/hooks', hook);
          setRound((n) => n + 1);
          onCreated();
        }}
      />
    </article>
  );
}

/** Loads one webhook as the server has it, then saves the whole object back (PUT replaces it). */
function EditHook({ id, onDone }: { id: string; onDone(saved: boolean): void }) {
  const hook = useLoad(() => get<Hook>(`/hooks/${encodeURIComponent(id)}`), id);
  return (
    <article aria-label="Edit webhook">
      <h2>Edit webhook</h2>
      <Show loaded={hook} what="the webhook">
        {(found) => (
          <HookForm
            initial={{ ...NEW_HOOK, ...found, header_map: found.header_map ?? {} }}
            submitLabel="Save webhook"
            onCancel={() => onDone(false)}
            onSave={async ({ name, method, target_path, template_path, header_map, event_timeout }) => {
              await put(`/hooks/${encodeURIComponent(id)}`, {
                name,
                method,
                target_path,
                template_path,
                header_map,
                event_timeout,
              });
              onDone(true);
            }}
          />
        )}
      </Show>
    </article>
  );
}
