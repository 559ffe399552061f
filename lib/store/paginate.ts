import type { Knex } from 'knex';
import { pageCount, pageWindow } from '../pagination';

/**
 * One page of a list query, and how many pages the whole list fills (page 0 or lower is
 * everything). Rows come oldest first, ties broken by id.
 */
export async function paginate<Row>(
  base: Knex.QueryBuilder,
  page: number,
  pageSize: number,
): Promise<{ rows: Row[]; pages: number }> {
  const [{ total }] = await base.clone().count({ total: '*' });
  const window = pageWindow(page, pageSize);
  const query = base
    .clone()
    .select('*')
    .orderBy([{ column: 'created_at' }, { column: 'id' }])
    .offset(window.offset);
  if (window.limit !== undefined) query.limit(window.limit);
  return { rows: (await query) as Row[], pages: pageCount(Number(total), pageSize) };
}
