/** Counters of one connector (an input, an output, a processor, or a broker's child). */
export interface ConnectorStats {
  /** `input`, `output`, `processor`; a broker's children are `output.0`, … */
  role: string;
  /** the connector type (`http_server`, `http_client`, …) */
  type: string;
  label?: string;
  received: number;
  sent: number;
  errors: number;
  /** HTTP outputs: requests tried and the ones that failed (no answer or a failing status) */
  connection_attempts: number;
  connection_failures: number;
  /** mean and highest ms from a message's arrival to its acceptance by this connector */
  latency_ms_mean: number;
  latency_ms_max: number;
  /** the newest message this connector failed, and why: `message 12: mapping exceeded its time budget of 50 ms` */
  last_error?: string;
}

export interface StreamStats {
  state: 'running' | 'draining' | 'stopped';
  in_flight: number;
  messages_in: number;
  messages_out: number;
  errors: number;
  /** a failing output: the input is paused and the message retried with backoff */
  output_retrying: boolean;
  connectors: ConnectorStats[];
}

/** The streams of one API on one gateway node (or summed over all of them), by stream name. */
export interface StreamsApiStats {
  node?: string;
  streams: Record<string, StreamStats>;
  /** when summed: each gateway node's own counters */
  nodes?: StreamsApiStats[];
}

export interface StreamsStatsParams {
  api_id: string;
  /** only the counters of the node that answers (how the answering node asks the others) */
  local?: boolean;
}

export interface StreamsActions {
  /** The counters of one API's streams summed over every gateway node, with each node's own. */
  'streams.stats': { params: StreamsStatsParams; result: StreamsApiStats };
}

export const streamsActionParams = {
  stats: { api_id: { type: 'string', empty: false }, local: { type: 'boolean', optional: true } },
} as const;
