import { columnLengthProblem } from '../../../lib/store/column-limits';
import { WebhooksErrors } from '../errors';

/**
 * Refuses a webhook whose `org_id` does not fit the `hooks` table (migrations.ts); the rest of
 * the webhook is kept in a `longtext` document, bounded by the request body limit.
 */
export function assertHookFits(hook: { org_id: string }): void {
  const problem = columnLengthProblem([['org_id', hook.org_id, 64]]);
  if (problem) throw WebhooksErrors.invalid(problem);
}
