import type { Knex } from 'knex';

/**
 * Writes a folded batch (packs of raw records, hourly and geo aggregate deltas) in one
 * transaction: stored whole or not at all. The SQL is written here rather than built by
 * knex per row: in the embedded setup this runs in the gateway's own process, and knex's
 * builder, its transaction bookkeeping and a fresh `prepare` per query cost more than the
 * rows themselves (bench/analytics/store.ts).
 */
export type BatchWriter = (batch: FoldedBatch) => Promise<void>;

export interface FoldedBatch {
  packs: Row[];
  hourly: Row[];
  geo: Row[];
}

/** A row to write: an object with (at least) its table's columns. */
type Row = object;

interface Table {
  name: string;
  columns: readonly string[];
}

/** One aggregate table: its columns, how a batch's counters add to a stored row's, what the newest batch sets. */
interface AggregateTable extends Table {
  sums: readonly string[];
  mins: readonly string[];
  maxes: readonly string[];
  replaced: readonly string[];
}

const COUNTER_RULES = {
  sums: ['hits', 'success', 'error', 'latency_sum', 'upstream_sum'],
  mins: ['latency_min', 'upstream_min'],
  maxes: ['latency_max', 'upstream_max', 'last_hit'],
} as const;
const COUNTER_COLUMNS = [...COUNTER_RULES.sums, ...COUNTER_RULES.mins, ...COUNTER_RULES.maxes];

const PACKS: Table = {
  name: 'analytics_records',
  columns: [
    'org_id',
    'api_id',
    'api_name',
    'expire_after',
    'first_request',
    'last_request',
    'count',
    'expire_at',
    'records',
  ],
};
const HOURLY: AggregateTable = {
  name: 'analytics_hourly',
  columns: [
    'id',
    'org_id',
    'hour_start',
    'api_id',
    'api_name',
    'key_hash',
    'alias',
    'oauth_client_id',
    'path',
    'method',
    'code',
    ...COUNTER_COLUMNS,
  ],
  ...COUNTER_RULES,
  replaced: ['alias', 'api_name'],
};
const GEO: AggregateTable = {
  name: 'analytics_hourly_geo',
  columns: ['id', 'org_id', 'hour_start', 'api_id', 'api_name', 'iso_country', ...COUNTER_COLUMNS],
  ...COUNTER_RULES,
  replaced: ['api_name'],
};

/** The writer for this database: SQLite (better-sqlite3) or MySQL/MariaDB (mysql2). */
export function batchWriter(db: Knex): BatchWriter {
  return String(db.client.config.client).includes('sqlite') ? sqliteWriter(db) : mysqlWriter(db);
}

const valuesOf = (table: Table, row: Row) => table.columns.map((column) => (row as Record<string, unknown>)[column]);

/** The subset of a better-sqlite3 connection used here. */
interface SqliteConnection {
  prepare(sql: string): { run(params: unknown[]): unknown };
  transaction<A extends unknown[]>(fn: (...args: A) => void): (...args: A) => void;
}

/**
 * SQLite: statements prepared once per connection, the batch written synchronously in one
 * better-sqlite3 transaction on the connection borrowed from knex's pool (its only one, so no
 * knex query runs meanwhile; better-sqlite3 blocks the thread during a query either way).
 */
function sqliteWriter(db: Knex): BatchWriter {
  const prepared = new WeakMap<SqliteConnection, (batch: FoldedBatch) => void>();
  const prepare = (connection: SqliteConnection) => {
    const insertPack = connection.prepare(insertSql(PACKS, '"'));
    const upsertHourly = connection.prepare(sqliteUpsertSql(HOURLY));
    const upsertGeo = connection.prepare(sqliteUpsertSql(GEO));
    return connection.transaction((batch: FoldedBatch) => {
      for (const row of batch.packs) insertPack.run(valuesOf(PACKS, row));
      for (const row of batch.hourly) upsertHourly.run(valuesOf(HOURLY, row));
      for (const row of batch.geo) upsertGeo.run(valuesOf(GEO, row));
    });
  };
  return async (batch) => {
    const connection = (await db.client.acquireConnection()) as SqliteConnection;
    try {
      let write = prepared.get(connection);
      if (!write) prepared.set(connection, (write = prepare(connection)));
      write(batch);
    } finally {
      await db.client.releaseConnection(connection);
    }
  };
}

