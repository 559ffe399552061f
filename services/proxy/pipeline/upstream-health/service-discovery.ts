import { request } from 'undici';
import { checkOutboundUrl, outboundAgent } from './outbound';

/** `proxy.service_discovery` of the reference gateway's classic definition. */
export interface DiscoverySettings {
  queryEndpoint: string;
  useNestedQuery: boolean;
  parentDataPath: string;
  dataPath: string;
  portDataPath: string;
  /** the value at data_path is a list of hosts (load balanced) rather than one */
  useTargetList: boolean;
  /** seconds a result is used before the endpoint is asked again; 0 (or `cache_disabled`) = asked for every request */
  cacheTimeout: number;
  /** the endpoint answers a JSON array, each element read like a whole answer */
  endpointReturnsList: boolean;
  /** appended to each host found */
  targetPath: string;
}

export function readDiscovery(raw: unknown): DiscoverySettings | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const sd = raw as Record<string, unknown>;
  if (sd.use_discovery_service !== true) return undefined;
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const queryEndpoint = text(sd.query_endpoint);
  if (!queryEndpoint)
    throw new Error('proxy.service_discovery.query_endpoint is required when use_discovery_service is on');
  checkOutboundUrl(queryEndpoint);
  if (!text(sd.data_path))
    throw new Error('proxy.service_discovery.data_path is required when use_discovery_service is on');
  return {
    queryEndpoint,
    useNestedQuery: sd.use_nested_query === true,
    parentDataPath: text(sd.parent_data_path),
    dataPath: text(sd.data_path),
    portDataPath: text(sd.port_data_path),
    useTargetList: sd.use_target_list === true,
    cacheTimeout: sd.cache_disabled !== true && Number(sd.cache_timeout) > 0 ? Number(sd.cache_timeout) : 0,
    endpointReturnsList: sd.endpoint_returns_list === true,
    targetPath: text(sd.target_path),
  };
}

const QUERY_TIMEOUT_MS = 5000;
const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * Asks the discovery endpoint for the API's hosts and keeps the answer for `cache_timeout`
 * seconds. Concurrent requests share one query; when a query fails, the last good answer is
 * kept (and the failure surfaces only when there never was one).
 */
export class ServiceDiscovery {
  private cached: { urls: string[]; until: number } | undefined;
  private pending: Promise<string[]> | undefined;

  constructor(
    private readonly settings: DiscoverySettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** the target URLs, from the cache while it is fresh */
  urls(): string[] | Promise<string[]> {
    if (this.cached && this.cached.until > this.now()) return this.cached.urls;
    this.pending ??= this.query().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** forgets the answer (a host it named refused a connection) */
  invalidate(): void {
    this.cached = undefined;
  }

  private async query(): Promise<string[]> {
    try {
      const urls = hostsFromAnswer(await fetchJson(this.settings.queryEndpoint), this.settings);
      if (urls.length === 0) throw new Error('the discovery answer names no host');
      this.cached = { urls, until: this.now() + this.settings.cacheTimeout * 1000 };
      return urls;
    } catch (err) {
      if (this.cached) return this.cached.urls;
      throw err;
    }
  }
}

async function fetchJson(url: string): Promise<unknown> {
  checkOutboundUrl(url);
  const res = await request(url, {
    dispatcher: outboundAgent,
    headersTimeout: QUERY_TIMEOUT_MS,
    bodyTimeout: QUERY_TIMEOUT_MS,
    maxRedirections: 0,
  } as never);
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of res.body) {
    size += (chunk as Buffer).length;
    if (size > MAX_ANSWER_BYTES) throw new Error('the discovery answer is larger than 1 MiB');
    chunks.push(chunk as Buffer);
  }
  if (res.statusCode >= 400) throw new Error(`the discovery endpoint answered ${res.statusCode}`);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** Reads the hosts out of an answer the way the reference gateway does. */
export function hostsFromAnswer(answer: unknown, settings: DiscoverySettings): string[] {
  const objects = settings.endpointReturnsList ? (Array.isArray(answer) ? answer : []) : [answer];
  const hosts: string[] = [];
  for (const object of objects) hosts.push(...hostsFromObject(object, settings));
  return hosts.map((host) => withScheme(host) + settings.targetPath);
}

function hostsFromObject(object: unknown, settings: DiscoverySettings): string[] {
  let data = object;
  if (settings.useNestedQuery) {
    // The value at parent_data_path is itself JSON in a string (etcd, Consul KV).
    const parent = valueAt(object, settings.parentDataPath);
    data = typeof parent === 'string' ? JSON.parse(parent) : parent;
  }
  const value = valueAt(data, settings.dataPath);
  const port = settings.portDataPath ? valueAt(data, settings.portDataPath) : undefined;
  const list = settings.useTargetList && Array.isArray(value) ? value : [value];
  const ports = Array.isArray(port) ? port : [port];
  return list
    .map((host, i) => {
      if (typeof host !== 'string' || host === '') return undefined;
      const p = ports[i] ?? ports[0];
      return p === undefined || p === null || p === '' ? host : `${host}:${String(p)}`;
    })
    .filter((host): host is string => host !== undefined);
}

/** A dotted path (`node.value`, `items.0.host`) into parsed JSON. */
function valueAt(data: unknown, path: string): unknown {
  if (!path) return data;
  let current = data;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function withScheme(host: string): string {
  return /^https?:\/\//i.test(host) ? host.replace(/\/+$/, '') : `http://${host.replace(/\/+$/, '')}`;
}
