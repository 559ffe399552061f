import { Errors, type Context, type ServiceSchema } from 'moleculer';
import {
  analyticsActionParams,
  type AnalyticsActivityParams,
  type AnalyticsIngestParams,
} from '../../contracts/analytics/actions';
import { batchProblem } from '../../contracts/analytics/record-batch';
import type { ServiceActions } from '../../lib/bus/actions';
import type { Runtime } from '../../lib/runtime';
import { migrate } from '../../lib/store/migrate';
import { queryActivity } from './lib/activity-query';
import { openAnalyticsWriter, type AnalyticsWriter } from './lib/analytics-writer';
import { ANALYTICS_MIGRATIONS } from './lib/migrations';

function checkIngest(params: AnalyticsIngestParams): void {
  const problem = batchProblem(params?.batch);
  if (problem !== undefined)
    throw new Errors.ValidationError(`Parameters validation error! ${problem}`, 'VALIDATION_ERROR', [
      { field: 'batch', message: problem },
    ] as never);
}

/**
 * Analytics built into gw (no separate pump): gateway nodes send batches of records
 * (`analytics.ingest`), this service stores them raw (expired per API) and as hourly aggregates
 * (both removed past GW_ANALYTICS_RETENTION), and answers the dashboard's activity views
 * (`analytics.activity`). Batches are folded, packed and written in a writer thread with a
 * database connection of its own (lib/store-thread.ts), so an embedded node's gateway thread only
 * hands them over; the activity views read on the node's connection.
 */
export function analyticsService(runtime: Runtime): ServiceSchema {
  let writer: AnalyticsWriter | undefined;
  let sweepTimer: NodeJS.Timeout | undefined;
  return {
    name: 'analytics',
    actions: {
      ingest: {
        // Checked here rather than by Moleculer's validator: a batch from this node's own
        // recorder is checked by the compiler, and checking every value of a batch costs about
        // as much as storing it. A batch from another node is checked.
        handler: async (ctx: Context<AnalyticsIngestParams>) => {
          if (ctx.nodeID !== ctx.broker.nodeID) checkIngest(ctx.params);
          if (!writer) throw new Error('the analytics service is not started');
          return { stored: await writer.ingest(ctx.params.batch) };
        },
      },
      activity: {
        params: analyticsActionParams.activity,
        handler: (ctx: Context<AnalyticsActivityParams>) =>
          queryActivity(runtime.database(), ctx.params, runtime.config.pageSize),
      },
    } satisfies ServiceActions<'analytics'>,
    async started() {
      const db = runtime.database();
      await migrate(db, 'analytics', ANALYTICS_MIGRATIONS);
      const { config } = runtime;
      const started = await openAnalyticsWriter(db, {
        databaseUrl: config.databaseUrl,
        thread: config.analyticsWriterThread,
        pathsPerApiHour: config.analyticsPathsPerApiHour,
        retention: config.analyticsRetention,
      });
      writer = started;
      sweepTimer = setInterval(() => {
        started
          .sweep()
          .catch((err: unknown) =>
            this.logger.warn(`analytics: removing expired records failed: ${(err as Error).message}`),
          );
      }, config.analyticsSweepInterval * 1000);
      sweepTimer.unref();
    },
    async stopped() {
      clearInterval(sweepTimer);
      sweepTimer = undefined;
      // Every batch already taken is stored before the node closes its database.
      await writer?.stop();
    },
  };
}
