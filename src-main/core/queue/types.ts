/**
 * The upload queue's vocabulary: what it needs of the API client, its options and defaults, the
 * failures it understands, and the hooks the engine gives it.
 */
import type { AiTarget, JobRead } from '../../../schemas'
import { AI_CREDITS_EXHAUSTED_STATUS, ERROR_CODES } from '../../../schemas/assumptions'
import type { RateLimit } from '../api/ratelimit'
import type { ProfileState } from '../events'
import type { Upload } from '../store/uploads'
import {
  type BackoffOptions,
  DEFAULT_POLL,
  DEFAULT_RETRY_BACKOFF,
  type PollOptions,
} from './backoff'

/** What the queue needs of the API client (the real client satisfies it). */
export interface UploadClient {
  aiCreateFromFiles(
    target: AiTarget,
    body: {
      prompt: string
      process_type?: 'async' | 'direct'
      /** Plain text sent with the prompt (a mail's body, issue 24); then `files` is empty. */
      text_attachment?: string
      files: { path: string; name: string; expect?: { size: number; mtimeMs: number; sha256: string } }[]
    },
    opts: {
      idempotencyKey: string
      maxFileBytes?: number
      onProgress?: (sent: number, total: number) => void
    },
  ): Promise<
    | { process_type: 'async'; job_reference: string }
    | { process_type: 'direct'; record: { uuid: string; resource_type?: string | null } }
    | { process_type: 'untracked' }
  >
  getJob(jobReference: string): Promise<JobRead>
}

/** The shape of a client failure the queue understands (ApiError has it). */
export interface ClientFailure {
  status: number
  errorCode: string
  message: string
  retryable: boolean
  retryAfterMs?: number
  rateLimit?: RateLimit
}

export function asFailure(e: unknown): ClientFailure {
  if (e && typeof e === 'object' && 'status' in e && 'errorCode' in e && 'retryable' in e) {
    return e as ClientFailure
  }
  return {
    status: 0,
    errorCode: 'internal_error',
    message: e instanceof Error ? e.message : String(e),
    retryable: false,
  }
}

export type Work = 'upload' | 'poll'

/** Profile states that wait for a person: nothing of the profile starts while in one (but see readyAt). */
export const HELD_STATES: readonly ProfileState[] = ['paused', 'auth_required', 'forbidden', 'out_of_credits']

/** An AI create the business's credits (or its partner's holding) cannot pay for. */
export function isOutOfCredits(f: ClientFailure): boolean {
  return f.errorCode === ERROR_CODES.insufficientAiCredits || f.status === AI_CREDITS_EXHAUSTED_STATUS
}

export interface ClientProvider {
  /** The client of a profile, or an explanation of why there is none (no key saved, keychain locked). */
  clientFor(profileId: string, onRateLimit: (rl: RateLimit) => void): Promise<UploadClient>
}

export interface QueueOptions {
  concurrency: number
  maxPollsInFlight: number
  maxFileBytes: number
  /** Give up on a file after this many failed attempts at sending it. */
  maxAttempts: number
  retry: BackoffOptions
  poll: PollOptions
  /** Give up on a job this long after the server accepted its file (Settings; default 24 h). */
  jobTimeoutMs: number
  /** A job the server says it does not know (404) is asked about again while younger than this. */
  jobNotFoundGraceMs: number
  now: () => number
  random: () => number
}

/** Default job deadline: a day. */
export const DEFAULT_JOB_TIMEOUT_MS = 24 * 60 * 60_000

export const DEFAULT_QUEUE_OPTIONS: QueueOptions = {
  concurrency: 3,
  maxPollsInFlight: 4,
  maxFileBytes: 25 * 1024 * 1024,
  maxAttempts: 25,
  retry: DEFAULT_RETRY_BACKOFF,
  poll: DEFAULT_POLL,
  jobTimeoutMs: DEFAULT_JOB_TIMEOUT_MS,
  jobNotFoundGraceMs: 60_000,
  now: Date.now,
  random: Math.random,
}

/** How overdue a job poll may become while uploads have every slot (see pump). */
export const POLL_YIELD_MS = 10_000

export interface Gate {
  state: ProfileState
  message: string | null
  /** 429: nothing starts before this time. */
  pausedUntil: number
  limit: number | null
  remaining: number | null
  resetAt: number | null
  inFlight: number
}

/** What the engine does around the queue. */
export interface QueueHooks {
  /** Once a record exists (move the source file); failures are reported, never thrown. */
  afterRecord(row: Upload): Promise<void>
  /** The file changed on disk before it was sent: its row is superseded; take the new version. */
  superseded(row: Upload): void
  /** Storage works again after a fault (the engine re-takes files it could not record). */
  storageRecovered?(): void
  /**
   * The text to send as `text_attachment` instead of the row's file as an attachment (a mail's body
   * text, issue 24), or null to send the file. Checks the file is the version recorded; a failure
   * it throws is a client failure (file_superseded, file_not_found…).
   */
  textOf?(row: Upload): Promise<string | null>
}

/** How long the queue waits before trying storage again after a fault, rising to the cap. */
export const STORAGE_PROBE_FIRST_MS = 1000
export const STORAGE_PROBE_MAX_MS = 30_000
/** A clock step backwards larger than this moves every scheduled time with it. */
export const CLOCK_STEP_MS = 1000
