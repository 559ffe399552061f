import { LimitError } from './errors';

/** units of work between two reads of the clock: cheap, and the deadline is noticed well within a ms */
const CLOCK_STRIDE = 32;

interface TimeBudget {
  deadline: number;
  millis: number;
  work: number;
}

/**
 * The wall-clock budget of the evaluation running now. Evaluation is synchronous, so one slot
 * is enough: the helpers deep inside it (JSON, copies, sort comparisons) check it without a
 * context being passed to each of them.
 */
let active: TimeBudget | undefined;

/** A failure of a mapping that ran out of time: it holds the thread every API of the node shares. */
export class TimeBudgetError extends LimitError {
  constructor(readonly millis: number) {
    super(`mapping exceeded its time budget of ${millis} ms`);
  }
}

/** the budget of an evaluation whose options name none */
let defaultMillis = 50;

/**
 * Sets the node's budget for evaluations whose options name none: mappings, checks and the
 * interpolated fields of every connector. The streams service applies its setting at start.
 */
export function setDefaultTimeBudget(millis: number): void {
  defaultMillis = millis;
}

export function defaultTimeBudget(): number {
  return defaultMillis;
}

/** Runs `work` with `millis` ms of wall time (inside another budget, the nearer deadline holds). */
export function withTimeBudget<T>(millis: number, work: () => T): T {
  const outer = active;
  const deadline = performance.now() + millis;
  active = outer && outer.deadline < deadline ? { ...outer, work: 0 } : { deadline, millis, work: 0 };
  try {
    return work();
  } finally {
    active = outer;
  }
}

/** Counts `work` units; every CLOCK_STRIDE units the clock is read, and past the deadline this throws. */
export function pace(work = 1): void {
  const budget = active;
  if (budget === undefined) return;
  budget.work += work;
  if (budget.work < CLOCK_STRIDE) return;
  budget.work = 0;
  if (performance.now() > budget.deadline) throw new TimeBudgetError(budget.millis);
}

/** Reads the clock now: after a native operation whose cost grows with its input (a large string, a sort). */
export function checkClock(): void {
  pace(CLOCK_STRIDE);
}

/** A comparator that paces: a sort of many items is native work the budget could not stop otherwise. */
export function paced<T>(compare: (a: T, b: T) => number): (a: T, b: T) => number {
  return (a, b) => {
    pace();
    return compare(a, b);
  };
}

const byCodeUnits = paced((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0));

/** An object's keys in Array.prototype.sort's order (UTF-16 code units), paced. */
export function sortedKeys(object: object): string[] {
  return Object.keys(object).sort(byCodeUnits);
}
