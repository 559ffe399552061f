import { columnLengthProblem } from '../../../lib/store/column-limits';
import { KeysErrors } from '../errors';

/**
 * Refuses a key whose stored strings do not fit the `keys` table (migrations.ts): the key
 * itself and a basic-auth username (255), the organisation (64). Checked whether or not keys
 * are hashed, so the limit does not depend on configuration.
 */
export function assertKeyFits(fields: { key?: string; username?: string; org_id: string }): void {
  const problem = columnLengthProblem([
    ['key', fields.key, 255],
    ['username', fields.username, 255],
    ['org_id', fields.org_id, 64],
  ]);
  if (problem) throw KeysErrors.invalid(problem);
}
