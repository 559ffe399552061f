import type { ApiDefinition } from '../../../contracts/apis/api-definition';
import type { StreamsApiStats } from '../../../contracts/streams/actions';
import type { StreamApi, StreamsHandOff } from '../../../contracts/streams/hand-off';
import { streamingProblems } from '../../../lib/streams/config-check';
import { StreamsErrors } from '../errors';
import { buildStream, type BuildDeps } from './build-stream';
import type { Endpoint } from './components';
import type { Stream } from './stream';

/** The running streams of one API and the endpoints they serve, by path. */
interface RunningApi {
  fingerprint: string;
  streams: Map<string, Stream>;
  endpoints: Map<string, Endpoint>;
}

/**
 * The streams of every stream API this node serves. proxy compiles an API (compile), which
 * starts its streams, keeps them when the `streaming` settings did not change, or replaces
 * them: the new ones take requests at once while the old ones drain. Requests find the
 * current set through the API id, so a replaced set never answers again.
 */
export class StreamsEngine implements StreamsHandOff {
  private readonly running = new Map<string, RunningApi>();

  constructor(private readonly deps: BuildDeps) {}

  compile(definition: ApiDefinition): StreamApi {
    const apiId = definition.api_id;
    const fingerprint = JSON.stringify(definition.streaming ?? null);
    const current = this.running.get(apiId);
    if (!current || current.fingerprint !== fingerprint) {
      const next = this.start(definition, fingerprint);
      this.running.set(apiId, next);
      if (current) void this.drain(apiId, current);
    }
    return {
      handle: (request) => {
        const endpoint = this.running.get(apiId)?.endpoints.get(normalise(request.relativePath));
        if (!endpoint?.request) return false;
        endpoint.request(request);
        return true;
      },
      upgrade: (request, socket, head) => {
        const endpoint = this.running.get(apiId)?.endpoints.get(normalise(request.relativePath));
        if (!endpoint?.upgrade) return false;
        endpoint.upgrade(request, socket, head);
        return true;
      },
    };
  }

  retain(apiIds: ReadonlySet<string>): void {
    for (const [apiId, running] of this.running) {
      if (apiIds.has(apiId)) continue;
      this.running.delete(apiId);
      void this.drain(apiId, running);
    }
  }

  stats(): Record<string, StreamsApiStats> {
    const out: Record<string, StreamsApiStats> = {};
    for (const [apiId, running] of this.running) out[apiId] = this.apiStats(running);
    return out;
  }

  statsOf(apiId: string): StreamsApiStats {
    const running = this.running.get(apiId);
    return running ? this.apiStats(running) : { streams: {} };
  }

  /** Stops every stream (the node is stopping), draining each. */
  async stopAll(): Promise<void> {
    const all = [...this.running];
    this.running.clear();
    await Promise.all(all.map(([apiId, running]) => this.drain(apiId, running)));
  }

  private apiStats(running: RunningApi): StreamsApiStats {
    return { streams: Object.fromEntries([...running.streams].map(([name, stream]) => [name, stream.stats()])) };
  }

  private start(definition: ApiDefinition, fingerprint: string): RunningApi {
    const problems = streamingProblems(definition.streaming, '/streaming', undefined);
    if (problems.length > 0) throw StreamsErrors.cannotRun(definition.api_id, problems.join('; '));
    const streams = new Map<string, Stream>();
    const endpoints = new Map<string, Endpoint>();
    const configs = (definition.streaming as { streams: Record<string, Record<string, unknown>> }).streams;
    for (const [name, config] of Object.entries(configs)) {
      const built = buildStream(name, config, this.deps);
      for (const endpoint of built.endpoints) {
        const path = normalise(endpoint.path);
        const taken = endpoints.get(path);
        // An input and an output may share a path (a POST in, a GET out); two of one kind may not.
        if (taken && ((taken.request && endpoint.request) || (taken.upgrade && endpoint.upgrade))) {
          throw StreamsErrors.cannotRun(definition.api_id, `two streams serve ${path}`);
        }
        endpoints.set(path, merge(taken, endpoint));
      }
      streams.set(name, built.stream);
    }
    for (const stream of streams.values()) stream.start();
    return { fingerprint, streams, endpoints };
  }

  private async drain(apiId: string, running: RunningApi): Promise<void> {
    await Promise.all([...running.streams.values()].map((stream) => stream.stop()));
    this.deps.options.log('info', `streams of API ${apiId} stopped`);
  }
}

function merge(a: Endpoint | undefined, b: Endpoint): Endpoint {
  if (!a) return b;
  return { path: a.path, request: a.request ?? b.request, upgrade: a.upgrade ?? b.upgrade };
}

function normalise(path: string): string {
  const withSlash = path.startsWith('/') ? path : `/${path}`;
  return withSlash.length > 1 && withSlash.endsWith('/') ? withSlash.slice(0, -1) : withSlash;
}
