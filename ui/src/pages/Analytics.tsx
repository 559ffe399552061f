import { BarElement, CategoryScale, Chart, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';
import { useState } from 'react';
import { Bar, Line } from 'react-chartjs-2';
import { get, query } from '../api';
import { SelectField, TextField } from '../components/form';
import { Show, useLoad } from '../components/status';
import { useApis } from './access';

Chart.register(CategoryScale, LinearScale, PointElement, LineElement, BarElement, Tooltip, Legend);

interface Row {
  id: { day?: number; month?: number; year?: number; hour?: number; code?: number; path?: string; url?: string; api_id?: string; api_name?: string; key?: string; alias?: string };
  hits: number;
  success: number;
  error: number;
  latency: number;
  upstream_latency: number;
}
type Rows = { data: Row[]; pages: number };

const day = (d: Date) => d.toISOString().slice(0, 10);
/** `2026-11-22` → `22/11/2026`, the path form of the activity views. */
const pathDate = (iso: string) => iso.split('-').reverse().map(Number).join('/');
const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
const when = (r: Row) => `${r.id.year}-${pad(r.id.month)}-${pad(r.id.day)}${r.id.hour === undefined ? '' : ` ${pad(r.id.hour)}:00`}`;
const ms = (n: number) => `${Math.round(n * 10) / 10} ms`;

/** Traffic over time, top endpoints and errors for a period, from the activity views. */
export function Analytics() {
  const today = new Date();
  const [from, setFrom] = useState(day(new Date(today.getTime() - 6 * 86_400_000)));
  const [to, setTo] = useState(day(today));
  const [resolution, setResolution] = useState('day');
  const [apiId, setApiId] = useState('');
  const [view, setView] = useState<'charts' | 'tables'>('charts');
  const apis = useApis();
  const period = `${pathDate(from)}/${pathDate(to)}`;
  const filter = query({ api_id: apiId, p: 0 });
  const key = `${period}|${apiId}|${resolution}`;
  const usage = useLoad(() => get<Rows>(`/usage/apis/${period}${query({ api_id: apiId, resolution, p: 0 })}`), key);
  const errors = useLoad(() => get<Rows>(`/activity/errors/${period}${filter}`), key);
  const endpoints = useLoad(() => get<Rows>(`/activity/endpoints/${period}${filter}`), key);
  const byApi = useLoad(() => get<Rows>(`/activity/apis/${period}${filter}`), key);
  return (
    <section>
      <div className="page-head">
        <h1>Analytics</h1>
        <div role="group" aria-label="View">
          <button type="button" className={view === 'charts' ? '' : 'outline'} aria-pressed={view === 'charts'} onClick={() => setView('charts')}>
            Charts
          </button>
          <button type="button" className={view === 'tables' ? '' : 'outline'} aria-pressed={view === 'tables'} onClick={() => setView('tables')}>
            Tables
          </button>
        </div>
      </div>
      <form className="grid filters" aria-label="Period and filters" onSubmit={(e: { preventDefault(): void }) => e.preventDefault()}>
        <TextField label="From" name="from" type="date" value={from} onChange={setFrom} />
        <TextField label="To" name="to" type="date" value={to} onChange={setTo} />
        <SelectField label="Resolution" name="resolution" value={resolution} options={[['day', 'Day'], ['hour', 'Hour']]} onChange={setResolution} />
        <SelectField label="API" name="api" value={apiId} options={[['', 'All APIs'], ...(apis.data ?? []).map((d) => [d.api_id, d.name] as [string, string])]} onChange={setApiId} />
      </form>
      <article>
        <h2>Requests over time</h2>
        <Show loaded={usage} what="traffic">
          {({ data }) => (data.length === 0 ? <p>No requests in this period.</p> : view === 'charts' ? <TrafficCharts rows={data} /> : <TrafficTable rows={data} />)}
        </Show>
      </article>
      <div className="grid">
        <article>
          <h2>Errors by status</h2>
          <Show loaded={errors} what="errors">
            {({ data }) => (data.length === 0 ? <p>No errors in this period.</p> : view === 'charts' ? <ErrorChart rows={data} /> : <ErrorTable rows={data} />)}
          </Show>
        </article>
        <article>
          <h2>Top endpoints</h2>
          <Show loaded={endpoints} what="endpoints">
            {({ data }) => (data.length === 0 ? <p>No requests in this period.</p> : <EndpointTable rows={data} />)}
          </Show>
        </article>
      </div>
      <article>
        <h2>By API</h2>
        <Show loaded={byApi} what="activity by API">
          {({ data }) => (data.length === 0 ? <p>No requests in this period.</p> : <ApiTable rows={data} />)}
        </Show>
      </article>
      <KeyActivity period={period} />
    </section>
  );
}

function TrafficCharts({ rows }: { rows: Row[] }) {
  const labels = rows.map(when);
  const common = { responsive: true, maintainAspectRatio: false, interaction: { mode: 'index' as const, intersect: false }, plugins: { legend: { position: 'bottom' as const } } };
  return (
    <div className="grid">
      <div className="chart" data-testid="traffic-chart" role="img" aria-label="Requests, successes and errors over time">
        <Line
          data={{
            labels,
            datasets: [
              { label: 'Requests', data: rows.map((r) => r.hits), borderColor: '#0172ad', backgroundColor: '#0172ad' },
              { label: 'Successes', data: rows.map((r) => r.success), borderColor: '#398712', backgroundColor: '#398712' },
              { label: 'Errors', data: rows.map((r) => r.error), borderColor: '#d93526', backgroundColor: '#d93526' },
            ],
          }}
          options={{ ...common, scales: { x: { offset: true, title: { display: true, text: 'Time (UTC)' } }, y: { beginAtZero: true, title: { display: true, text: 'Requests' } } } }}
        />
      </div>
      <div className="chart" role="img" aria-label="Average latency over time">
        <Line
          data={{
            labels,
            datasets: [
              { label: 'Total latency', data: rows.map((r) => r.latency), borderColor: '#8e44ad', backgroundColor: '#8e44ad' },
              { label: 'Upstream latency', data: rows.map((r) => r.upstream_latency), borderColor: '#e67e22', backgroundColor: '#e67e22' },
            ],
          }}
          options={{ ...common, scales: { x: { offset: true, title: { display: true, text: 'Time (UTC)' } }, y: { beginAtZero: true, title: { display: true, text: 'Milliseconds (average)' } } } }}
        />
      </div>
    </div>
  );
}

function TrafficTable({ rows }: { rows: Row[] }) {
  return (
    <table className="striped" aria-label="Requests over time">
      <thead>
        <tr>
          <th scope="col">Time (UTC)</th>
          <th scope="col">Requests</th>
          <th scope="col">Successes</th>
          <th scope="col">Errors</th>
          <th scope="col">Latency</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={when(r)}>
            <td>{when(r)}</td>
            <td>{r.hits}</td>
            <td>{r.success}</td>
            <td>{r.error}</td>
            <td>{ms(r.latency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function byCode(rows: Row[]): Array<[number, number]> {
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.id.code ?? 0, (counts.get(r.id.code ?? 0) ?? 0) + r.hits);
  return [...counts.entries()].sort((a, b) => a[0] - b[0]);
}

function ErrorChart({ rows }: { rows: Row[] }) {
  const codes = byCode(rows);
  return (
    <div className="chart" data-testid="error-chart">
      <Bar
        data={{ labels: codes.map(([code]) => String(code)), datasets: [{ label: 'Errors', data: codes.map(([, hits]) => hits), backgroundColor: '#d93526' }] }}
        options={{ responsive: true, maintainAspectRatio: false, plugins: { legend: { position: 'bottom' } }, scales: { x: { title: { display: true, text: 'Status code' } }, y: { beginAtZero: true, title: { display: true, text: 'Requests' } } } }}
      />
      <ErrorTable rows={rows} />
    </div>
  );
}

function ErrorTable({ rows }: { rows: Row[] }) {
  return (
    <table className="striped" aria-label="Errors by API and status">
      <thead>
        <tr>
          <th scope="col">API</th>
          <th scope="col">Status</th>
          <th scope="col">Requests</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={`${r.id.api_id}-${r.id.code}`}>
            <td>{r.id.api_name || r.id.api_id}</td>
            <td>{r.id.code}</td>
            <td>{r.hits}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ApiTable({ rows }: { rows: Row[] }) {
  return (
    <table className="striped" aria-label="Requests by API">
      <thead>
        <tr>
          <th scope="col">API</th>
          <th scope="col">Requests</th>
          <th scope="col">Successes</th>
          <th scope="col">Errors</th>
          <th scope="col">Latency</th>
        </tr>
      </thead>
      <tbody>
        {[...rows]
          .sort((a, b) => b.hits - a.hits)
          .map((r) => (
            <tr key={r.id.api_id}>
              <td>{r.id.api_name || r.id.api_id}</td>
              <td>{r.hits}</td>
              <td>{r.success}</td>
              <td>{r.error}</td>
              <td>{ms(r.latency)}</td>
            </tr>
          ))}
      </tbody>
    </table>
  );
}

function EndpointTable({ rows }: { rows: Row[] }) {
  const top = [...rows].sort((a, b) => b.hits - a.hits).slice(0, 20);
  return (
    <table className="striped" aria-label="Top endpoints">
      <thead>
        <tr>
          <th scope="col">Endpoint</th>
          <th scope="col">API</th>
          <th scope="col">Requests</th>
          <th scope="col">Errors</th>
          <th scope="col">Latency</th>
        </tr>
      </thead>
      <tbody>
        {top.map((r) => (
          <tr key={`${r.id.api_id}-${r.id.path ?? r.id.url}`}>
            <td>
              <code>{r.id.path ?? r.id.url}</code>
            </td>
            <td>{r.id.api_name}</td>
            <td>{r.hits}</td>
            <td>{r.error}</td>
            <td>{ms(r.latency)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function KeyActivity({ period }: { period: string }) {
  const [kind, setKind] = useState<'keys' | 'oauthid'>('keys');
  const [id, setId] = useState('');
  const [shown, setShown] = useState<{ kind: string; id: string } | null>(null);
  return (
    <article>
      <h2>Activity of one key or OAuth client</h2>
      <form
        className="grid"
        onSubmit={(e: { preventDefault(): void }) => {
          e.preventDefault();
          setShown({ kind, id: id.trim() });
        }}
      >
        <SelectField label="By" name="activity-by" value={kind} options={[['keys', 'Key hash'], ['oauthid', 'OAuth client id']]} onChange={(v) => setKind(v as 'keys' | 'oauthid')} />
        <TextField label={kind === 'keys' ? 'Key hash' : 'OAuth client id'} name="activity-id" value={id} onChange={setId} hint={kind === 'keys' ? 'Shown when the key was created, and in the key list of each API' : 'From the OAuth clients list on the Keys page'} />
        <div className="inline-actions">
          <button type="submit">Show</button>
        </div>
      </form>
      {shown && shown.id && <ActivityOf kind={shown.kind} id={shown.id} period={period} />}
    </article>
  );
}

function ActivityOf({ kind, id, period }: { kind: string; id: string; period: string }) {
  const rows = useLoad(() => get<Rows>(`/activity/${kind}/endpoint/${encodeURIComponent(id)}/${period}?p=0`), `${kind}|${id}|${period}`);
  return <Show loaded={rows} what="activity">{({ data }) => (data.length === 0 ? <p>No requests in the period.</p> : <EndpointTable rows={data} />)}</Show>;
}
