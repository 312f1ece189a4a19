/**
 * The client's options, the shapes of what it takes and answers, and its small helpers (option
 * checks, local errors, the envelope every answer is first read through).
 */
import type { z } from 'zod'
import type { EnvironmentOption } from './base-url'
import { ApiError, CLIENT_ERROR_CODES } from './errors'
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
