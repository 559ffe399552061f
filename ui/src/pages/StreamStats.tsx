import { useEffect, useState } from 'react';
import { get, messageOf } from '../api';

interface StreamStats {
  state: string;
  in_flight: number;
  messages_in: number;
  messages_out: number;
  errors: number;
  output_retrying: boolean;
}

const REFRESH_MS = 2000;

/** Counters of each stream of an API, summed over the gateway nodes, refreshed every 2 s. */
export function StreamStatsTable({ id }: { id: string }) {
  const [streams, setStreams] = useState<Record<string, StreamStats> | undefined>(undefined);
  const [error, setError] = useState('');
  useEffect(() => {
    let live = true;
    const load = () =>
      get<{ streams: Record<string, StreamStats> }>(`/apis/streams/${encodeURIComponent(id)}/stats`).then(
        (answer) => live && (setStreams(answer.streams), setError('')),
        (err) => live && setError(messageOf(err)),
      );
    void load();
    const timer = setInterval(() => void load(), REFRESH_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [id]);
  const rows = Object.entries(streams ?? {});
  return (
    <section aria-label="Stream statistics">
      <h2>Streams</h2>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {streams === undefined ? null : rows.length === 0 ? (
        <p>No stream is running on any gateway node.</p>
      ) : (
        <div className="overflow-auto">
          <table className="striped" data-testid="stream-stats">
            <thead>
              <tr>
                <th scope="col">Stream</th>
                <th scope="col">State</th>
                <th scope="col">In</th>
                <th scope="col">Out</th>
                <th scope="col">Errors</th>
                <th scope="col">In flight</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(([name, s]) => (
                <tr key={name} data-stream={name}>
                  <td>{name}</td>
                  <td>{s.output_retrying ? `${s.state} (output retrying)` : s.state}</td>
                  <td data-counter="in">{s.messages_in}</td>
                  <td data-counter="out">{s.messages_out}</td>
                  <td data-counter="errors">{s.errors}</td>
                  <td>{s.in_flight}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
