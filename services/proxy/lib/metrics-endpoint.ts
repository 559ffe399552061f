import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LoggerInstance } from 'moleculer';
import {
  METRICS_UNAUTHORISED,
  scrapeAllowed,
  writeMetrics,
  type NodeMetrics,
  type NodeSeries,
} from '../../../lib/observability/metrics';
import { sendGatewayError } from '../pipeline/gateway-errors';

/**
 * `GET /metrics` on the gateway port (GW_GATEWAY_METRICS), answered before any API. On a node with
 * gateway workers, `siblings` gives the other workers' series, so one scrape shows the node.
 */
export function metricsEndpoint(
  metrics: NodeMetrics,
  token: string,
  logger: LoggerInstance,
  siblings?: () => Promise<NodeSeries[]>,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD')
      return sendGatewayError(res, 405, 'Method not allowed', { allow: 'GET, HEAD' });
    if (!scrapeAllowed(req.headers.authorization, token))
      return sendGatewayError(res, 401, METRICS_UNAUTHORISED, { 'www-authenticate': 'Bearer realm="metrics"' });
    writeMetrics(metrics, res, req.method === 'HEAD', siblings).catch((err: unknown) => {
      logger.error('metrics could not be collected', err);
      sendGatewayError(res, 500, 'Metrics could not be collected');
    });
  };
}
