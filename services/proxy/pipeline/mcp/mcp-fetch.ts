import { fetch, type RequestInit, type Response } from 'undici';
import { tenantAgent } from '../../../../lib/net/tenant-agent';

/** Connections to tenants' MCP servers: refused at forbidden addresses and this node's own ports. */
const mcpServers = tenantAgent({ keepAliveTimeout: 10_000 });

/**
 * A request to an MCP API's server (relayed messages, the end of a forgotten session): the
 * server's address is a tenant's choice, so it goes through the outbound policy as every call
 * made on a tenant's behalf does (lib/net/tenant-agent.ts).
 */
export function fetchFromMcpServer(url: string | URL, init: Omit<RequestInit, 'dispatcher'>): Promise<Response> {
  return fetch(url, { ...init, dispatcher: mcpServers });
}
