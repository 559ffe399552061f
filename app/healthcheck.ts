import { request } from 'node:http';
import { resolveServiceNames } from '../services';
import { loadConfig, type GwConfig } from '../lib/config/load-config';

/**
 * The container health check (deploy/Dockerfile HEALTHCHECK): asks this node's own ports, as
 * its configuration opens them, for their unauthenticated liveness answer. Resolves with what
 * failed, empty when the node is healthy.
 */
export async function checkHealth(config: Readonly<GwConfig>): Promise<string[]> {
  const services = resolveServiceNames(config.services);
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const urls: string[] = [];
  if (services.includes('proxy')) urls.push(`http://${host}:${config.gatewayPort}/hello`);
  if (services.includes('api')) urls.push(`http://${host}:${config.dashboardPort}/`);
  const problems = await Promise.all(urls.map((url) => answers200(url)));
  return problems.filter((problem): problem is string => problem !== undefined);
}

function answers200(url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = request(url, { timeout: 3000, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode === 200 ? undefined : `${url} answered ${res.statusCode}`);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 3 s')));
    req.on('error', (err) => resolve(`${url}: ${err.message}`));
    req.end();
  });
}

if (require.main === module) {
  checkHealth(loadConfig()).then(
    (problems) => {
      if (problems.length > 0) process.stderr.write(`${problems.join('\n')}\n`);
      process.exit(problems.length > 0 ? 1 : 0);
    },
    (err: Error) => {
      process.stderr.write(`health check failed: ${err.message}\n`);
      process.exit(1);
    },
  );
}
