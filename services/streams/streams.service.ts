import type { Context, Service, ServiceBroker, ServiceSchema } from 'moleculer';
import { streamsActionParams, type StreamsApiStats, type StreamsStatsParams } from '../../contracts/streams/actions';
import { setDefaultTimeBudget } from './bloblang';
import { sumStats } from './lib/sum-stats';
import type { ServiceActions } from '../../lib/bus/actions';
import type { Runtime } from '../../lib/runtime';
import { registerStreamMetrics } from './lib/stream-metrics';
import { StreamsEngine } from './lib/streams-engine';

/**
 * Event streams on gateway nodes: each stream API's streams run here, and proxy hands the
 * requests of their HTTP endpoints over in process (contracts/streams/hand-off.ts).
 * `streams.stats` answers this node's counters of one API.
 */
export function streamsService(runtime: Runtime): ServiceSchema {
  const { config } = runtime;
  let engine: StreamsEngine;
  return {
    name: 'streams',
    actions: {
      stats: {
        params: streamsActionParams.stats,
        async handler(this: Service, ctx: Context<StreamsStatsParams>): Promise<StreamsApiStats> {
          const own = { node: this.broker.nodeID, ...engine.statsOf(ctx.params.api_id) };
          if (ctx.params.local) return own;
          // Every gateway node runs the streams: ask the others for theirs and sum them.
          const others = gatewayNodes(this.broker).filter((id) => id !== this.broker.nodeID);
          const answers = await Promise.all(
            others.map((nodeID) =>
              ctx
                .call<StreamsApiStats, StreamsStatsParams>(
                  'streams.stats',
                  { api_id: ctx.params.api_id, local: true },
                  { nodeID },
                )
                .catch(() => undefined),
            ),
          );
          return sumStats([own, ...answers.filter((a): a is StreamsApiStats => a !== undefined)]);
        },
      },
    } satisfies ServiceActions<'streams'>,
    created() {
      // Tenant mappings run on the thread every API of the node shares: each evaluation gets this much.
      setDefaultTimeBudget(config.streamsMappingTimeBudget);
      const configured = [
        config.gatewayPort,
        config.dashboardPort,
        ...(config.gatewayTlsPort !== undefined ? [config.gatewayTlsPort] : []),
      ];
      // The ports this node's servers really bound (port 0 in tests picks one at start).
      const bound = () =>
        ['proxy', 'api'].flatMap((name) => {
          const service = this.broker.getLocalService(name) as unknown as
            { port?: number; tlsPort?: number } | undefined;
          return [service?.port, service?.tlsPort].filter((p): p is number => typeof p === 'number');
        });
      engine = new StreamsEngine({
        policy: { ownPorts: () => new Set([...configured, ...bound()]) },
        options: {
          maxInFlight: 64,
          backoffMs: 100,
          maxBackoffMs: 5_000,
          drainMs: config.streamsDrainTimeout * 1000,
          log: (level, message) => this.logger[level](message),
        },
      });
      registerStreamMetrics(runtime.metrics.registry, () => engine.stats());
      runtime.handOffs.provide('streams', engine);
    },
    async stopped() {
      runtime.handOffs.withdraw('streams');
      await engine.stopAll();
    },
  };
}

/** The nodes that run the streams service (gateway nodes), as the registry sees them. */
function gatewayNodes(broker: ServiceBroker): string[] {
  const services = broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }) as Array<{
    name: string;
    nodeID: string;
  }>;
  return [...new Set(services.filter((s) => s.name === 'streams').map((s) => s.nodeID))];
}
