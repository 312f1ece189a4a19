/**
 * The upload queue's vocabulary: what it needs of the API client, its options and defaults, the
 * failures it understands, and the hooks the engine gives it.
 */
import type { Coded } from '../../../contract/message'
import type { FileHandle } from 'node:fs/promises'
import type { AiTarget, JobRead, RecordSummaryRead } from '../../../schemas'
import { AI_CREDITS_EXHAUSTED_STATUS, ERROR_CODES } from '../../../schemas/assumptions'
import type { RateLimit } from '../api/ratelimit'
import type { ConnectionProblem } from '../api/errors'
import type { ProfileState } from '../events'
import type { Upload } from '../store/uploads'
import {
  type BackoffOptions,
  DEFAULT_CONNECTION_RETRY,
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
      files: { path: string; name: string; expect?: { size: number; mtimeMs: number; sha256: string }; handle?: FileHandle }[]
    },
    opts: {
      idempotencyKey: string
      maxFileBytes?: number
      onProgress?: (sent: number, total: number) => void
      /** Aborted when the queue stops: the row is sent again (same key) at the next start. */
      signal?: AbortSignal
    },
  ): Promise<
    | { process_type: 'async'; job_reference: string }
    | { process_type: 'direct'; record: { uuid: string; resource_type?: string | null } }
    | { process_type: 'untracked' }
  >
  getJob(jobReference: string, opts?: { signal?: AbortSignal }): Promise<JobRead>
  /** A light question (GET /auth/validate): the probe before a file is sent again after a 5xx page. */
  validateKey?(opts?: { signal?: AbortSignal }): Promise<unknown>
  /** The record a job made, read for Review (issue 32): GET /{resource}/{uuid}. */
  getRecordSummary?(resource: string, uuid: string, opts?: { signal?: AbortSignal }): Promise<RecordSummaryRead>
}

/** The shape of a client failure the queue understands (ApiError has it). */
export interface ClientFailure {
  status: number
  errorCode: string
  message: string
  retryable: boolean
  retryAfterMs?: number
  rateLimit?: RateLimit
  /**
   * Set when no answer of the API came (unreachable, something else answered, offline): the path's
   * problem, never the API's word. The row waits; no attempt is used.
   */
  connection?: ConnectionProblem
  /** Only a change of settings can fix it (an untrusted certificate, proxy credentials). */
  configuration?: boolean
  /** The message as a catalogue id with parameters (ApiError.coded), stored with the row (issue 34). */
  coded?: Coded
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

/**
 * Profile states of the path to the server (issue 22): set by a failure with no answer of the API,
 * cleared by the first answer that is the API's. A held state keeps priority over them.
 */
export const CONNECTION_STATES: readonly ProfileState[] = ['unreachable', 'not_api', 'offline']

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
  /**
   * While no answer of the API comes (offline, unreachable, something else answers), one request
   * of the profile at a time tries again after this backoff (no jitter: one probe per profile).
   */
  connectionRetry: BackoffOptions
  /** A problem only a setting can fix (an untrusted certificate, a proxy's 407) is checked again this often. */
  configurationRecheckMs: number
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
  connectionRetry: DEFAULT_CONNECTION_RETRY,
  configurationRecheckMs: 5 * 60_000,
  now: Date.now,
  random: Math.random,
}

/** How overdue a job poll may become while uploads have every slot (see pump). */
export const POLL_YIELD_MS = 10_000

/** The path to the server of a profile, while no answer of the API comes. */
export interface ConnectionHold {
  problem: ConnectionProblem
  configuration: boolean
  /** Probes that failed in a row (the backoff's exponent). */
  failures: number
  /** Nothing of the profile starts before this; then one request at a time (the probe). */
  retryAt: number
  message: string
  /**
   * A 5xx page was seen in this wait: the next upload first asks the API a light question (GET
   * /auth/validate) and sends its file only once the API answers.
   */
  light: boolean
}

export interface Gate {
  state: ProfileState
  /** Set while the path to the server fails (see ConnectionHold); null when the API answers. */
  conn: ConnectionHold | null
  message: string | null
  /** `message` as a catalogue id with parameters (issue 34), when it has one. */
  coded: Coded | null
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
  /**
   * Once a row completed with its records (issue 32): reads and keeps what they are. Part of
   * completing (the queue waits for it before it is idle); a failure is kept, never thrown, and
   * never changes the row. `client` is null when the profile has none now (the records wait).
   */
  recordsMade?(row: Upload, uuids: string[], client: UploadClient | null): Promise<void>
  /**
   * The records a completing row made, kept in the same transaction as its completion (one commit,
   * and a row is never completed without its records waiting to be read). Before recordsMade.
   */
  keepRecords?(row: Upload, uuids: string[]): void
  /** The file changed on disk before it was sent: its row is superseded; take the new version. */
  superseded(row: Upload): void
  /** Storage works again after a fault (the engine re-takes files it could not record). */
  storageRecovered?(): void
  /**
   * The file of a row as it is to be read for sending: opened where it is checked (a watched
   * folder's file must still lie inside the folder), read only through its `handle` (its path may
   * lead elsewhere by now). `release` closes it once the request is done. A refusal is a
   * ClientFailure (e.g. `file_outside_folder`; `file_unavailable` waits and tries again): nothing
   * is sent.
   */
  fileForSend?(row: Upload): Promise<SendFile>
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

/** A file opened to be sent (QueueHooks.fileForSend): read through `handle` when given, named by `path`. */
export interface SendFile {
  path: string
  handle?: FileHandle
  release(): Promise<void>
}
