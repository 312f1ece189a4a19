/**
 * The client's options, the shapes of what it takes and answers, and its small helpers (option
 * checks, local errors, the envelope every answer is first read through).
 */
import type { z } from 'zod'
import type { EnvironmentOption } from './base-url'
import { ApiError, CLIENT_ERROR_CODES, type ConnectionProblem } from './errors'
import type { Network } from './network'
import type { RateLimit } from './ratelimit'
import type { StreamedJsonBody } from './stream-body'

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

/**
 * How the client authenticates (api-spec.md Part 5). For key auth, `mode` may be left out when the
 * prefix says it (svc_sk_ business, svc_partner_sk_ partner); set it for a partner key "of
 * equivalent form" with another prefix.
 */
export type ClientAuth =
  { mode?: 'business' | 'partner'; key: string } | { mode: 'oauth'; appKey: string; accessToken: string }

export type AuthMode = 'business' | 'partner' | 'oauth'

/** What `onResponse` sees for every HTTP response (never the key). */
export interface ResponseInfo {
  method: string
  /** API path without base or query, e.g. `/referred-businesses/abc/add-seats`. */
  path: string
  status: number
  rateLimit: RateLimit | undefined
}

export type ClientOptions = EnvironmentOption & {
  auth: ClientAuth
  /** Per-request timeout in ms (whole request, body included); default 60 000. */
  timeoutMs?: number
  /** Largest file aiCreateFromFiles sends; default 25 MB. */
  maxFileBytes?: number
  /** Called after every HTTP response, success or failure; exceptions it throws are ignored. */
  onResponse?: (info: ResponseInfo) => void
  userAgent?: string
  /**
   * Where requests go (direct or a proxy) and which certificate authorities are trusted; default:
   * the environment's proxy (HTTPS_PROXY, NO_PROXY), Node's and the OS's authorities.
   */
  network?: Network
  /** The largest answer read (as sent, and once decoded); default 16 MB. */
  maxResponseBytes?: number
  /** How a person sets the timeout, named in a timeout's message (e.g. "--timeout"); default the option's name. */
  timeoutHint?: string
  /**
   * Told after every exchange whether the API answered (any answer in its envelope, a refusal
   * included) or, if not, what the path's problem was. Exceptions it throws are ignored.
   */
  onConnection?: (event: ConnectionEvent) => void
}

export type ConnectionEvent =
  | { ok: true }
  | {
      ok: false
      problem: ConnectionProblem
      configuration: boolean
      message: string
      /** The answer's status (0: none came) and its Retry-After (a 5xx page's wait). */
      status?: number
      retryAfterMs?: number
    }

export interface ReadOptions {
  signal?: AbortSignal
  /** Overrides the client's timeoutMs for this call. */
  timeoutMs?: number
}

export interface WriteOptions extends ReadOptions {
  /** Sent as `Idempotency-Key`; pass the same value when retrying the same create. Default: a new UUID. */
  idempotencyKey?: string
}

export const DEFAULT_TIMEOUT_MS = 60_000
/** No answer of the API comes near this; far below what a string can hold (about 512 MB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024
export const DEFAULT_MAX_FILE_BYTES = 25 * 1024 * 1024
/** Files of an AI create that add up to at most this are sent as one body built in memory; more stream. */
export const WHOLE_BODY_MAX_BYTES = 2 * 1024 * 1024

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
export type RouteAuth = 'business' | 'partner'

export interface SendRequest<S extends z.ZodType> {
  method: Method
  path: string
  auth: RouteAuth
  query?: Record<string, string | number | undefined>
  json?: unknown
  stream?: StreamedJsonBody
  /** A JSON body already serialised to bytes (aiCreateFromFiles with small files). */
  bytes?: Uint8Array
  /** Idempotency-Key already chosen by the caller of #send (mutations). */
  idempotencyKey?: string
  envelope: S
  opts: ReadOptions | undefined
  /**
   * What the API's success answer to this call always carries (a create's data, a job's fields):
   * an envelope without it is not the API's word (a maintenance page in JSON) but the path's.
   */
  expect?: { holds: (body: Record<string, unknown>) => boolean; what: string }
}

export const HEADER_SAFE = /^[\x21-\x7e]+$/

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

export function localError(errorCode: string, message: string): ApiError {
  return new ApiError({ status: 0, errorCode, message, retryable: false })
}

/** A key or token: trimmed (pasted keys often carry a newline), non-empty, sendable in a header. */
export function secretValue(value: unknown, what: string): string {
  const v = typeof value === 'string' ? value.trim() : ''
  if (v === '') throw localError(CLIENT_ERROR_CODES.invalidKey, `${what} is missing.`)
  if (!HEADER_SAFE.test(v)) {
    throw localError(
      CLIENT_ERROR_CODES.invalidKey,
      `${what} contains spaces or characters that cannot be sent in a header; paste it again as one word.`,
    )
  }
  return v
}

export function positiveOption(
  name: string,
  value: number | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  if (value === undefined) return fallback
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > max) {
    throw localError(
      CLIENT_ERROR_CODES.invalidOption,
      `${name} must be a number greater than 0 (got ${String(value)}).`,
    )
  }
  return value
}
