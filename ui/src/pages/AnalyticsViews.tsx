import { BarElement, CategoryScale, Chart, Legend, LinearScale, LineElement, PointElement, Tooltip } from 'chart.js';
import { Line } from 'react-chartjs-2';
import { ms, when, type Row } from './analytics-rows';

Chart.register(CategoryScale, LinearScale, PointElement, LineElement, BarElement, Tooltip, Legend);

/** Charts and tables several analytics views share: traffic over time, and endpoints. */

export function TrafficCharts({ rows, testId = 'traffic-chart' }: { rows: Row[]; testId?: string }) {
  const labels = rows.map(when);
  const common = {
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: 'index' as const, intersect: false },
    plugins: { legend: { position: 'bottom' as const } },
  };
  return (
    <div className="grid">
      <div className="chart" data-testid={testId} role="img" aria-label="Requests, successes and errors over time">
        <Line
          data={{
            labels,
            datasets: [
              { label: 'Requests', data: rows.map((r) => r.hits), borderColor: '#0172ad', backgroundColor: '#0172ad' },
              {
                label: 'Successes',
                data: rows.map((r) => r.success),
                borderColor: '#398712',
                backgroundColor: '#398712',
              },
              { label: 'Errors', data: rows.map((r) => r.error), borderColor: '#d93526', backgroundColor: '#d93526' },
            ],
          }}
          options={{
            ...common,
            scales: {
              x: { offset: true, title: { display: true, text: 'Time (UTC)' } },
              y: { beginAtZero: true, title: { display: true, text: 'Requests' } },
            },
          }}
        />
      </div>
      <div className="chart" role="img" aria-label="Average latency over time">
        <Line
          data={{
            labels,
            datasets: [
              {
                label: 'Total latency',
                data: rows.map((r) => r.latency),
                borderColor: '#8e44ad',
                backgroundColor: '#8e44ad',
              },
              {
                label: 'Upstream latency',
                data: rows.map((r) => r.upstream_latency),
                borderColor: '#e67e22',
                backgroundColor: '#e67e22',
              },
            ],
          }}
          options={{
            ...common,
            scales: {
              x: { offset: true, title: { display: true, text: 'Time (UTC)' } },
              y: { beginAtZero: true, title: { display: true, text: 'Milliseconds (average)' } },
            },
          }}
        />
      </div>
    </div>
  );
}

export function TrafficTable({ rows, label = 'Requests over time' }: { rows: Row[]; label?: string }) {
  return (
    <table className="striped" aria-label={label}>
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

export function EndpointTable({ rows, label = 'Top endpoints' }: { rows: Row[]; label?: string }) {
  const top = [...rows].sort((a, b) => b.hits - a.hits).slice(0, 20);
  return (
    <table className="striped" aria-label={label}>
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
