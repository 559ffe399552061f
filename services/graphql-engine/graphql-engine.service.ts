import type { ServiceSchema } from 'moleculer';
import { playgroundFolder } from '../../lib/graphql/playground';
import type { Runtime } from '../../lib/runtime';
import { createGraphqlEngine, type GraphqlEngine } from './lib/graphql-engine';
import { setDocumentCacheBudget } from './lib/graphql-gate';

/**
 * GraphQL on gateway nodes: schema checks, the playground and WebSocket subscriptions of
 * proxy-only APIs, and the execution of combined graphs over their data sources. It takes requests over from proxy in process (contracts/graphql-engine), so
 * it offers its hand-off on the node's Runtime instead of actions; a gateway node without it
 * does not serve GraphQL APIs.
 */
export function graphqlEngineService(runtime: Runtime): ServiceSchema {
  const { config } = runtime;
  let engine: GraphqlEngine | undefined;
  return {
    name: 'graphql-engine',
    created() {
      setDocumentCacheBudget(config.graphqlDocumentCacheBytes);
      engine = createGraphqlEngine({
        playgroundFolder: playgroundFolder(config.templatePath),
        initTimeoutMs: config.graphqlWsInitTimeout * 1000,
        dataSourceTimeoutMs: config.proxyTimeout * 1000,
      });
      runtime.handOffs.provide('graphql-engine', engine);
    },
    async stopped() {
      runtime.handOffs.withdraw('graphql-engine');
      await engine?.close();
    },
  };
}
