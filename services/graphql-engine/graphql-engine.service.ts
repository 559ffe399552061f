import type { ServiceSchema } from 'moleculer';
import { playgroundFolder } from '../../lib/graphql/playground';
import type { Runtime } from '../../lib/runtime';
import { createGraphqlEngine } from './lib/graphql-engine';
import { setDocumentCacheBudget } from './lib/graphql-gate';

/**
 * GraphQL on gateway nodes: schema checks, the playground and WebSocket subscriptions of
 * proxy-only APIs. It takes requests over from proxy in process (contracts/graphql-engine), so
 * it offers its hand-off on the node's Runtime instead of actions; a gateway node without it
 * does not serve GraphQL APIs.
 */
export function graphqlEngineService(runtime: Runtime): ServiceSchema {
  const { config } = runtime;
  return {
    name: 'graphql-engine',
    created() {
      setDocumentCacheBudget(config.graphqlDocumentCacheBytes);
      runtime.handOffs.provide(
        'graphql-engine',
        createGraphqlEngine({
          playgroundFolder: playgroundFolder(config.templatePath),
          initTimeoutMs: config.graphqlWsInitTimeout * 1000,
          warn: (message) => this.logger.warn(message),
        }),
      );
    },
    stopped() {
      runtime.handOffs.withdraw('graphql-engine');
    },
  };
}
