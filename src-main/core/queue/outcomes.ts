/**
 * What becomes of a row after an answer (or a failure) from the server: pure decisions, applied by
 * the queue as one move of the lifecycle table. Holding a whole profile (429, 401, 403, credits) is
 * the gates' business; these functions ask the gates and say what the row does.
 */
import type { JobRead } from '../../../schemas'
import {
  COMPLETION_NOT_REPORTED,
  COMPLETION_NOT_REPORTED_CODE,
  ERROR_CODES,
  UNKNOWN_JOB_STATUS_POLLS,
} from '../../../schemas/assumptions'
import type { TransitionPatch, Upload, UploadStatus } from '../store/uploads'
import { sizeText } from '../util'
import { coded } from '../../../contract/coded'
import type { Coded } from '../../../contract/message'
import { MAIN_ERRORS as E } from '../../../contract/main-messages'
import { JOB_STATES as J } from '../../../contract/main-states'
import { pollDelay, retryDelay } from './backoff'
import { type ProfileGates, withoutRequest } from './gates'
import { type ClientFailure, type QueueOptions, isOutOfCredits } from './types'

export type Outcome =
  /** One move of the lifecycle table. */
  | { kind: 'move'; to: UploadStatus; patch: TransitionPatch }
  /** The file changed on disk before it was sent: superseded, and its new version taken. */
  | { kind: 'superseded'; patch: TransitionPatch }
  /**
   * The job is alive: ask again in `wait` ms (never past the deadline). `counted` false: no answer
   * of the API came, so the poll does not count (the unknown-status limit, the poll backoff).
   */
  | { kind: 'follow'; wait: number; lastError: string | null; counted?: boolean }
  /** Completed with a record (null: "sent; the server did not report completion", with the note). */
  | {
      kind: 'complete'
      recordUuid: string | null
      recordType: string | null
      note: CompletionNote | null
      /** Every record the job made (a bank statement makes several), the first being recordUuid. */
      recordUuids?: string[]
    }

export type CompletionNote = { errorCode: string; lastError: string | Coded; httpStatus: number | null }

/** Why a job's completion was not reported: its kind (a catalogue select) and the English words. */
export type NotReportedWhy = { why: 'unknown_status' | 'not_followed' | 'no_job'; job?: string; detail?: string }

/** The note of the outcome "sent; the server did not report completion" (#11), and why. */
export function notReported(why: NotReportedWhy, text: string, httpStatus: number | null = null): Outcome {
  const params = { why: why.why, job: why.job ?? '', detail: why.detail ?? '' }
  return {
    kind: 'complete',
    recordUuid: null,
    recordType: null,
    note: {
      errorCode: COMPLETION_NOT_REPORTED_CODE,
      lastError: { ...coded(J.notReported, params), text: `${COMPLETION_NOT_REPORTED} (${text.replace(/\.\s*$/, '')})` },
      httpStatus,
    },
  }
}

/** Problems with the file itself: it stays where it is, the row says why. */
const FILE_SKIP: Record<string, Upload['reason']> = {
  file_not_found: 'vanished',
  file_outside_folder: 'outside_folder',
  not_a_file: 'unreadable',
  file_read_error: 'unreadable',
  file_too_large: 'too_large',
}

/** What a row does after a failed request: decided from the row, the failure, the options and the profile's gates. */
type FailureRule = (row: Upload, f: ClientFailure, opts: QueueOptions, gates: ProfileGates, now: number) => Outcome

/**
 * What a row says while it waits for the path to the server: what was seen, and that nothing was
 * refused. The same Idempotency-Key goes with the next try.
 */
export function waitingReason(f: ClientFailure): string {
  const what = f.message.replace(/\s*$/, '')
  return f.configuration
    ? `${what} Waiting; nothing was sent for good or refused.`
    : `${what} Waiting for the API's answer; Bookdrop tries again by itself with the same Idempotency-Key.`
}

/** The failure's message to store with the row: its code with the English `text` (issue 34). */
function said(f: ClientFailure, text: string = f.message): string | Coded {
  return f.coded ? { ...f.coded, text } : text
}

