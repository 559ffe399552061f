import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import { columnLengthProblem } from '../../../lib/store/column-limits';
import { ApisErrors } from '../errors';

/** The string columns of the `apis` table (migrations.ts) and the definition fields stored in them. */
const API_COLUMNS: Array<[field: string, value: (d: ApiDefinition) => unknown, max: number]> = [
  ['api_id', (d) => d.api_id, 128],
  ['org_id', (d) => d.org_id, 64],
  ['name', (d) => d.name, 255],
  ['proxy.listen_path', (d) => d.proxy.listen_path, 500],
  ['domain', (d) => d.domain, 255],
];

/** Refuses a definition whose indexed fields do not fit their columns, naming the field. */
export function assertFitsColumns(definition: ApiDefinition): void {
  const problem = columnLengthProblem(API_COLUMNS.map(([field, value, max]) => [field, value(definition), max]));
  if (problem) throw ApisErrors.invalid(problem);
}
