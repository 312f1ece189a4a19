/**
 * Fault injection replays: the *_rate faults draw from a seeded generator, so the same seed gives the
 * same decisions request by request; the seed is reported, and BOOKDROP_FAULT_SEED sets it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type Sandbox, startSandbox } from '../../sandbox'

const KEY = 'svc_sk_seed_test'
let sb: Sandbox | null = null
afterEach(async () => {
  await sb?.stop()
  sb = null
  vi.unstubAllEnvs()
})

async function statuses(seed: number | undefined): Promise<{ seed: number; seen: number[] }> {
  sb = await startSandbox({
    port: 0,
    fixtures: { businesses: [{ key: KEY }], rate_limit: { limit: 100_000, window_seconds: 60 } },
    faults: { error_rate: 0.5, ...(seed === undefined ? {} : { seed }) },
  })
  const seen: number[] = []
  for (let i = 0; i < 40; i++) {
    const res = await fetch(`${sb.url}/auth/validate`, { headers: { 'X-API-Key': KEY } })
    seen.push(res.status)
  }
  const stats = (await (await fetch(`${sb.origin}/_sandbox/stats`)).json()) as { data: { seed: number; in_flight: number } }
  expect(stats.data.in_flight).toBe(0)
  await sb.stop()
  sb = null
  return { seed: stats.data.seed, seen }
}

describe('seeded faults', () => {
  it('the same seed makes the same decisions; another seed others', async () => {
    const a = await statuses(1234)
    const b = await statuses(1234)
    const c = await statuses(99)
    expect(a.seed).toBe(1234)
    expect(a.seen).toEqual(b.seen)
    expect(a.seen).not.toEqual(c.seen)
    expect(new Set(a.seen).size).toBeGreaterThan(1) // some failed, some did not
  })

  it('BOOKDROP_FAULT_SEED replays a run whose seed was printed', async () => {
    const first = await statuses(undefined)
    vi.stubEnv('BOOKDROP_FAULT_SEED', String(first.seed))
    const replay = await statuses(undefined)
    expect(replay.seed).toBe(first.seed)
    expect(replay.seen).toEqual(first.seen)
  })
})
