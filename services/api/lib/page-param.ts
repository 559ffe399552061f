import { parsePageParam } from '../../../lib/pagination';
import { HttpProblem } from '../../../lib/http/problem';

/** The `p` query parameter of dashboard lists, or a 400 naming what is wrong with it. */
export function pageFromQuery(query: Record<string, unknown>): number {
  const page = parsePageParam(query.p);
  if (page === null)
    throw new HttpProblem(400, `Query parameter p must be an integer page number, got '${String(query.p)}'`);
  return page;
}
