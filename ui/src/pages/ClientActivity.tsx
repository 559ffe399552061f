import { useEffect, useRef, useState } from 'react';
import { get, query } from '../api';
import { Pager } from '../components/form';
import { Show, useLoad } from '../components/status';
import { ms, type Rows } from './analytics-rows';
import { EndpointTable, TrafficCharts, TrafficTable } from './AnalyticsViews';

/** Who a view is about: a key (by its hash) or an OAuth client, as the activity URLs name them. */
export type ClientKind = 'keys' | 'oauthid';

const NOUN: Record<ClientKind, { title: string; one: string }> = {
  keys: { title: 'Top keys', one: 'key' },
  oauthid: { title: 'Top OAuth clients', one: 'OAuth client' },
};

/** The route of one key's or client's activity on the Analytics page. */
export const activityHref = (kind: ClientKind, id: string) => `#/analytics/${kind}/${encodeURIComponent(id)}`;

/**
 * The keys (or OAuth clients) of the period, busiest first, a page at a time as the server pages
 * them; each links to its own activity.
 */
export function TopClients({ kind, period, apiId }: { kind: ClientKind; period: string; apiId: string }) {
  const [page, setPage] = useState(1);
  const rows = useLoad(
    () => get<Rows>(`/activity/${kind}/${period}${query({ api_id: apiId, p: page })}`),
    `${kind}|${period}|${apiId}|${page}`,
  );
  const { title, one } = NOUN[kind];
  return (
    <article>
      <h2>{title}</h2>
      <Show loaded={rows} what={title.toLowerCase()}>
        {({ data, pages }) =>
          data.length === 0 ? (
            <p>No requests {kind === 'keys' ? 'with a key' : 'from an OAuth client'} in this period.</p>
          ) : (
            <>
              <table className="striped" aria-label={title}>
                <thead>
                  <tr>
                    <th scope="col">{kind === 'keys' ? 'Key (alias, hash)' : 'Client id'}</th>
                    <th scope="col">Requests</th>
                    <th scope="col">Successes</th>
                    <th scope="col">Errors</th>
                    <th scope="col">Latency</th>
                  </tr>
                </thead>
                <tbody>
                  {data.map((r) => {
                    const id = (kind === 'keys' ? r.id.key : r.id.oauth_client_id) ?? '';
                    return (
                      <tr key={id}>
                        <td>
                          <a href={activityHref(kind, id)} title={`Activity of this ${one}`}>
                            {kind === 'keys' && r.id.alias ? <strong>{r.id.alias} </strong> : null}
                            <code>{id}</code>
                          </a>
                        </td>
                        <td>{r.hits}</td>
                        <td>{r.success}</td>
                        <td>{r.error}</td>
                        <td>{ms(r.latency)}</td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
              <Pager page={page} pages={pages} onPage={setPage} />
            </>
          )
        }
      </Show>
    </article>
  );
}

/** One key's or client's traffic in the period: per day (chart or table) and per endpoint. */
export function ClientActivity({
  kind,
  id,
  period,
  view,
}: {
  kind: ClientKind;
  id: string;
  period: string;
  view: 'charts' | 'tables';
}) {
  const path = encodeURIComponent(id);
  const daily = useLoad(() => get<Rows>(`/activity/${kind}/${path}/${period}?p=0`), `${kind}|${id}|${period}`);
  const endpoints = useLoad(
    () => get<Rows>(`/activity/${kind}/endpoint/${path}/${period}?p=0`),
    `${kind}|${id}|${period}`,
  );
  const alias = daily.data?.data.find((r) => r.id.alias)?.id.alias;
  const { one } = NOUN[kind];
  // Opened from a row further down the page: bring the activity into view. (A block body: newer
  // browsers answer scrollIntoView with a promise, which React would take for a cleanup.)
  const article = useRef<HTMLElement>(null);
  useEffect(() => {
    article.current?.scrollIntoView({ block: 'start' });
  }, [kind, id]);
  return (
    <article ref={article} aria-labelledby="client-activity-title" data-testid="client-activity">
      <div className="page-head">
        <h2 id="client-activity-title">
          Activity of {one} {alias ? <strong>{alias} </strong> : null}
          <code>{id}</code>
        </h2>
        <a href="#/analytics" role="button" className="secondary outline small">
          Close
        </a>
      </div>
      <Show loaded={daily} what={`the ${one}'s traffic`}>
        {({ data }) =>
          data.length === 0 ? (
            <p>No requests in this period.</p>
          ) : view === 'charts' ? (
            <TrafficCharts rows={data} testId="client-traffic-chart" />
          ) : (
            <TrafficTable rows={data} label={`Requests of this ${one} over time`} />
          )
        }
      </Show>
      <Show loaded={endpoints} what={`the ${one}'s endpoints`}>
        {({ data }) =>
          data.length === 0 ? (
            <p>No requests to tracked endpoints in this period.</p>
          ) : (
            <EndpointTable rows={data} label={`Endpoints called by this ${one}`} />
          )
        }
      </Show>
    </article>
  );
}
