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
 * A hook's template as read: its text, or why there is none. `problem` names no server path (a
 * tenant may see it); `detail` is for the server's log only.
 */
export type TemplateRead = { text: string } | { problem: TemplateProblem; detail: string };
type TemplateProblem = 'is outside the webhook templates folder' | 'was not found' | 'could not be read';

/**
 * The template a hook names, read from inside `folder` only: nothing is read when the path,
 * symlinks followed, leads out of it. Never throws: a missing folder or file is a problem like
 * any other, and the caller decides what to send instead.
 */
export async function readTemplate(folder: string, templatePath: string): Promise<TemplateRead> {
  try {
    const file = await resolveInside(folder, templatePath);
    if (file === undefined) return { problem: 'is outside the webhook templates folder', detail: folder };
    return { text: await readFile(file, 'utf8') };
  } catch (err) {
    const { code, message } = err as NodeJS.ErrnoException;
    return { problem: code === 'ENOENT' ? 'was not found' : 'could not be read', detail: message };
  }
}
