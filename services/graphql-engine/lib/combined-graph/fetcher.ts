import { type Agent } from 'undici';
import { assertOutboundHost } from '../../../../lib/net/outbound-address';
import { tenantAgent } from '../../../../lib/net/tenant-agent';
import { readBounded } from '../../../../lib/net/read-bounded';

export interface DataSourceRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** Bodies above this are refused rather than buffered: a data source answers one field. */
const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/**
 * The HTTP client of every data source on this node: undici keeps one keep-alive pool per
 * origin, and each call has the node's upstream timeout for its headers and its body.
 */
export class DataSourceFetcher {
  private readonly agent: Agent;

  constructor(private readonly timeoutMs: number) {
    // tenant-chosen URLs: never link-local or cloud-metadata addresses (checked on the address connected to)
    this.agent = tenantAgent({ connections: 128, keepAliveTimeout: 30_000, pipelining: 1 });
  }

  /** Sends the request and reads its JSON answer; a non-2xx status or a body that is not JSON is an error naming why. */
  async json(request: DataSourceRequest): Promise<unknown> {
    const url = new URL(request.url);
    assertOutboundHost(url);
    const response = await this.agent.request({
      origin: url.origin,
      path: url.pathname + url.search,
      method: request.method,
      headers: request.headers,
      body: request.body,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    const text = await readBounded(response.body, MAX_RESPONSE_BYTES);
    if (response.statusCode < 200 || response.statusCode >= 300) throw new Error(`it answered ${response.statusCode}`);
    if (text === '') return null;
    try {
      return JSON.parse(text);
    } catch {
      throw new Error('its response is not JSON');
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
