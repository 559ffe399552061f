/**
 * Dashboard pagination: `p` starts at 1; a value of 0 or lower returns
 * every item. `pages` is the number of pages of `pageSize` the whole list fills.
 */
export interface PageWindow {
  limit?: number;
  offset: number;
}

/** A page past anything a store can hold is simply empty. */
const EMPTY: PageWindow = { limit: 0, offset: 0 };

export function pageWindow(page: number, pageSize: number): PageWindow {
  if (page <= 0) return { offset: 0 };
  const offset = (page - 1) * pageSize;
  return Number.isSafeInteger(offset) ? { limit: pageSize, offset } : EMPTY;
}

export function pageCount(total: number, pageSize: number): number {
  return Math.ceil(total / pageSize);
}

/** Reads the `p` query parameter; absent means the first page. Returns null when malformed. */
export function parsePageParam(raw: unknown): number | null {
  if (raw === undefined || raw === '') return 1;
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw)) return null;
  // Any number of digits is a page number; past the safe integers it is just "very far".
  return Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, Number(raw)));
}
