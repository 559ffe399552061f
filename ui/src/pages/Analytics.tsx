import { useState } from 'react';
import { Bar } from 'react-chartjs-2';
import { get, query } from '../api';
import { SelectField, TextField } from '../components/form';
import { Show, useLoad } from '../components/status';
import { useApis } from './access';
import { day, ms, pathDate, type Row, type Rows } from './analytics-rows';
import { EndpointTable, TrafficCharts, TrafficTable } from './AnalyticsViews';
import { ClientActivity, TopClients } from './ClientActivity';

/**
 * Traffic over time, top endpoints, errors, top keys and OAuth clients for a period, from the
 * activity views. `#/analytics/keys/<hash>` (or `oauthid/<client id>`) also shows that one's activity.
 */
export function Analytics({ rest = [] }: { rest?: string[] }) {
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
          <button
            type="button"
            className={view === 'charts' ? '' : 'outline'}
            aria-pressed={view === 'charts'}
            onClick={() => setView('charts')}
          >
            Charts
          </button>
          <button
            type="button"
            className={view === 'tables' ? '' : 'outline'}
            aria-pressed={view === 'tables'}
            onClick={() => setView('tables')}
          >
            Tables
          </button>
        </div>
      </div>
      <form
        className="grid filters"
        aria-label="Period and filters"
        onSubmit={(e: { preventDefault(): void }) => e.preventDefault()}
      >
        <TextField label="From" name="from" type="date" value={from} onChange={setFrom} />
        <TextField label="To" name="to" type="date" value={to} onChange={setTo} />
        <SelectField
          label="Resolution"
          name="resolution"
          value={resolution}
          options={[
            ['day', 'Day'],
            ['hour', 'Hour'],
          ]}
          onChange={setResolution}
        />
        <SelectField
          label="API"
          name="api"
          value={apiId}
          options={[['', 'All APIs'], ...(apis.data ?? []).map((d) => [d.api_id, d.name] as [string, string])]}
          onChange={setApiId}
        />
      </form>
      {(rest[0] === 'keys' || rest[0] === 'oauthid') && rest[1] && (
        <ClientActivity kind={rest[0]} id={rest[1]} period={period} view={view} />
      )}
      <article>
        <h2>Requests over time</h2>
        <Show loaded={usage} what="traffic">
          {({ data }) =>
            data.length === 0 ? (
              <p>No requests in this period.</p>
            ) : view === 'charts' ? (
              <TrafficCharts rows={data} />
            ) : (
              <TrafficTable rows={data} />
            )
          }
        </Show>
      </article>
      <div className="grid">
        <article>
          <h2>Errors by status</h2>
          <Show loaded={errors} what="errors">
            {({ data }) =>
              data.length === 0 ? (
                <p>No errors in this period.</p>
              ) : view === 'charts' ? (
                <ErrorChart rows={data} />
              ) : (
                <ErrorTable rows={data} />
              )
            }
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
      <div className="grid">
        <TopClients key={`keys|${key}`} kind="keys" period={period} apiId={apiId} />
        <TopClients key={`oauthid|${key}`} kind="oauthid" period={period} apiId={apiId} />
      </div>
    </section>
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
        data={{
          labels: codes.map(([code]) => String(code)),
          datasets: [{ label: 'Errors', data: codes.map(([, hits]) => hits), backgroundColor: '#d93526' }],
        }}
        options={{
          responsive: true,
          maintainAspectRatio: false,
          plugins: { legend: { position: 'bottom' } },
          scales: {
            x: { title: { display: true, text: 'Status code' } },
            y: { beginAtZero: true, title: { display: true, text: 'Requests' } },
          },
        }}
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
