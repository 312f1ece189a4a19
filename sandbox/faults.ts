/**
 * The faults the emulator can inject (set through /_sandbox/faults or SandboxOptions.faults), and
 * the seeded random source of the rate-based ones, so a failing run replays.
 */
import { z } from 'zod'

export const faultsSchema = z.object({
  /** Added delay before each /v1 request is handled. */
  latency_ms: z.number().min(0).default(0),
  /** Fraction (0..1) of /v1 requests answered with one of `error_statuses` instead of being handled. */
  error_rate: z.number().min(0).max(1).default(0),
  error_statuses: z
    .array(z.union([z.literal(500), z.literal(502), z.literal(503)]))
    .min(1)
    .default([500, 502, 503]),
  /** The next N /v1 requests fail with an error status (deterministic, counts down). */
  fail_next: z.number().int().min(0).default(0),
  /** The next N /v1 requests are answered 429 (a burst), whatever the real budget. */
  burst_429: z.number().int().min(0).default(0),
  /** How a 429 burst states its reset: seconds from now, or an epoch time; and the wait it asks for. */
  burst_reset_style: z.enum(['seconds', 'epoch']).default('seconds'),
  burst_retry_after: z.boolean().default(true),
  burst_wait_seconds: z.number().int().min(1).default(1),
  /** Fraction of /v1 requests whose connection is dropped before they are handled. */
  drop_rate: z.number().min(0).max(1).default(0),
  drop_next: z.number().int().min(0).default(0),
  /** Fraction of creates that are committed, then their connection dropped before the response. */
  commit_then_drop_rate: z.number().min(0).max(1).default(0),
  commit_then_drop_next: z.number().int().min(0).default(0),
  /**
   * The next N creates are committed (their answer kept under the Idempotency-Key, so a retry with
   * the same body replays it), then answered with a gateway's HTML 502 page instead.
   */
  commit_then_502_next: z.number().int().min(0).default(0),
  /** The next N /v1 requests are answered 404 `not_found`, as a server that does not know the thing yet. */
  not_found_next: z.number().int().min(0).default(0),
  /** The next N /v1 requests get a 200 whose body is not what the route answers (a malformed success). */
  malformed_next: z.number().int().min(0).default(0),
  /** Jobs started while this is on never finish (they stay `processing`): a server that hangs. */
  stall_jobs: z.boolean().default(false),
  /**
   * Seed of the random decisions of the *_rate faults (error_rate, drop_rate, commit_then_drop_rate,
   * and which error status). Setting it restarts the sequence, so a run can be replayed. Default: the
   * environment's BOOKDROP_FAULT_SEED, else a random seed (GET /_sandbox/faults tells which).
   */
  seed: z.number().int().min(0).max(0xffffffff).optional(),
  /** Only requests whose path (after /v1) starts with one of these are subject to faults; empty = all. */
  paths: z.array(z.string()).default([]),
  /**
   * Routes this server does not have: a /v1 request whose path (after /v1) starts with one of these
   * is 404 `no route`, like any unknown route (a server that follows no job references: ["/jobs/"]).
   */
  missing_paths: z.array(z.string().min(1)).default([]),
})

/** A small seeded PRNG (mulberry32): the fault decisions replay exactly for the same seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The fault seed a sandbox starts with: BOOKDROP_FAULT_SEED when set (to replay a run), else random. */
export function initialFaultSeed(env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = env.BOOKDROP_FAULT_SEED
  if (fromEnv !== undefined && /^\d+$/.test(fromEnv.trim())) return Number(fromEnv.trim()) >>> 0
  return Math.floor(Math.random() * 0xffffffff)
}
export type Faults = z.output<typeof faultsSchema>
export type FaultsInput = z.input<typeof faultsSchema>
