import { MAX_ACTIVITY_PERIOD_DAYS } from '../../../contracts/analytics/actions';
import { HttpProblem } from '../../../lib/http/problem';

/** The path parts of an activity period: start day, month, year, then end day, month, year. */
export const PERIOD_PATH = ':startDay/:startMonth/:startYear/:endDay/:endMonth/:endYear';

const DAY = 86_400_000;

/**
 * The period an activity URL names, in UTC: from the start of the start day to the end of the
 * end day. A part that is not a calendar date (`31/2/2024`, `0`, `x`) or an end before the
 * start is a 400 naming what is wrong, and so is a period longer than MAX_ACTIVITY_PERIOD_DAYS
 * (each request groups every hourly row of its period).
 */
export function periodFromParams(params: Record<string, string>): { from: number; to: number } {
  const from = dateOf(params.startDay, params.startMonth, params.startYear, 'start');
  const to = dateOf(params.endDay, params.endMonth, params.endYear, 'end') + DAY;
  if (to <= from) throw new HttpProblem(400, 'The end date of the period is before its start date');
  if (to - from > MAX_ACTIVITY_PERIOD_DAYS * DAY)
    throw new HttpProblem(400, `The period is longer than ${MAX_ACTIVITY_PERIOD_DAYS} days; ask for a shorter one`);
  return { from, to };
}

function dateOf(day: string, month: string, year: string, which: string): number {
  const parts = [day, month, year].map((part) => (/^\d{1,4}$/.test(part ?? '') ? Number(part) : NaN));
  const [d, m, y] = parts;
  const at = Date.UTC(y, m - 1, d);
  const date = new Date(at);
  if (
    parts.some(Number.isNaN) ||
    y < 1970 ||
    date.getUTCFullYear() !== y ||
    date.getUTCMonth() !== m - 1 ||
    date.getUTCDate() !== d
  ) {
    throw new HttpProblem(400, `The ${which} date ${day}/${month}/${year} is not a valid date (day/month/year)`);
  }
  return at;
}
