import { join, resolve } from 'node:path';
import { projectFile } from './project-file';
import { relativePathProblem } from './safe-path';

/** The folder under GW_TEMPLATE_PATH that webhook templates are read from, and only from. */
export const WEBHOOK_TEMPLATES_SUBFOLDER = 'webhooks';

/** `<GW_TEMPLATE_PATH>/webhooks` (the project's `templates/webhooks` when GW_TEMPLATE_PATH is empty). */
export function webhookTemplatesFolder(templatePath: string): string {
  return join(templatePath ? resolve(templatePath) : projectFile('templates'), WEBHOOK_TEMPLATES_SUBFOLDER);
}

/**
 * Why a webhook's `template_path` is refused when it is saved, or undefined: empty (no
 * template) or a path relative to the webhook templates folder that can not climb out of it.
 * A tenant chooses this path and receives what the file renders to, so nothing else on the
 * node's disk may be named.
 */
export function templatePathProblem(value: unknown): string | undefined {
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') return 'template_path must be a string';
  const problem = relativePathProblem(value);
  if (problem === undefined) return undefined;
  return `template_path '${JSON.stringify(value).slice(1, -1)}' ${problem}: a webhook template is a path inside the webhook templates folder (GW_TEMPLATE_PATH/${WEBHOOK_TEMPLATES_SUBFOLDER})`;
}
