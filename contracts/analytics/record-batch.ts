import type { AnalyticsRecordIn } from './actions';

/**
 * A batch of analytics records as gateway nodes send it and the analytics service stores it:
 * columns of numbers instead of one object per record. A gateway node holds a batch for up to
 * a second; as objects, a thousand records a second survive young-generation collections and
 * cost the proxy more than building them. As numbers in one array they are a handful of objects
 * however many requests they describe, and the service folds and stores them without building a
 * record per request.
 */
export interface AnalyticsBatch {
  /** every distinct string of the batch, once; a record's string fields are indexes into it */
  strings: string[];
  /** RECORD_WIDTH integers per record, in COLUMN order */
  values: number[];
  /**
   * epoch ms the `request_time` column counts from (the first record's arrival): small
   * integers are what V8 stores, stringifies and folds fastest, and epoch milliseconds are not
   * small integers
   */
  since: number;
}

/**
 * Where each field of a record sits among its RECORD_WIDTH values. String fields hold an index
 * into `strings`; `request_time` is ms after the batch's `since` (negative for a request that
 * arrived before the first record's, and finished after it); latencies are whole microseconds;
 * `track_path` and `refused_before_auth` are 0 or 1;
 * `tags` is the index of the tags as a JSON array, or of '' when there
 * are none.
 */
export const COLUMN = {
  api_id: 0,
  api_name: 1,
  org_id: 2,
  path: 3,
  raw_path: 4,
  method: 5,
  key_hash: 6,
  alias: 7,
  oauth_client_id: 8,
  ip_address: 9,
  user_agent: 10,
  iso_country: 11,
  tags: 12,
  response_code: 13,
  request_time: 14,
  latency_us: 15,
  upstream_latency_us: 16,
  track_path: 17,
  expire_after: 18,
  refused_before_auth: 19,
} as const;

export const RECORD_WIDTH = 20;

/** Value arrays a builder keeps for its next batches (recycle()): the one in flight, and a slow store's few more. */
const MAX_SPARES = 4;

/** The columns that index `strings`. */
export const STRING_COLUMNS = [
  COLUMN.api_id,
  COLUMN.api_name,
  COLUMN.org_id,
  COLUMN.path,
  COLUMN.raw_path,
  COLUMN.method,
  COLUMN.key_hash,
  COLUMN.alias,
  COLUMN.oauth_client_id,
  COLUMN.ip_address,
  COLUMN.user_agent,
  COLUMN.iso_country,
  COLUMN.tags,
] as const;

/** Builds a batch one record at a time; a string seen before in the batch is stored once. */
export class AnalyticsBatchBuilder {
  private strings: string[] = [];
  private indexes = new Map<string, number>();
  private values: number[];
  /** values written so far */
  private used = 0;
  private since = 0;
  private size = 0;
  /** value arrays of full batches given back (recycle()), written into by the next batches */
  private readonly spares: number[][] = [];

  /**
   * @param capacity records the batch will usually hold: its values are allocated at once, not
   * grown (and copied) step by step while the batch lives
   */
  constructor(private readonly capacity = 0) {
    this.values = newValues(capacity);
  }

  /** records added since the last take() */
  get count(): number {
    return this.size;
  }

  /**
   * Adds a record. Nothing of `record` is kept, so a caller may pass the same object each time
   * with new values (the recorder does: no object per request).
   */
  add(record: AnalyticsRecordIn): void {
    if (this.size === 0) this.since = record.request_time;
    const values = this.values;
    let at = this.used;
    values[at++] = this.indexOf(record.api_id);
    values[at++] = this.indexOf(record.api_name);
    values[at++] = this.indexOf(record.org_id);
    values[at++] = this.indexOf(record.path);
    values[at++] = this.indexOf(record.raw_path);
    values[at++] = this.indexOf(record.method);
    values[at++] = this.indexOf(record.key_hash);
    values[at++] = this.indexOf(record.alias);
    values[at++] = this.indexOf(record.oauth_client_id);
    values[at++] = this.indexOf(record.ip_address);
    values[at++] = this.indexOf(record.user_agent);
    values[at++] = this.indexOf(record.iso_country);
    values[at++] = this.indexOf(record.tags.length === 0 ? '' : JSON.stringify(record.tags));
    values[at++] = record.response_code;
    values[at++] = record.request_time - this.since;
    values[at++] = Math.round(record.latency * 1000);
    values[at++] = Math.round(record.upstream_latency * 1000);
    values[at++] = record.track_path ? 1 : 0;
    values[at++] = record.expire_after;
    values[at++] = record.refused_before_auth ? 1 : 0;
    this.used = at;
    this.size += 1;
  }

