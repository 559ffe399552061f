import type { ApisCreateParams } from '../../../../contracts/apis/actions';
import type { GeneratedGraph } from './generated-graph';

/**
 * The API definition of an imported graph: a combined graph (`executionEngine`, the reference
 * gateway's UDG version 2 format) that is active and protected by the default authentication
 * (access tokens), with its playground off; the caller opens it up as they would any API. Like
 * the reference's, it has no `target_url`: its data sources say where each field comes from.
 */
export function graphDefinition(
  graph: GeneratedGraph,
  apiId: string,
  listenPath: string,
): ApisCreateParams['api_definition'] {
  return {
    name: graph.title,
    api_id: apiId,
    active: true,
    use_keyless: false,
    proxy: { listen_path: listenPath, target_url: '', strip_listen_path: true },
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
