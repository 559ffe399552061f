import { fetchFromMcpServer } from './mcp-fetch';
import type { McpSession } from './session-table';

/** How long the gateway waits on a server to end a session it forgot. */
const END_TIMEOUT_MS = 5000;

/**
 * Tells the remote MCP server a session the gateway forgot for idleness is over (a DELETE with
 * its id, as a client ends one), so the server frees it too. Best effort: a server that does
 * not answer, or does not let clients end sessions, keeps it until its own timeout.
 */
export function endSessionUpstream(session: McpSession): void {
  void fetchFromMcpServer(session.endpoint, {
    method: 'DELETE',
    headers: { 'mcp-session-id': session.sessionId },
    signal: AbortSignal.timeout(END_TIMEOUT_MS),
    redirect: 'manual',
  })
    .then((response) => response.body?.cancel())
    .catch(() => undefined);
}