  /** Copies record `index` of another batch into this one. */
  copy(from: AnalyticsBatchReader, index: number): void {
    const start = index * RECORD_WIDTH;
    const source = from.batch;
    if (this.size === 0) this.since = from.requestTime(index);
    for (let column = 0; column < RECORD_WIDTH; column++) {
      const value = source.values[start + column];
      if (isStringColumn(column)) this.values[this.used++] = this.indexOf(source.strings[value]);
      else if (column === COLUMN.request_time) this.values[this.used++] = from.requestTime(index) - this.since;
      else this.values[this.used++] = value;
    }
    this.size += 1;
  }

  /** The batch built so far; the builder starts a new one. */
  take(): AnalyticsBatch {
    const values = this.values;
    values.length = this.used;
    const batch = { strings: this.strings, values, since: this.since };
    this.strings = [];
    this.indexes = new Map();
    this.values = this.spares.pop() ?? newValues(this.capacity);
    this.used = 0;
    this.size = 0;
    return batch;
  }

  /**
   * Gives back the values of a full batch this builder made, once nothing reads that batch any
   * more: a following batch is written into them instead of a new array. A full batch's values
   * (1,000 records: 19,000 numbers) are a large object to V8, slow to allocate, and the request
   * whose record fills the batch would pay for it.
   */
  recycle(values: number[]): void {
    if (this.capacity > 0 && values.length === this.capacity * RECORD_WIDTH && this.spares.length < MAX_SPARES)
      this.spares.push(values);
  }

  private indexOf(value: string): number {
    let index = this.indexes.get(value);
    if (index === undefined) {
      index = this.strings.push(value) - 1;
      this.indexes.set(value, index);
    }
    return index;
  }
}

function newValues(records: number): number[] {
  // Room for `records` from the start (holes until written: take() cuts the array at what was).
  return records > 0 ? new Array<number>(records * RECORD_WIDTH) : [];
}

const IS_STRING_COLUMN = Array.from({ length: RECORD_WIDTH }, (_, column) =>
  (STRING_COLUMNS as readonly number[]).includes(column),
);
const isStringColumn = (column: number) => IS_STRING_COLUMN[column];

/** Reads the records of a batch by index. */
export class AnalyticsBatchReader {
  readonly count: number;

  constructor(readonly batch: AnalyticsBatch) {
    this.count = batch.values.length / RECORD_WIDTH;
  }

  /** a number column of record `index` (or, for a string column, its index into `strings`) */
  value(index: number, column: number): number {
    return this.batch.values[index * RECORD_WIDTH + column];
  }

  /** a string column of record `index` */
  text(index: number, column: number): string {
    return this.batch.strings[this.batch.values[index * RECORD_WIDTH + column]];
  }

  /** epoch ms when record `index`'s request arrived */
  requestTime(index: number): number {
    return this.batch.since + this.value(index, COLUMN.request_time);
  }

  /** Record `index` as an object (to read it back; folding and storing do without). */
  record(index: number): AnalyticsRecordIn {
    const text = (column: number) => this.text(index, column);
    const tags = text(COLUMN.tags);
    return {
      api_id: text(COLUMN.api_id),
      api_name: text(COLUMN.api_name),
      org_id: text(COLUMN.org_id),
      path: text(COLUMN.path),
      raw_path: text(COLUMN.raw_path),
      method: text(COLUMN.method),
      response_code: this.value(index, COLUMN.response_code),
      key_hash: text(COLUMN.key_hash),
      alias: text(COLUMN.alias),
      oauth_client_id: text(COLUMN.oauth_client_id),
      request_time: this.requestTime(index),
      latency: this.value(index, COLUMN.latency_us) / 1000,
      upstream_latency: this.value(index, COLUMN.upstream_latency_us) / 1000,
      ip_address: text(COLUMN.ip_address),
      user_agent: text(COLUMN.user_agent),
      iso_country: text(COLUMN.iso_country),
      tags: tags === '' ? [] : (JSON.parse(tags) as string[]),
      track_path: this.value(index, COLUMN.track_path) === 1,
      expire_after: this.value(index, COLUMN.expire_after),
      refused_before_auth: this.value(index, COLUMN.refused_before_auth) === 1,
    };
  }
}

