import type { ActivityGrouping, AnalyticsActivityParams } from '../../../contracts/analytics/actions';
import type { Caller } from '../../../contracts/users/actions';
import { HttpProblem } from '../../../lib/http/problem';
import type { Route, RouteContext } from '../../../lib/http/surface';
import { PERIOD_PATH, periodFromParams } from '../lib/activity-period';
import { pageFromQuery } from '../lib/page-param';

const READ = { name: 'analytics', level: 'read' } as const;

type Filter = Pick<AnalyticsActivityParams, 'key_hash' | 'oauth_client_id' | 'api_id' | 'iso_country'>;

/** One activity view: the caller's organisation, the period of the URL, a grouping and a filter. */
function activity(
  path: string,
  group: ActivityGrouping | ((ctx: RouteContext<Caller>) => ActivityGrouping),
  filter: (ctx: RouteContext<Caller>) => Filter = () => ({}),
): Route<Caller> {
  return {
    method: 'get',
    path: `${path}/${PERIOD_PATH}`,
    permission: READ,
    handle: async (ctx) => {
      const { from, to } = periodFromParams(ctx.params);
      const page = pageFromQuery(ctx.query);
      const apiId = typeof ctx.query.api_id === 'string' && ctx.query.api_id !== '' ? ctx.query.api_id : undefined;
      const grouping = typeof group === 'function' ? group(ctx) : group;
      return {
        body: await ctx.call('analytics.activity', {
          org_id: ctx.caller.org_id,
          group: grouping,
          from,
          to,
          page,
          api_id: apiId,
          ...filter(ctx),
        }),
      };
    },
  };
}

/** `?resolution=hour|day` of the usage views (day when absent). */
function resolution({ query }: RouteContext<Caller>): ActivityGrouping {
  const value = query.resolution ?? 'day';
  if (value !== 'hour' && value !== 'day')
    throw new HttpProblem(400, `Query parameter resolution must be 'hour' or 'day', got '${String(value)}'`);
  return value;
}

/** The `:country` of a per-country view: an ISO 3166-1 alpha-2 code, in either case. */
function country({ params }: RouteContext<Caller>): Filter {
  if (!/^[A-Za-z]{2}$/.test(params.country))
    throw new HttpProblem(400, `The country must be an ISO 3166-1 alpha-2 code such as GB, got '${params.country}'`);
  return { iso_country: params.country.toUpperCase() };
}

/**
 * Analytics of the caller's organisation (docs/analytics-and-metrics.md#activity-views):
 * `{data: [<analytics record>], pages}`, read from the hourly aggregates of the analytics
 * service. Periods are whole UTC days.
 */
export const dashboardAnalyticsRoutes: Array<Route<Caller>> = [
  activity('/activity/keys/endpoint/:keyHash', 'endpoint', ({ params }) => ({ key_hash: params.keyHash })),
  activity('/activity/oauthid/endpoint/:clientId', 'endpoint', ({ params }) => ({ oauth_client_id: params.clientId })),
  activity('/activity/keys/:keyHash', 'day', ({ params }) => ({ key_hash: params.keyHash })),
  activity('/activity/oauthid/:clientId', 'day', ({ params }) => ({ oauth_client_id: params.clientId })),
  // Every key (and every OAuth client) seen in the period, busiest first: the reference
  // dashboard's "Activity per Key" table. Requests without a key (or client) are not listed.
  activity('/activity/keys', 'key'),
  activity('/activity/oauthid', 'oauth_client'),
  activity('/activity/apis', 'api'),
  activity('/activity/endpoints', 'endpoint'),
  activity('/activity/errors', 'error'),
  activity('/usage/apis', resolution),
  // The reference dashboard's geographic distribution: requests per country, then one
  // country's requests over time. Only requests whose country GW_GEOIP_DB knew are counted.
  activity('/activity/geo', 'geo'),
  activity('/activity/geo/:country', resolution, country),
];