/** A create that failed: skipped, superseded, retried later (same key) or failed for good. */
export const afterUploadFailure: FailureRule = (row, f, opts, gates, now) => {
  const base = { lastError: said(f), errorCode: f.errorCode, httpStatus: f.status || null }
  if (f.connection) {
    // No answer of the API (unreachable, offline, a web page, a redirect, a proxy, a certificate):
    // nothing was refused, so no attempt is used. The row is due at once; the profile's gate lets
    // one request try at a time, after a capped backoff, and all go as soon as the API answers.
    gates.connectionFailed(row.profileId, f)
    return {
      kind: 'move',
      to: 'waiting_retry',
      patch: { ...base, lastError: said(f, waitingReason(f)), attempts: Math.max(0, row.attempts - 1), nextAttemptAt: now },
    }
  }
  // The API answered (a refusal, a 429, a 5xx in its envelope): the path works.
  if (f.status > 0) gates.connectionOk(row.profileId)
  // The file is not the version that was recorded: nothing was created from it.
  if (f.errorCode === 'file_superseded') {
    return {
      kind: 'superseded',
      patch: {
        ...base,
        nextAttemptAt: null,
        lastError: { ...coded(E.fileChanged), text: 'Changed on disk before it was sent; the new version is queued.' },
      },
    }
  }
  if (f.errorCode === 'request_too_large') {
    // A 413 page: that server (or a gateway in front of it) takes no file this large; trying
    // again would send it in vain.
    const size = row.preparedSize ?? row.size
    const lastError =
      `Too large for the server${size !== null ? `: ${sizeText(size)}` : ''}. ${withoutRequest(f.message).replace(/\s*$/, '')} ` +
      'Send a smaller file (or ask whoever runs the server to accept larger ones), then Retry.'
    const tooLarge = { ...coded(E.requestTooLarge), text: lastError }
    return { kind: 'move', to: 'failed', patch: { ...base, nextAttemptAt: null, lastError: tooLarge } }
  }
  const skip = FILE_SKIP[f.errorCode]
  if (skip) return { kind: 'move', to: 'skipped', patch: { ...base, reason: skip, nextAttemptAt: null } }
  if (f.errorCode === 'file_changed') {
    // Written to while being sent: try again once it is stable (same key: nothing was created).
    return { kind: 'move', to: 'waiting_retry', patch: { ...base, nextAttemptAt: now + 2000 } }
  }
  if (f.errorCode === 'file_unavailable') return afterOpenError(row, f, opts, now)
  if (isOutOfCredits(f)) {
    // Nothing was created: the file waits, with the profile, for credits.
    gates.hold(row.profileId, f, 0)
    return { kind: 'move', to: 'waiting_retry', patch: { ...base, nextAttemptAt: now } }
  }
  if (f.retryable) {
    if (row.attempts >= opts.maxAttempts) {
      const text = `Gave up after ${row.attempts} attempts. Last error: ${f.message}`
      const lastError = { ...coded(E.gaveUp, { attempts: row.attempts }), text }
      return { kind: 'move', to: 'failed', patch: { ...base, nextAttemptAt: null, lastError } }
    }
    let wait = retryDelay(row.attempts, f.retryAfterMs, opts.retry, opts.random)
    const pausedUntil = gates.hold(row.profileId, f, retryDelay(row.attempts, undefined, opts.retry, opts.random))
    if (pausedUntil !== null) wait = pausedUntil - now
    return { kind: 'move', to: 'waiting_retry', patch: { ...base, nextAttemptAt: now + wait } }
  }
  if (f.errorCode === ERROR_CODES.idempotencyMismatch) {
    // Not a "no": the server holds another request under this key, which may have made the record.
    return { kind: 'move', to: 'failed', patch: { ...base, nextAttemptAt: null, lastError: KEY_REUSED } }
  }
  gates.hold(row.profileId, f, 0)
  return { kind: 'move', to: 'failed', patch: { ...base, nextAttemptAt: null } }
}

/**
 * The file could not be opened, for a reason that passes (too many open files, a read error): it
 * waits and tries again with backoff, each try an attempt; once the attempts are used, the error
 * has lasted and the row ends as unreadable, its file left where it is.
 */
function afterOpenError(row: Upload, f: ClientFailure, opts: QueueOptions, now: number): Outcome {
  const base = { errorCode: f.errorCode, httpStatus: null }
  if (row.attempts >= opts.maxAttempts) {
    const text = `${f.message} Gave up after ${row.attempts} tries; the file stays where it is. Check it and its disk, then press Send anyway.`
    const lastError = { ...coded(E.fileUnreadable), text }
    return { kind: 'move', to: 'skipped', patch: { ...base, lastError, reason: 'unreadable', nextAttemptAt: null } }
  }
  const wait = retryDelay(row.attempts, undefined, opts.retry, opts.random)
  const lastError = said(f, `${f.message} This usually passes: Bookdrop tries again by itself.`)
  return { kind: 'move', to: 'waiting_retry', patch: { ...base, lastError, nextAttemptAt: now + wait } }
}

