/**
 * Token buckets by key (a remote address, a session): `burst` requests at once, refilled at `perMinute`.
 * Keys not seen for a while are forgotten, so a flood of addresses cannot grow it without end.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>()

  constructor(
    private readonly perMinute: number,
    private readonly burst: number,
    private readonly now: () => number = Date.now,
    private readonly maxKeys = 10_000,
  ) {}

  /** Takes one token for `key`; false when there is none left (the request is refused). */
  take(key: string): boolean {
    const t = this.now()
    let b = this.buckets.get(key)
    if (!b) {
      if (this.buckets.size >= this.maxKeys) this.forgetIdle(t)
      if (this.buckets.size >= this.maxKeys) return false
      b = { tokens: this.burst, at: t }
      this.buckets.set(key, b)
    }
    b.tokens = Math.min(this.burst, b.tokens + ((t - b.at) * this.perMinute) / 60_000)
    b.at = t
    if (b.tokens < 1) return false
    b.tokens -= 1
    return true
  }

  private forgetIdle(t: number): void {
    for (const [k, b] of this.buckets) if (b.tokens + ((t - b.at) * this.perMinute) / 60_000 >= this.burst) this.buckets.delete(k)
  }
}
