import type { RequestHandler } from 'express';
import { envelopeError } from '../../../lib/http/envelope';
import {
  METRICS_UNAUTHORISED,
  scrapeAllowed,
  writeMetrics,
  type NodeMetrics,
} from '../../../lib/observability/metrics';

/** `GET /metrics` on the dashboard port (GW_DASHBOARD_METRICS); a collector failure goes to the JSON fallbacks. */
export function metricsRoute(metrics: NodeMetrics, token: string): RequestHandler {
  return (req, res, next) => {
    if (!scrapeAllowed(req.headers.authorization, token)) {
      res
        .status(401)
        .set('www-authenticate', 'Bearer realm="metrics"')
        .json(envelopeError({ status: 401, message: METRICS_UNAUTHORISED }));
      return;
    }
    writeMetrics(metrics, res, req.method === 'HEAD').catch(next);
  };
}
