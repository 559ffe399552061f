import { urlSaveProblem } from '../../../lib/net/outbound-save-check';
import { WebhooksErrors } from '../errors';

/**
 * A webhook whose `target_path` names an address the outbound policy refuses is refused when
 * saved (400); its deliveries judge the address they connect to again.
 */
export async function checkTargetAddress(hook: { target_path?: unknown }): Promise<void> {
  if (typeof hook.target_path !== 'string') return;
  const problem = await urlSaveProblem('target_path', hook.target_path);
  if (problem) throw WebhooksErrors.invalid(problem);
}
