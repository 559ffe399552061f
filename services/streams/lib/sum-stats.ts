import type { ConnectorStats, StreamStats, StreamsApiStats } from '../../../contracts/streams/actions';

/** The counters of several gateway nodes' streams of one API, summed per stream and connector. */
export function sumStats(nodes: StreamsApiStats[]): StreamsApiStats {
  const streams: Record<string, StreamStats> = {};
  for (const node of nodes) {
    for (const [name, s] of Object.entries(node.streams)) {
      const into = streams[name];
      if (!into) {
        streams[name] = { ...s, connectors: s.connectors.map((c) => ({ ...c })) };
        continue;
      }
      into.in_flight += s.in_flight;
      into.messages_in += s.messages_in;
      into.messages_out += s.messages_out;
      into.errors += s.errors;
      into.output_retrying ||= s.output_retrying;
      s.connectors.forEach((c, i) => into.connectors[i] && addConnector(into.connectors[i], c));
    }
  }
  return { streams, nodes };
}

function addConnector(into: ConnectorStats, c: ConnectorStats): void {
  const sent = into.sent + c.sent;
  into.latency_ms_mean =
    sent === 0 ? 0 : Math.round(((into.latency_ms_mean * into.sent + c.latency_ms_mean * c.sent) / sent) * 100) / 100;
  into.latency_ms_max = Math.max(into.latency_ms_max, c.latency_ms_max);
  into.received += c.received;
  into.sent = sent;
  into.errors += c.errors;
  into.connection_attempts += c.connection_attempts;
  into.connection_failures += c.connection_failures;
  into.last_error ??= c.last_error;
}
