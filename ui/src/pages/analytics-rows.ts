/** The analytics records of the dashboard's activity views, and how the pages print them. */
export interface Row {
  id: {
    day?: number;
    month?: number;
    year?: number;
    hour?: number;
    code?: number;
    path?: string;
    url?: string;
    api_id?: string;
    api_name?: string;
    key?: string;
    alias?: string;
    oauth_client_id?: string;
  };
  hits: number;
  success: number;
  error: number;
  latency: number;
  upstream_latency: number;
}
export type Rows = { data: Row[]; pages: number };

export const day = (d: Date) => d.toISOString().slice(0, 10);
/** `2026-11-22` → `22/11/2026`, the path form of the activity views. */
export const pathDate = (iso: string) => iso.split('-').reverse().map(Number).join('/');
const pad = (n: number | undefined) => String(n ?? 0).padStart(2, '0');
export const when = (r: Row) =>
  `${r.id.year}-${pad(r.id.month)}-${pad(r.id.day)}${r.id.hour === undefined ? '' : ` ${pad(r.id.hour)}:00`}`;
export const ms = (n: number) => `${Math.round(n * 10) / 10} ms`;
