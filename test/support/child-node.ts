/**
 * Starts one gw node from the environment (GW_* variables, as `npm start` reads them) in a
 * process of its own, so a test can pause it (SIGSTOP) or kill it. Prints one JSON line,
 * `{"gatewayPort": …, "dashboardPort": …}`, once the node has started; stops on SIGTERM.
 * Run with `node -r tsx/cjs test/support/child-node.ts` (see startChildNode in child.ts).
 */
import { loadConfig } from '../../lib/config/load-config';
import { startNode } from '../../app/node';

async function main(): Promise<void> {
  const node = await startNode(loadConfig(process.env));
  process.stdout.write(
    `${JSON.stringify({ gatewayPort: node.portOf('proxy') ?? null, dashboardPort: node.portOf('api') ?? null })}\n`,
  );
  process.once('SIGTERM', () => {
    void node.stop().finally(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
