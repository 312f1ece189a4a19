/**
 * Retry and poll timing. Exponential backoff with full jitter (each wait is uniform in
 * [0, min(cap, base × 2^attempt))), the scheme that spreads retries of many clients best; a wait the
 * server asked for (Retry-After, X-RateLimit-Reset) is never undercut.
 */
export interface BackoffOptions {
  baseMs: number
  capMs: number
}

export const DEFAULT_RETRY_BACKOFF: BackoffOptions = { baseMs: 1000, capMs: 5 * 60_000 }

/** Waiting for the path to the server: 1 s, 2 s, 4 s … at most 30 s between two tries. */
export const DEFAULT_CONNECTION_RETRY: BackoffOptions = { baseMs: 1000, capMs: 30_000 }

/** The wait before connection probe number `failures` (1 = after the first failure): no jitter. */
export function connectionDelay(failures: number, opts: BackoffOptions = DEFAULT_CONNECTION_RETRY): number {
  return Math.min(opts.capMs, opts.baseMs * 2 ** Math.max(0, failures - 1))
}

/** Wait before retry number `attempt` (1 = the first retry). */
export function fullJitterDelay(
  attempt: number,
  opts: BackoffOptions,
  random: () => number = Math.random,
): number {
  const exp = Math.min(opts.capMs, opts.baseMs * 2 ** Math.max(0, attempt - 1))
  return Math.floor(random() * exp)
}

/** The wait before a retry: at least what the server asked for, else full jitter. */
export function retryDelay(
  attempt: number,
  serverAskedMs: number | undefined,
  opts: BackoffOptions = DEFAULT_RETRY_BACKOFF,
  random: () => number = Math.random,
): number {
  const jitter = fullJitterDelay(attempt, opts, random)
  return serverAskedMs !== undefined ? Math.max(serverAskedMs, Math.min(jitter, 1000)) : jitter
}

export interface PollOptions {
  firstMs: number
  maxMs: number
  factor: number
}

/** Job polling: about 1 s at first, rising to 30 s. */
export const DEFAULT_POLL: PollOptions = { firstMs: 1000, maxMs: 30_000, factor: 1.6 }

/** Wait before poll number `polls + 1`, with ±10% jitter so many jobs don't poll in lockstep. */
export function pollDelay(
  polls: number,
  opts: PollOptions = DEFAULT_POLL,
  random: () => number = Math.random,
): number {
  const base = Math.min(opts.maxMs, opts.firstMs * opts.factor ** Math.max(0, polls))
  return Math.round(base * (0.9 + 0.2 * random()))
}