/** The records of a batch, as objects (to read them back: folding and storing do without). */
export function recordsOf(batch: AnalyticsBatch): AnalyticsRecordIn[] {
  const reader = new AnalyticsBatchReader(batch);
  return Array.from({ length: reader.count }, (_, index) => reader.record(index));
}

/** A batch of these records (tests, benchmarks, and whoever still holds objects). */
export function batchOf(records: Iterable<AnalyticsRecordIn>): AnalyticsBatch {
  const builder = new AnalyticsBatchBuilder();
  for (const record of records) builder.add(record);
  return builder.take();
}

/** The longest each string column may be in a batch from another node (the stored columns' sizes). */
const MAX_TEXT: Partial<Record<number, number>> = {
  [COLUMN.api_id]: 255,
  [COLUMN.api_name]: 1000,
  [COLUMN.org_id]: 255,
  [COLUMN.method]: 32,
  [COLUMN.key_hash]: 255,
  [COLUMN.alias]: 1000,
  [COLUMN.oauth_client_id]: 255,
  [COLUMN.ip_address]: 255,
  [COLUMN.iso_country]: 8,
};
export const MAX_BATCH_RECORDS = 10_000;
const FLAG_COLUMNS = [
  [COLUMN.track_path, 'track_path'],
  [COLUMN.refused_before_auth, 'refused_before_auth'],
] as const;

/**
 * What is wrong with a batch that came over the bus, or undefined when nothing is: the shape,
 * every string index in range, every number of its column's kind, the stored columns' lengths.
 * A batch a node's own recorder built needs no check.
 */
export function batchProblem(batch: unknown): string | undefined {
  if (typeof batch !== 'object' || batch === null) return 'the batch is not an object';
  const { strings, values, since } = batch as Partial<AnalyticsBatch>;
  if (!Array.isArray(strings) || !strings.every((one) => typeof one === 'string'))
    return '`strings` is not an array of strings';
  if (typeof since !== 'number' || !Number.isSafeInteger(since) || since < 0)
    return '`since` is not epoch milliseconds';
  if (!Array.isArray(values) || values.length % RECORD_WIDTH !== 0)
    return `\`values\` is not an array of ${RECORD_WIDTH} numbers per record`;
  if (values.length / RECORD_WIDTH > MAX_BATCH_RECORDS) return `a batch holds at most ${MAX_BATCH_RECORDS} records`;
  const tagsChecked = new Set<number>();
  for (let start = 0; start < values.length; start += RECORD_WIDTH) {
    for (let column = 0; column < RECORD_WIDTH; column++) {
      const value = values[start + column];
      if (typeof value !== 'number' || !Number.isSafeInteger(value))
        return `record ${start / RECORD_WIDTH}: column ${column} is not an integer`;
      if (isStringColumn(column)) {
        if (value < 0 || value >= strings.length)
          return `record ${start / RECORD_WIDTH}: column ${column} names no string of the batch`;
        const max = MAX_TEXT[column];
        if (max !== undefined && strings[value].length > max)
          return `record ${start / RECORD_WIDTH}: column ${column} is longer than ${max}`;
      } else if (value < 0 && column !== COLUMN.request_time)
        return `record ${start / RECORD_WIDTH}: column ${column} is negative`;
      else if (column === COLUMN.request_time && since + value < 0)
        return `record ${start / RECORD_WIDTH}: request_time is before 1970`;
    }
    for (const [column, name] of FLAG_COLUMNS) {
      const flag = values[start + column];
      if (flag !== 0 && flag !== 1) return `record ${start / RECORD_WIDTH}: ${name} is not 0 or 1`;
    }
    const tags = values[start + COLUMN.tags];
    if (!tagsChecked.has(tags)) {
      if (!isTagList(strings[tags]))
        return `record ${start / RECORD_WIDTH}: tags are not '' or a JSON array of strings`;
      tagsChecked.add(tags);
    }
  }
  return undefined;
}

function isTagList(text: string): boolean {
  if (text === '') return true;
  try {
    const tags: unknown = JSON.parse(text);
    return Array.isArray(tags) && tags.every((tag) => typeof tag === 'string');
  } catch {
    return false;
  }
}
