import { readFile } from 'node:fs/promises';
import type { Webhook } from '../../../contracts/webhooks/actions';
import { resolveInside } from '../../../lib/safe-path';
import { templatePathProblem } from '../../../lib/webhook-templates';
import { WebhooksErrors } from '../errors';

/** Refuses a webhook whose `template_path` could name a file outside the templates folder. */
export function checkTemplatePath(hook: Partial<Webhook>): void {
  const problem = templatePathProblem(hook.template_path);
  if (problem) throw WebhooksErrors.invalid(problem);
}

/**
 * The template a hook names, read from inside `folder` only; undefined (and nothing read) when
 * the path, symlinks followed, leads out of it. A missing file throws, as before.
 */
export async function readTemplate(folder: string, templatePath: string): Promise<string | undefined> {
  const file = await resolveInside(folder, templatePath);
  return file === undefined ? undefined : readFile(file, 'utf8');
}
