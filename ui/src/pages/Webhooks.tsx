import { useState } from 'react';
import { del, get, messageOf, post } from '../api';
import { NumberField, SelectField, TextField } from '../components/form';
import { ErrorBox, Show, useLoad } from '../components/status';
import { useSession } from '../session';

interface Hook {
  id: string;
  name: string;
  method: string;
  target_path: string;
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

/** Webhooks and, for the one picked, its delivery log. */
export function Webhooks() {
  const { can } = useSession();
  const writable = can('hooks', 'write');
  const hooks = useLoad(() => get<{ hooks: Hook[] }>('/hooks?p=0'), 'hooks');
  const [picked, setPicked] = useState('');
  return (
    <section>
      <h1>Webhooks</h1>
      {writable && <NewHook onCreated={hooks.reload} />}
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
                      <button type="button" className="outline small" onClick={() => setPicked(h.id)}>
                        Show log
                      </button>{' '}
                      {writable && (
                        <button
                          type="button"
                          className="secondary outline small"
                          onClick={async () => window.confirm(`Delete the webhook ${h.name}?`) && (await del(`/hooks/${h.id}`).then(hooks.reload, (err) => window.alert(messageOf(err))))}
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
      {picked && <DeliveryLog id={picked} />}
    </section>
  );
}

function DeliveryLog({ id }: { id: string }) {
  const log = useLoad(() => get<{ deliveries: Delivery[] }>(`/hooks/${encodeURIComponent(id)}/deliveries`), id);
  return (
    <article>
      <h2>Delivery log</h2>
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
  const [hook, setHook] = useState({ name: '', method: 'POST', target_path: 'https://', event_timeout: 60 });
  const [error, setError] = useState('');
  const create = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    setError('');
    try {
      await post('/hooks', { ...hook, header_map: {}, template_path: '' });
      setHook({ name: '', method: 'POST', target_path: 'https://', event_timeout: 60 });
      onCreated();
    } catch (err) {
      setError(messageOf(err));
    }
  };
  return (
    <article>
      <h2>Add a webhook</h2>
      <form onSubmit={create}>
        <div className="grid">
          <TextField label="Name" name="hook-name" value={hook.name} onChange={(name) => setHook({ ...hook, name })} required />
          <SelectField label="Method" name="hook-method" value={hook.method} options={['POST', 'PUT', 'GET', 'PATCH'].map((m) => [m, m] as [string, string])} onChange={(method) => setHook({ ...hook, method })} />
          <TextField label="Target URL" name="target_path" value={hook.target_path} onChange={(target_path) => setHook({ ...hook, target_path })} required />
          <NumberField label="Quiet period (s)" name="event_timeout" value={hook.event_timeout} onChange={(event_timeout) => setHook({ ...hook, event_timeout })} hint="The same event for the same key is not sent again within it" />
        </div>
        {error && <ErrorBox error={error} />}
        <button type="submit">Add webhook</button>
      </form>
    </article>
  );
}
