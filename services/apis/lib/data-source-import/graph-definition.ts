import type { ApisCreateParams } from '../../../../contracts/apis/actions';
import type { GeneratedGraph } from './generated-graph';

/**
 * Where a combined graph without REST data sources "proxies" to: the gateway wants a parsable
 * http(s) `target_url` on every API, and a combined graph never forwards requests to it.
 */
const UNUSED_TARGET = 'http://127.0.0.1/';

/**
 * The API definition of an imported graph: a combined graph (`executionEngine`, the reference
 * gateway's UDG version 2 format) that is active and protected by the default authentication
 * (access tokens), with its playground off; the caller opens it up as they would any API.
 */
export function graphDefinition(graph: GeneratedGraph, apiId: string, listenPath: string): ApisCreateParams['api_definition'] {
  return {
    name: graph.title,
    api_id: apiId,
    active: true,
    use_keyless: false,
    proxy: { listen_path: listenPath, target_url: graph.baseUrl ? `${graph.baseUrl}/` : UNUSED_TARGET, strip_listen_path: true },
    graphql: {
      enabled: true,
      execution_mode: 'executionEngine',
      version: '2',
      schema: graph.sdl,
      type_field_configurations: [],
      playground: { enabled: false, path: '' },
      engine: { field_configs: graph.fieldConfigs, data_sources: graph.dataSources },
    },
  };
}
