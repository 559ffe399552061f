import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerInstance } from 'moleculer';
import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { compileApi, type CompiledApi } from './compile-api';
import type { DefinitionRegistry } from './definition-registry';
import { GatewayMessages, sendGatewayError } from './gateway-errors';
import { RoutingTable } from './routing-table';
import type { UpstreamPools } from './upstream';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The gateway port's request handler. It serves from an immutable routing table that a reload
 * replaces in one assignment, so a request in flight keeps the API it started with.
 */
export class Gateway {
  private table = new RoutingTable<CompiledApi>();
  private compiled = new Map<ApiDefinition, CompiledApi>();

  constructor(
    private readonly registry: DefinitionRegistry,
    private readonly pools: UpstreamPools,
    private readonly logger: LoggerInstance,
    private readonly management: Handler,
  ) {}

  get servedCount(): number {
    return this.table.size;
  }

  /** Recompiles what changed and swaps in a new routing table. */
  rebuild(): void {
    const table = new RoutingTable<CompiledApi>();
    const compiled = new Map<ApiDefinition, CompiledApi>();
    for (const definition of this.registry.all()) {
      if (definition.active === false) continue;
      const api = this.compiled.get(definition) ?? this.compile(definition);
      if (!api) continue;
      if (!table.add(definition.proxy.listen_path, (definition.domain ?? '').trim().toLowerCase(), api)) {
        this.logger.warn(`API ${definition.api_id} not served: another API already listens on ${definition.proxy.listen_path}`);
        continue;
      }
      compiled.set(definition, api);
    }
    this.table = table;
    this.compiled = compiled;
  }

  readonly handle: Handler = (req, res) => {
    const url = req.url ?? '/';
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    if (path === '/gw' || path.startsWith('/gw/')) return this.management(req, res);
    const match = path.startsWith('/') ? this.table.match(hostName(req.headers.host), path) : undefined;
    if (!match) return sendGatewayError(res, 404, GatewayMessages.notFound);
    match.value.handle({ req, res, path, search: queryStart === -1 ? '' : url.slice(queryStart), prefixLength: match.prefixLength });
  };

  private compile(definition: ApiDefinition): CompiledApi | undefined {
    try {
      return compileApi(definition, {
        pools: this.pools,
        onUpstreamError: (api, err) => this.logger.warn(`upstream of API ${api.api_id} failed: ${err.message}`),
      });
    } catch (err) {
      this.logger.error(`API ${definition.api_id} not served: ${(err as Error).message}`);
      return undefined;
    }
  }
}

function hostName(host: string | undefined): string {
  if (!host) return '';
  const end = host.startsWith('[') ? host.indexOf(']') + 1 : host.indexOf(':');
  return (end > 0 ? host.slice(0, end) : host).toLowerCase();
}
