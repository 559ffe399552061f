import type { HookReference } from '../../../contracts/apis/api-definition';
import { templatePathProblem } from '../../../lib/webhook-templates';
import { ApisErrors } from '../errors';

/** Whether a webhook with this id exists in this organisation (and only there). */
export type HookLookup = (id: string, orgId: string) => Promise<boolean>;

/**
 * Checks the `hook_references` an API is saved with: a reference naming a webhook by id must
 * name one of the API's own organisation (another organisation's id reads as "not found", so
 * nothing about it shows), and an inline hook's `template_path` must stay inside the webhook
 * templates folder.
 */
export async function checkHookReferences(
  references: HookReference[] | undefined,
  orgId: string,
  hookExists: HookLookup,
): Promise<void> {
  for (const [index, reference] of (references ?? []).entries()) {
    const hook = reference.hook ?? {};
    const problem = templatePathProblem(hook.template_path);
    if (problem) throw ApisErrors.invalid(`hook_references[${index}].hook: ${problem}`);
    const id = hook.id;
    if (id === undefined || id === '') continue;
    if (typeof id !== 'string' || !(await hookExists(id, orgId))) {
      throw ApisErrors.invalid(
        `hook_references[${index}]: webhook not found: ${typeof id === 'string' ? id : JSON.stringify(id)}`,
      );
    }
  }
}
