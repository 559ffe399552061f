import { loadConfig } from '../lib/config/load-config';
import { startNode, type RunningNode } from './node';
import { installProcessGuards, onStopSignals } from '../lib/process-guards';
import { startupFailureLines } from '../lib/startup-error';

/** How long the services may take to stop once the connections are drained. */
const STOP_GRACE_MS = 10_000;

/** GW_LOG_LEVEL once the configuration is read: a failed start prints its stack at debug only. */
let logLevel: string | undefined;

/** `npm start`: one gw node, every service by default, on the embedded defaults. */
async function main(): Promise<void> {
  const config = loadConfig();
  logLevel = config.logLevel;
  const node = await startNode(config);
  installProcessGuards(node.broker.logger);
  printBanner(node);
  const shutdown = async (signal: string) => {
    node.broker.logger.info(`${signal} received: draining connections, then stopping`);
    // The drain is bounded by GW_SHUTDOWN_TIMEOUT; this bounds what comes after it (a stuck service).
    setTimeout(
      () => {
        process.stderr.write('gw did not stop in time, exiting\n');
        process.exit(1);
      },
      config.shutdownTimeout * 1000 + STOP_GRACE_MS,
    ).unref();
    await node.stop();
    process.exit(0);
  };
  onStopSignals((signal) => void shutdown(signal), node.broker.logger);
}

function printBanner(node: RunningNode): void {
  const { config, secrets } = node;
  const lines = ['', `gw is running (node ${node.broker.nodeID}; services: ${node.services.join(', ')})`];
  const dashboardPort = node.portOf('api');
  const gatewayPort = node.portOf('proxy');
  if (dashboardPort !== undefined)
    lines.push(`  Dashboard:  http://${config.host}:${dashboardPort}   (REST API under /api, admin API under /admin)`);
  if (gatewayPort !== undefined) {
    const served = node.workers ? `, served by ${node.workers.rows().length} workers` : '';
    lines.push(`  Gateway:    http://${config.host}:${gatewayPort}   (management API under /gw${served})`);
  }
  if (secrets.generated.length > 0) {
    lines.push(`  First start: secrets were generated and kept in ${secrets.file}`);
    if (secrets.generated.includes('adminSecret')) lines.push(`    admin-auth:          ${secrets.adminSecret}`);
    if (secrets.generated.includes('secret')) lines.push(`    x-gw-authorization:  ${secrets.secret}`);
    // The dashboard has no user yet: its sign-in page leads to the setup, which asks for this secret.
    if (secrets.generated.includes('adminSecret') && dashboardPort !== undefined) {
      lines.push(
        `  Next: open the dashboard, choose "Set up gw" and give it the admin-auth secret above to create your organisation and first user.`,
      );
    }
  }
  lines.push('');
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${startupFailureLines(err, logLevel).join('\n')}\n`);
  process.exit(1);
});
