import type { SmoothingSpec } from '../../../../contracts/limiter/actions';
import { smoothingStep, type SmoothingChange, type SmoothingStore } from '../smoothing';
import type { SharedCounterStore } from './shared-counter-store';
import { SMOOTHING, SMOOTHING_ALLOWANCE, SMOOTHING_CHANGED_AT } from './slot-kinds';
import { SLOT_FLOATS } from './shared-table';

/**
 * Smoothed allowances of a whole host, in the table of its shared counter store: one state per
 * counter, whose request log is a sliding log of the table, so the rate that moves the allowance
 * is what all the host's workers saw, and N workers step it as one node's `Smoother` would.
 */
export class SharedSmoother implements SmoothingStore {
  constructor(private readonly store: SharedCounterStore) {}

  allowance(
    counter: string,
    spec: SmoothingSpec,
    rate: number,
    windowMs: number,
    now: number,
  ): { allowance: number; change?: SmoothingChange } {
    return this.store.update(SMOOTHING, counter, now, (slot, fresh) => {
      const floats = this.store.floats;
      const at = slot * SLOT_FLOATS;
      // Set before the log grows: a full log arena must not leave a state without its allowance.
      if (fresh) {
        floats[at + SMOOTHING_ALLOWANCE] = Math.min(spec.threshold, rate);
        floats[at + SMOOTHING_CHANGED_AT] = -Infinity;
      }
      const current = this.store.logRequest(slot, windowMs, now);
      const from = floats[at + SMOOTHING_ALLOWANCE];
      const due = now - floats[at + SMOOTHING_CHANGED_AT] >= spec.delay * 1000;
      const change = due ? smoothingStep(from, current, rate, spec) : undefined;
      if (change) {
        floats[at + SMOOTHING_ALLOWANCE] = change.to;
        floats[at + SMOOTHING_CHANGED_AT] = now;
      }
      return { allowance: floats[at + SMOOTHING_ALLOWANCE], change };
    });
  }

  /** Nothing to do: the table's sweep forgets states idle for an hour. */
  sweep(): void {}
}
