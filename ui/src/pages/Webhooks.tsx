import { useState } from 'react';
import { get } from '../api';
import { Show, useLoad } from '../components/status';

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
  const hooks = useLoad(() => get<{ hooks: Hook[] }>('/hooks?p=0'), 'hooks');
  const [picked, setPicked] = useState('');
  return (
    <section>
      <h1>Webhooks</h1>
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
                      </button>
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
