import type { LoggerInstance } from 'moleculer';
import type { GwPlugin } from '../../../../plugins/sdk/define-plugin';
import { DONE, type Step } from '../compose';
import { PluginFailure, requestHookContext } from '../plugins/hook-context';

type RequestHook = 'pre' | 'post_key_auth' | 'post';

/** Runs the plugins of one request hook in order; one that answers the client ends the chain. */
export function pluginStep(hook: RequestHook, plugins: GwPlugin[], logger: LoggerInstance): Step | undefined {
  if (plugins.length === 0) return undefined;
  return async (ctx) => {
    for (const plugin of plugins) {
      try {
        await plugin.hooks[hook]!(requestHookContext(ctx, hook, plugin, logger));
      } catch (err) {
        throw new PluginFailure(plugin.name, hook, err);
      }
      if (ctx.answered) return DONE;
    }
  };
}
