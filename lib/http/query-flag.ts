import { HttpProblem } from './problem';

const TRUE = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const FALSE = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/** A boolean query parameter as Go's strconv.ParseBool reads it; anything else is a 400, as the reference answers. */
export function queryFlag(query: Record<string, unknown>, name: string): boolean {
  const raw = query[name];
  if (raw === undefined || raw === '') return false;
  if (typeof raw === 'string' && TRUE.includes(raw)) return true;
  if (typeof raw === 'string' && FALSE.includes(raw)) return false;
  throw new HttpProblem(400, `invalid ${name} query parameter`);
}
