import type { LoggerInstance, ServiceBroker } from 'moleculer';
import type { ActionParams, ActionResult } from '../../../contracts/actions';
import type { NodeConfig } from '../../../lib/runtime';
import { AnalyticsRecorder } from './analytics-recorder';
import { openCountryLookup } from './geoip';

export type { AnalyticsRecorder };

/** How long a gateway node waits for the analytics service to take a batch before dropping it. */
const SEND_TIMEOUT_MS = 5000;

/** Whether some node of the cluster (this one included) runs the analytics service. */
export function analyticsServiceKnown(broker: ServiceBroker): boolean {
  return (broker.registry as unknown as { hasService(name: string): boolean }).hasService('analytics');
}

/**
 * The gateway node's recorder, started; undefined when GW_ANALYTICS is off. The proxy service
 * calls its `refreshAvailability()` on the registry's `$services.changed` and `$node.disconnected`.
 */
export async function createRecorder(
  config: NodeConfig,
  broker: ServiceBroker,
  logger: LoggerInstance,
): Promise<AnalyticsRecorder | undefined> {
  if (!config.analytics) return undefined;
  const recorder = new AnalyticsRecorder({
    // Moleculer's retry policy is off (moleculer.config.ts) and no retry is asked here: a batch
    // is sent once, so a record is never stored twice.
    send: (batch) => {
      // Checked first so a node without analytics anywhere in the cluster drops quietly (the
      // recorder's own rate-limited warning) instead of Moleculer logging every batch.
      if (!analyticsServiceKnown(broker)) {
        return Promise.reject(new Error('no node of the cluster runs the analytics service'));
      }
      const params: ActionParams<'analytics.ingest'> = { batch };
      return broker.call<ActionResult<'analytics.ingest'>, ActionParams<'analytics.ingest'>>(
        'analytics.ingest',
        params,
        { timeout: SEND_TIMEOUT_MS, retries: 0 },
      );
    },
    logger,
    flushIntervalMs: config.analyticsFlushInterval * 1000,
    bufferSize: config.analyticsBufferSize,
    country: config.geoipDb ? await openCountryLookup(config.geoipDb) : undefined,
    analyticsKnown: () => analyticsServiceKnown(broker),
  });
  recorder.start();
  return recorder;
}
