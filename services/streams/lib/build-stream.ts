import { BROKER_INPUT_BUILDERS, BROKER_OUTPUT_BUILDERS, type ConnectorEnv } from '../connectors';
import type { Endpoint, Input, Output, Processor } from './components';
import { BrokerInput } from './inputs/broker';
import { HttpClientInput } from './inputs/http-client';
import { HttpServerInput } from './inputs/http-server';
import type { OutboundPolicy } from './outbound';
import { BrokerOutput, type BrokerPattern } from './outputs/broker';
import { HttpClientOutput } from './outputs/http-client';
import { HttpServerOutput } from './outputs/http-server';
import { PortalWebhookOutput } from './outputs/portal-webhook';
import { compileMapping, type MappingSite } from './processors/mapping';
import { BranchProcessor, HttpProcessor, MappingProcessor, SwitchProcessor } from './processors/processors';
import { buildRateLimits, type RateLimits } from './rate-limits';
import { ConnectorCounters } from './stats';
import { Stream, type StreamOptions } from './stream';
import { StreamLifecycle } from './stream-lifecycle';

type Config = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface BuildDeps {
  policy: OutboundPolicy;
  options: StreamOptions;
}

interface Build {
  deps: BuildDeps;
  limits: RateLimits;
  counters: ConnectorCounters[];
  endpoints: Endpoint[];
  where: string;
  lifecycle: StreamLifecycle;
}

/** The one type key of a connector object (`{http_server: {...}, label}`). */
function typeOf(component: Config): [string, Config, string | undefined] {
  const type = Object.keys(component).find((k) => k !== 'label')!;
  return [type, component[type] ?? {}, component.label];
}

function counters(build: Build, role: string, type: string, label: string | undefined): ConnectorCounters {
  const c = new ConnectorCounters(role, type, label);
  build.counters.push(c);
  return c;
}

function connectorEnv(build: Build): ConnectorEnv {
  return {
    ownPorts: () => build.deps.policy.ownPorts(),
    log: (level, message) => build.deps.options.log(level, `${build.where}: ${message}`),
  };
}

/** counts what a broker input hands to the stream (the stream counts what its output accepted) */
function countedInput(input: Input, c: ConnectorCounters): Input {
  return {
    start: (sink) =>
      input.start((messages) => {
        c.received += messages.length;
        return sink(messages);
      }),
    stop: () => input.stop(),
  };
}

function buildInput(component: Config, role: string, build: Build): Input {
  const [type, config, label] = typeOf(component);
  const c = counters(build, role, type, label);
  switch (type) {
    case 'http_server': {
      const input = new HttpServerInput(config, c, config.rate_limit ? build.limits.get(config.rate_limit) : undefined);
      build.endpoints.push(...input.endpoints());
      return input;
    }
    case 'http_client':
      return new HttpClientInput(config as never, build.limits, build.deps.policy, c, (m) =>
        build.deps.options.log('warn', m),
      );
    case 'broker':
      return new BrokerInput((config.inputs as Config[]).map((child, i) => buildInput(child, `${role}.${i}`, build)));
    default:
      if (BROKER_INPUT_BUILDERS[type])
        return countedInput(BROKER_INPUT_BUILDERS[type](config as never, connectorEnv(build)), c);
      throw new Error(`${build.where}: unknown input type ${type}`);
  }
}

function buildOutput(component: Config, role: string, build: Build): { output: Output; counters: ConnectorCounters } {
  const [type, config, label] = typeOf(component);
  const c = counters(build, role, type, label);
  switch (type) {
    case 'http_server': {
      const output = new HttpServerOutput(config, c);
      build.endpoints.push(...output.endpoints());
      return { output, counters: c };
    }
    case 'http_client':
      return { output: new HttpClientOutput(config as never, build.limits, build.deps.policy, c), counters: c };
    case 'portal_webhook':
      return { output: new PortalWebhookOutput(config as never, build.deps.policy, c), counters: c };
    case 'broker': {
      const children = (config.outputs as Config[]).map((child, i) => buildOutput(child, `${role}.${i}`, build));
      const { backoffMs, maxBackoffMs } = build.deps.options;
      return {
        output: new BrokerOutput(children, (config.pattern ?? 'fan_out') as BrokerPattern, backoffMs, maxBackoffMs),
        counters: c,
      };
    }
    default:
      if (BROKER_OUTPUT_BUILDERS[type])
        return { output: BROKER_OUTPUT_BUILDERS[type](config as never, connectorEnv(build)), counters: c };
      throw new Error(`${build.where}: unknown output type ${type}`);
  }
}

function buildProcessors(list: Config[] | undefined, role: string, build: Build): Processor[] {
  return (list ?? []).map((component, i) => {
    const [type, config, label] = typeOf(component);
    const here = `${role}.${i}`;
    const c = counters(build, here, type, label);
    const where = `${build.where} ${here}`;
    const named = `${where} (${type}${label ? ` ${label}` : ''})`;
    const site: MappingSite = { where: named, counters: c, log: build.deps.options.log };
    switch (type) {
      case 'mapping':
      case 'bloblang':
        return new MappingProcessor(compileMapping(component[type], where), site);
      case 'http': {
        const { limits, deps, lifecycle } = build;
        return new HttpProcessor(config as never, limits, deps.policy, c, lifecycle.retrySignals);
      }
      case 'branch':
        return new BranchProcessor(
          config.request_map ? compileMapping(config.request_map, `${where} request_map`) : undefined,
          buildProcessors(config.processors, `${here}.processors`, build),
          config.result_map ? compileMapping(config.result_map, `${where} result_map`) : undefined,
          site,
        );
      case 'switch': {
        const cases = (Array.isArray(component.switch) ? component.switch : component.switch.cases) as Config[];
        return new SwitchProcessor(
          cases.map((sc, j) => ({
            check: sc.check ? compileMapping(sc.check, `${where} case ${j}`) : undefined,
            processors: buildProcessors(sc.processors, `${here}.${j}`, build),
            fallthrough: sc.fallthrough === true,
          })),
          site,
        );
      }
      default:
        throw new Error(`${where}: unknown processor type ${type}`);
    }
  });
}

/** Builds one stream of a definition and the HTTP endpoints its connectors serve. */
export function buildStream(name: string, config: Config, deps: BuildDeps): { stream: Stream; endpoints: Endpoint[] } {
  const limits = buildRateLimits(config.rate_limit_resources);
  const lifecycle = new StreamLifecycle();
  const build: Build = { deps, limits, counters: [], endpoints: [], where: `stream ${name}`, lifecycle };
  const input = buildInput(config.input, 'input', build);
  const processors = buildProcessors(config.pipeline?.processors, 'processor', build);
  const { output, counters: outputCounters } = buildOutput(config.output, 'output', build);
  const parts = { name, input, processors, output, counters: build.counters, outputCounters, lifecycle };
  const stream = new Stream(parts, deps.options);
  return { stream, endpoints: build.endpoints };
}
