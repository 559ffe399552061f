import { GraphQLError } from 'graphql';
import type { ActivityGrouping, AnalyticsActivityParams, AnalyticsRecord } from '../../../contracts/analytics/actions';
import { periodFromParams } from '../lib/activity-period';
import { guarded, page, type GraphqlContext } from './guard';

interface PeriodArgs {
  from: string;
  to: string;
  page?: number;
  apiId?: string | null;
  keyHash?: string | null;
  oauthClientId?: string | null;
}

/** `from`/`to` as YYYY-MM-DD, checked as the REST API checks its day/month/year path parts. */
function period(args: PeriodArgs): { from: number; to: number } {
  const parts = (value: string, which: string) => {
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (!match)
      throw new GraphQLError(`${which} must be a date as YYYY-MM-DD, got '${value}'`, {
        extensions: { code: 'BAD_REQUEST', status: 400 },
      });
    return match;
  };
  const [, startYear, startMonth, startDay] = parts(args.from, 'from');
  const [, endYear, endMonth, endDay] = parts(args.to, 'to');
  return periodFromParams({ startDay, startMonth, startYear, endDay, endMonth, endYear });
}

/** One activity view of the caller's organisation, as the REST activity routes read it. */
async function activity(group: ActivityGrouping, args: PeriodArgs, { caller, call }: GraphqlContext) {
  const params: AnalyticsActivityParams = { org_id: caller.org_id, group, ...period(args), page: page(args.page) };
  if (args.apiId) params.api_id = args.apiId;
  if (args.keyHash) params.key_hash = args.keyHash;
  if (args.oauthClientId) params.oauth_client_id = args.oauthClientId;
  const result = await call('analytics.activity', params);
  return { items: result.data.map(recordOf), pages: result.pages };
}

/** The analytics root fields: each needs `analytics: read`, as the REST activity routes. */
export const analyticsResolvers = {
  activityByApi: guarded('analytics', (args: PeriodArgs, ctx) => activity('api', args, ctx)),
  activityByEndpoint: guarded('analytics', (args: PeriodArgs, ctx) => activity('endpoint', args, ctx)),
  usage: guarded('analytics', (args: PeriodArgs & { resolution?: 'HOUR' | 'DAY' }, ctx) =>
    activity(args.resolution === 'HOUR' ? 'hour' : 'day', args, ctx),
  ),
  errorsByApi: guarded('analytics', (args: PeriodArgs, ctx) => activity('error', args, ctx)),
  activityByCountry: guarded('analytics', (args: PeriodArgs, ctx) => activity('geo', args, ctx)),
  activityByKey: guarded('analytics', (args: PeriodArgs, ctx) => activity('key', args, ctx)),
  activityByOAuthClient: guarded('analytics', (args: PeriodArgs, ctx) => activity('oauth_client', args, ctx)),
};

function recordOf(record: AnalyticsRecord) {
  const {
    iso_country: isoCountry,
    api_id: apiId,
    api_name: apiName,
    oauth_client_id: oauthClientId,
    ...id
  } = record.id;
  return {
    id: { ...id, isoCountry, apiId, apiName, oauthClientId },
    hits: record.hits,
    success: record.success,
    error: record.error,
    lastHit: record.last_hit,
    latency: record.latency,
    upstreamLatency: record.upstream_latency,
    maxLatency: record.max_latency,
    minLatency: record.min_latency,
    maxUpstreamLatency: record.max_upstream_latency,
    minUpstreamLatency: record.min_upstream_latency,
  };
}
