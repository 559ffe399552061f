import type { ErrorRequestHandler, RequestHandler } from 'express';
import { HttpProblem, toProblem, type Problem } from './problem';

/**
 * The last handlers of an express app, so no request ever gets express's HTML pages: an unknown
 * path is a 404 and an error no router caught is a 500, both in the app's error shape.
 */
export function jsonFallbacks(
  render: (problem: Problem) => unknown,
  onUnexpected: (err: unknown) => void,
): [RequestHandler, ErrorRequestHandler] {
  const notFound: RequestHandler = (req, res) => {
    const problem = new HttpProblem(404, `No such endpoint: ${req.method} ${req.originalUrl.split('?')[0]}`);
    res.status(problem.status).json(render(problem));
  };
  const failed: ErrorRequestHandler = (err, _req, res, _next) => {
    const status = (err as { status?: unknown })?.status;
    const problem =
      typeof status === 'number' && status >= 400 && status < 500
        ? new HttpProblem(status, (err as Error).message)
        : toProblem(err, onUnexpected);
    res.status(problem.status).json(render(problem));
  };
  return [notFound, failed];
}
