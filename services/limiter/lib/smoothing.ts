import type { SmoothingSpec } from '../../../contracts/limiter/actions';

/** a state not used for this long is forgotten: its counter starts again at the threshold */
export const SMOOTHING_IDLE_MS = 3600_000;

interface SmoothingState {
  allowance: number;
  windowMs: number;
  changedAt: number;
  requests: number[];
}

export type SmoothingChange = { direction: 'up' | 'down'; from: number; to: number };

/** Where smoothed allowances live: this node's memory (`Smoother`), or the host's (shared-smoother.ts). */
export interface SmoothingStore {
  /** Records a request and returns the allowance that applies to it, with the change it caused. */
  allowance(
    counter: string,
    spec: SmoothingSpec,
    rate: number,
    windowMs: number,
    now: number,
  ): { allowance: number; change?: SmoothingChange };
  /** Forgets idle states (a store that sweeps itself may do nothing). */
  sweep(now: number): void;
}

/**
 * The step an allowance takes, if any, with `current` requests in the last window: up by `step`
 * when they reach allowance − step × trigger, down by `step` below allowance − step × (1 + trigger),
 * never above the rate nor below the threshold.
 */
export function smoothingStep(
  from: number,
  current: number,
  rate: number,
  spec: SmoothingSpec,
): SmoothingChange | undefined {
  if (from < rate && current >= from - spec.step * spec.trigger)
    return { direction: 'up', from, to: Math.min(rate, from + spec.step) };
  if (from > spec.threshold && current < from - spec.step * (1 + spec.trigger))
    return { direction: 'down', from, to: Math.max(spec.threshold, from - spec.step) };
  return undefined;
}

/**
 * Rate limit smoothing (docs/limits.md#smoothing): the allowance starts at `threshold`,
 * rises by `step` when the request rate reaches allowance − step × trigger, falls by `step` when
 * it drops below allowance − step × (1 + trigger), never above the rate nor below the
 * threshold, and changes at most once per `delay` seconds. The request rate is what this node
 * saw in the last window.
 */
export class Smoother implements SmoothingStore {
  private readonly states = new Map<string, SmoothingState>();

  /** Records a request and returns the allowance that applies to it, with the change it caused. */
  allowance(
    counter: string,
    spec: SmoothingSpec,
    rate: number,
    windowMs: number,
    now: number,
  ): { allowance: number; change?: SmoothingChange } {
    let state = this.states.get(counter);
    if (!state)
      this.states.set(
        counter,
        (state = { allowance: Math.min(spec.threshold, rate), windowMs, changedAt: -Infinity, requests: [] }),
      );
    state.windowMs = windowMs;
    const cutoff = now - windowMs;
    let expired = 0;
    while (expired < state.requests.length && state.requests[expired] <= cutoff) expired++;
    if (expired > 0) state.requests.splice(0, expired);
    state.requests.push(now);
    const current = state.requests.length;
    const change =
      now - state.changedAt >= spec.delay * 1000 ? smoothingStep(state.allowance, current, rate, spec) : undefined;
    if (change) {
      state.allowance = change.to;
      state.changedAt = now;
    }
    return { allowance: state.allowance, change };
  }

  /** how many counters have a state */
  get size(): number {
    return this.states.size;
  }

  /**
   * Forgets the states of counters that saw no request for an hour (and a whole window): by then
   * their allowance would have stepped back towards the threshold anyway.
   */
  sweep(now: number): void {
    for (const [counter, state] of this.states) {
      const last = state.requests[state.requests.length - 1] ?? -Infinity;
      if (now - last > Math.max(SMOOTHING_IDLE_MS, state.windowMs)) this.states.delete(counter);
    }
  }
}
