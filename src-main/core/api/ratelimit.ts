/**
 * Rate-limit and retry headers of the bookkeeping API (api-spec.md Part 8, design.md §3), as pure
 * functions of (headers, now) so the client, the upload queue and tests share one reading.
 *
 * - `X-RateLimit-Limit`, `X-RateLimit-Remaining`: non-negative numbers.
 * - `X-RateLimit-Reset`: seconds until the window resets (what the emulator sends), or an epoch
 *   time in seconds when the value is at or above EPOCH_THRESHOLD_SECONDS.
 * - `Retry-After`: delay in seconds or an HTTP date (RFC 9110 §10.2.3).
 */
import { EPOCH_THRESHOLD_SECONDS } from '../../../schemas/assumptions'

export interface RateLimit {
  /** Maximum requests per window, or null when the header is absent or unreadable. */
  limit: number | null
  /** Requests left in the current window, or null when absent or unreadable. */
  remaining: number | null
  /** When the window resets, in epoch milliseconds, or null when absent or unreadable. */
  resetAt: number | null
}

/** Anything headers can be read from: fetch `Headers`, or node's `IncomingHttpHeaders`-style record. */
export type HeaderSource =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | number | undefined>>

/** The value of one header (case-insensitive); the first of repeated or comma-joined values. */
export function headerValue(headers: HeaderSource, name: string): string | undefined {
  let raw: string | undefined
  if (typeof (headers as { get?: unknown }).get === 'function') {
    raw = (headers as { get(name: string): string | null }).get(name) ?? undefined
  } else {
    const lower = name.toLowerCase()
    const rec = headers as Readonly<Record<string, string | readonly string[] | number | undefined>>
    const key = Object.keys(rec).find((k) => k.toLowerCase() === lower)
    const v = key === undefined ? undefined : rec[key]
    raw = Array.isArray(v) ? (v[0] as string | undefined) : v === undefined ? undefined : String(v)
  }
  if (raw === undefined) return undefined
  const trimmed = raw.trim()
  return trimmed === '' ? undefined : trimmed
}

const NUMBER_RE = /^\d+(?:\.\d+)?$/

/** A non-negative decimal number written in a header, or null ("abc", "-1", "" and "1e3" are null). */
export function parseHeaderNumber(value: string | undefined): number | null {
  if (value === undefined) return null
  // A proxy may fold repeated headers into "600, 600": the first one counts.
  const first = value.split(',')[0]?.trim() ?? ''
  if (!NUMBER_RE.test(first)) return null
  const n = Number(first)
  return Number.isFinite(n) ? n : null
}

/**
 * `X-RateLimit-Reset` as epoch milliseconds: below EPOCH_THRESHOLD_SECONDS the value is seconds from
 * `now`, at or above it the value is an epoch time in seconds.
 */
export function parseRateLimitReset(value: string | undefined, now: number): number | null {
  const n = parseHeaderNumber(value)
  if (n === null) return null
  return n >= EPOCH_THRESHOLD_SECONDS ? Math.round(n * 1000) : Math.round(now + n * 1000)
}

/** The rate-limit headers of a response, or undefined when none of the three is readable. */
export function parseRateLimit(headers: HeaderSource, now: number = Date.now()): RateLimit | undefined {
  const rl: RateLimit = {
    limit: parseHeaderNumber(headerValue(headers, 'x-ratelimit-limit')),
    remaining: parseHeaderNumber(headerValue(headers, 'x-ratelimit-remaining')),
    resetAt: parseRateLimitReset(headerValue(headers, 'x-ratelimit-reset'), now),
  }
  return rl.limit === null && rl.remaining === null && rl.resetAt === null ? undefined : rl
}

/**
 * `Retry-After` in milliseconds from `now`: delay-seconds ("120", leniently "1.5") or an HTTP date
 * ("Wed, 21 Oct 2015 07:28:00 GMT"); a date in the past gives 0. Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined
  const v = value.trim()
  if (NUMBER_RE.test(v)) return Math.round(Number(v) * 1000)
  // Date.parse reads "120" or "-1" as years; only text that looks like a date (has letters) is a date.
  if (!/[a-z]/i.test(v)) return undefined
  const at = Date.parse(v)
  if (Number.isNaN(at)) return undefined
  return Math.max(0, at - now)
}

/**
 * How long to wait before trying again, in ms: `Retry-After` when present; otherwise, on 429 only,
 * the time until `X-RateLimit-Reset`. Undefined when the response says nothing.
 */
export function retryAfterMs(
  status: number,
  headers: HeaderSource,
  now: number = Date.now(),
): number | undefined {
  const fromRetryAfter = parseRetryAfter(headerValue(headers, 'retry-after'), now)
  if (fromRetryAfter !== undefined) return fromRetryAfter
  if (status !== 429) return undefined
  const resetAt = parseRateLimitReset(headerValue(headers, 'x-ratelimit-reset'), now)
  return resetAt === null ? undefined : Math.max(0, resetAt - now)
}

/** Whether an HTTP failure is worth retrying later: 429 and 5xx. (Network failures are too; see ApiError.) */
export function isRetryableHttpStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599)
}