/** A row refused with "Idempotency-Key reused" (422): what it says. Retry keeps the key (actions.ts). */
export const KEY_REUSED =
  "The server already holds another request under this upload's Idempotency-Key, so it may already have made its " +
  'record. Look for it among your records before sending this file again: Retry sends the same request, never a ' +
  'new one. If the record is not there, add a copy of the file to send it as a new upload.'

/** The job's answer: its record, its failure, or ask again. */
export function afterJobAnswer(row: Upload, job: JobRead, opts: QueueOptions): Outcome {
  if (job.status === 'completed')
    return {
      kind: 'complete',
      recordUuid: job.resource_uuid,
      recordType: job.resource_type,
      note: null,
      recordUuids: job.resource_uuids,
    }
  if (job.status === 'unknown' && row.polls + 1 >= UNKNOWN_JOB_STATUS_POLLS)
    return notReported(
      { why: 'unknown_status', job: row.jobReference ?? '' },
      `job ${row.jobReference} never gave a status Bookdrop knows`,
    )
  if (job.status === 'failed') {
    // The server's own words, as it wrote them, introduced in the person's language.
    const lastError = job.message ? { ...coded(E.serverSaid, { message: job.message }), text: job.message } : coded(E.jobFailed)
    return { kind: 'move', to: 'failed', patch: { nextAttemptAt: null, lastError, errorCode: 'job_failed' } }
  }
  return { kind: 'follow', wait: pollDelay(row.polls + 1, opts.poll, opts.random), lastError: null }
}

/**
 * A poll without a usable answer. The job is alive on the server unless the server says it does
 * not know it: network errors, timeouts, 429, 5xx and malformed answers (even with a 200) are asked
 * again with backoff until the job deadline; so is a 404 for a job younger than
 * jobNotFoundGraceMs (a server may not list a job at once). 401/403/no key hold the profile.
 */
export const afterPollFailure: FailureRule = (row, f, opts, gates, now) => {
  if (f.connection) {
    // No answer of the API: the job is as it was. Asked again once the path works (the gate).
    gates.connectionFailed(row.profileId, f)
    return { kind: 'follow', wait: 0, lastError: waitingReason(f), counted: false }
  }
  // The API answered (a refusal, a 429, a 5xx in its envelope): the path works.
  if (f.status > 0) gates.connectionOk(row.profileId)
  const age = now - (row.acceptedAt ?? row.createdAt)
  const youngUnknown = f.status === 404 && age < opts.jobNotFoundGraceMs
  const transient =
    f.retryable ||
    f.errorCode === 'bad_response' ||
    f.errorCode === 'response_too_large' ||
    youngUnknown ||
    f.status === 401 ||
    f.status === 403 ||
    f.errorCode === 'no_key'
  if (transient) {
    gates.hold(row.profileId, f, 1000)
    const backoff = { baseMs: opts.poll.firstMs, capMs: opts.poll.maxMs }
    const wait = retryDelay(row.polls + 1, f.retryAfterMs, backoff, opts.random)
    return { kind: 'follow', wait: Math.max(wait, youngUnknown ? opts.poll.firstMs : 0), lastError: f.message }
  }
  // The create was accepted; its job just cannot be followed (no such route or job past the grace
  // period, another refusal). Failing the row would invite a second create of the same file.
  const why = f.status === 404 ? `the server does not know job ${row.jobReference}` : f.message
  const detail = `${f.status ? `${f.status}, ` : ''}${why}`
  return notReported(
    { why: 'not_followed', job: row.jobReference ?? '', detail },
    `job ${row.jobReference} could not be followed: ${detail}`,
    f.status || null,
  )
}

/** The job deadline passed: the row fails, naming the wait (Retry follows the job again). */
export function jobTimedOut(row: Upload, jobTimeoutMs: number): Outcome {
  const hours = jobTimeoutMs / 3_600_000
  const wait =
    hours >= 1
      ? `${Number.isInteger(hours) ? hours : hours.toFixed(1)} hour${hours === 1 ? '' : 's'}`
      : `${Math.round(jobTimeoutMs / 1000)} seconds`
  return {
    kind: 'move',
    to: 'failed',
    patch: {
      nextAttemptAt: null,
      errorCode: 'job_timeout',
      httpStatus: null,
      lastError: {
        ...coded(J.timedOut, {
          job: row.jobReference ?? '',
          unit: hours >= 1 ? 'hours' : 'seconds',
          hours: Number(hours.toFixed(1)),
          seconds: Math.round(jobTimeoutMs / 1000),
        }),
        // The English as it always read (a whole number of seconds, "1.5 hours").
        text:
          `The server had not finished job ${row.jobReference ?? ''} after ${wait} (Settings, "Give up on a job after"), ` +
          'so Bookdrop stopped waiting. The record may still appear on the server; Retry follows the job again.',
      },
    },
  }
}
