/**
 * Which upstream hosts of one API are known to be unhealthy, on this gateway node: taken out by
 * an uptime test (until a check passes again) or for a short while after refusing a connection
 * (then tried again, so a host that came back is used again without any check configured).
 */
export class HostHealth {
  /** origin → down until (epoch ms); Infinity = until an uptime check passes */
  private readonly downUntil = new Map<string, number>();

  constructor(
    private readonly refusedForMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  isDown(origin: string): boolean {
    const until = this.downUntil.get(origin);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.downUntil.delete(origin);
    return false;
  }

  /** the host refused a connection: skipped for a while, then tried again */
  refused(origin: string): void {
    if (this.downUntil.get(origin) !== Infinity) this.downUntil.set(origin, this.now() + this.refusedForMs);
  }

  /** an uptime test found the host down: skipped until one finds it up */
  down(origin: string): void {
    this.downUntil.set(origin, Infinity);
  }

  up(origin: string): void {
    this.downUntil.delete(origin);
  }
}
