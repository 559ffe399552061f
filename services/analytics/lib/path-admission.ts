import type { Knex } from 'knex';
import { OTHER_PATHS, UNAUTHENTICATED_PATH } from '../../../contracts/analytics/actions';
import { hourlyId, merge, type HourlyDelta } from './hourly-aggregates';

const HOUR = 3_600_000;
/** Hours before the newest seen whose path sets are kept; a late batch of an older one reads it again. */
const HOURS_KEPT = 2;

/** The paths one API has hourly rows for in one hour. */
interface HourPaths {
  hour: number;
  paths: Set<string>;
}

/** Whether a row's path is a path a client chose (not untracked, not one of the shared buckets). */
const isClientPath = (path: string) => path !== '' && path !== UNAUTHENTICATED_PATH && path !== OTHER_PATHS;

const keyOf = (row: HourlyDelta) => `${row.org_id}\u0000${row.api_id}\u0000${row.hour_start}`;

/**
 * Bounds the distinct paths an API has hourly rows for in an hour: the first `limit` paths get
 * rows of their own, requests on any further path count for OTHER_PATHS. Decided where the
 * rows are made (the analytics service), so it holds however many gateway nodes send records.
 * Each API-hour's paths are read from the table once, then kept in memory and decided
 * synchronously, so the batches this node stores concurrently never both take the last place.
 * Several analytics nodes each decide against what they read: together they may exceed the
 * limit by what they admitted meanwhile, never without bound.
 */
export class PathAdmission {
  private readonly known = new Map<string, HourPaths>();
  private readonly loading = new Map<string, Promise<HourPaths>>();
  private newestHour = 0;

  /** @param limit distinct paths per API and hour; 0 admits every path */
  constructor(
    private readonly db: Knex,
    private readonly limit: number,
  ) {}

  /** The rows of a batch, paths past the limit folded into OTHER_PATHS (rows that then coincide merged). */
  async admit(rows: HourlyDelta[]): Promise<HourlyDelta[]> {
    if (this.limit <= 0) return rows;
    const sets = await this.pathSetsOf(rows);
    let folded = false;
    for (const row of rows) {
      if (!isClientPath(row.path)) continue;
      const { paths } = sets.get(keyOf(row))!;
      if (paths.has(row.path)) continue;
      if (paths.size < this.limit) {
        paths.add(row.path);
        continue;
      }
      row.path = OTHER_PATHS;
      row.id = hourlyId(row);
      folded = true;
    }
    return folded ? mergeById(rows) : rows;
  }

  /** The path set of every API-hour the rows name, read from the table when this node holds none. */
  private async pathSetsOf(rows: HourlyDelta[]): Promise<Map<string, HourPaths>> {
    const sets = new Map<string, HourPaths | Promise<HourPaths>>();
    for (const row of rows) {
      if (!isClientPath(row.path)) continue;
      const key = keyOf(row);
      if (!sets.has(key)) sets.set(key, this.known.get(key) ?? this.load(key, row));
    }
    const ready = new Map<string, HourPaths>();
    for (const [key, set] of sets) ready.set(key, await set);
    return ready;
  }

  private load(key: string, row: HourlyDelta): Promise<HourPaths> {
    let loading = this.loading.get(key);
    if (loading) return loading;
    const { org_id, api_id, hour_start } = row;
    loading = this.db('analytics_hourly')
      .distinct('path')
      .where({ org_id, api_id, hour_start })
      .whereNotIn('path', ['', UNAUTHENTICATED_PATH, OTHER_PATHS])
      .then((found: Array<{ path: string }>) => {
        const set = { hour: hour_start, paths: new Set(found.map((one) => one.path)) };
        this.keep(key, set);
        return set;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, loading);
    return loading;
  }

  private keep(key: string, set: HourPaths): void {
    this.known.set(key, set);
    if (set.hour <= this.newestHour) return;
    this.newestHour = set.hour;
    const oldest = this.newestHour - HOURS_KEPT * HOUR;
    for (const [name, kept] of this.known) if (kept.hour < oldest) this.known.delete(name);
  }
}

function mergeById(rows: HourlyDelta[]): HourlyDelta[] {
  const byId = new Map<string, HourlyDelta>();
  for (const row of rows) {
    const same = byId.get(row.id);
    if (!same) byId.set(row.id, row);
    else {
      merge(same, row);
      if (row.alias) same.alias = row.alias;
    }
  }
  return [...byId.values()];
}
