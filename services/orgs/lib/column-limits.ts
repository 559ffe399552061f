import type { Organisation } from '../../../contracts/orgs/actions';
import { columnLengthProblem } from '../../../lib/store/column-limits';
import { OrgsErrors } from '../errors';

/** Refuses an organisation whose strings do not fit the `organisations` table (migrations.ts), naming the field. */
export function assertOrgFits(org: Organisation): void {
  const problem = columnLengthProblem([
    ['id', org.id, 64],
    ['owner_name', org.owner_name, 255],
    ['owner_slug', org.owner_slug, 255],
  ]);
  if (problem) throw OrgsErrors.invalid(problem);
}