/**
 * Aggregate rows per multi-row statement on MySQL (22 columns a row stays far below the 65,535
 * placeholders). A pack, which holds a batch's records as text, goes in a statement of its own,
 * as before, so a statement stays within max_allowed_packet whatever the packs weigh.
 */
const MYSQL_ROWS_PER_STATEMENT = 500;

/** MySQL/MariaDB: multi-row INSERT (… ON DUPLICATE KEY UPDATE) statements in one knex transaction. */
function mysqlWriter(db: Knex): BatchWriter {
  const write = async (
    trx: Knex.Transaction,
    table: Table,
    rows: Row[],
    sql: (rowCount: number) => string,
    perStatement = MYSQL_ROWS_PER_STATEMENT,
  ) => {
    for (let start = 0; start < rows.length; start += perStatement) {
      const chunk = rows.slice(start, start + perStatement);
      await trx.raw(sql(chunk.length), chunk.flatMap((row) => valuesOf(table, row)) as Knex.RawBinding[]);
    }
  };
  return (batch) =>
    db.transaction(async (trx) => {
      await write(trx, PACKS, batch.packs, () => insertSql(PACKS, '`'), 1);
      // Rows in primary-key order: two nodes' batches that touch the same rows then lock them in
      // the same order and wait for each other instead of deadlocking (the loser would be dropped).
      await write(trx, HOURLY, byId(batch.hourly), (rows) => mysqlUpsertSql(HOURLY, rows));
      await write(trx, GEO, byId(batch.geo), (rows) => mysqlUpsertSql(GEO, rows));
    });
}

/** Aggregate rows (which all have an `id`, their primary key) in id order. */
function byId(rows: Row[]): Row[] {
  const idOf = (row: Row) => (row as { id: string }).id;
  return [...rows].sort((a, b) => (idOf(a) < idOf(b) ? -1 : idOf(a) > idOf(b) ? 1 : 0));
}

function insertSql(table: Table, quote: string, rows = 1): string {
  const q = (name: string) => `${quote}${name}${quote}`;
  const placeholders = `(${table.columns.map(() => '?').join(', ')})`;
  return `insert into ${q(table.name)} (${table.columns.map(q).join(', ')}) values ${Array(rows).fill(placeholders).join(', ')}`;
}

function sqliteUpsertSql(table: AggregateTable): string {
  const q = (name: string) => `"${name}"`;
  const set = [
    ...table.sums.map((c) => `${q(c)} = ${q(c)} + excluded.${q(c)}`),
    ...table.mins.map((c) => `${q(c)} = min(${q(c)}, excluded.${q(c)})`),
    ...table.maxes.map((c) => `${q(c)} = max(${q(c)}, excluded.${q(c)})`),
    ...table.replaced.map((c) => `${q(c)} = excluded.${q(c)}`),
  ];
  return `${insertSql(table, '"')} on conflict (${q('id')}) do update set ${set.join(', ')}`;
}

function mysqlUpsertSql(table: AggregateTable, rows: number): string {
  const q = (name: string) => `\`${name}\``;
  // VALUES(column): the row that would have been inserted. MySQL 8 prefers a row alias, which
  // MariaDB does not know; VALUES() works on both.
  const set = [
    ...table.sums.map((c) => `${q(c)} = ${q(c)} + values(${q(c)})`),
    ...table.mins.map((c) => `${q(c)} = least(${q(c)}, values(${q(c)}))`),
    ...table.maxes.map((c) => `${q(c)} = greatest(${q(c)}, values(${q(c)}))`),
    ...table.replaced.map((c) => `${q(c)} = values(${q(c)})`),
  ];
  return `${insertSql(table, '`', rows)} on duplicate key update ${set.join(', ')}`;
}
