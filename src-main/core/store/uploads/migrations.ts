/**
 * Data migrations of the uploads table that run once, as moves of the lifecycle table (through
 * `UploadStore.transition`, passed in). The schema's own migrations are in store/db.ts.
 */
import { CLIENT_ERROR_CODES, CONNECTION_ERROR_CODES } from '../../api/errors'
import type { Db } from '../db'
import { type Row, fromRow } from './rows'
import type { TransitionFn } from './types'

/**
 * How far back the update looks (issue 31): only rows that ended this recently are sent again.
 * A server keeps an Idempotency-Key for a limited time (commonly 24 hours): past it, the same key
 * could make a second record, paid twice. Older rows stay as they are (a person can retry them).
 */
export const RESUME_WINDOW_MS = 24 * 60 * 60 * 1000

/**
 * The codes stored on a row that failed with no answer of the API (a client code for a connection
 * that broke, a redirect, a body that was not the API's; `http_<status>`: a status without the API's
 * envelope, as earlier versions stored it, but 429, a rate limit whoever says it). The row's own
 * code decides, never its English text: the API's own refusals carry the API's codes.
 */
const NOT_API_FAILURE_CODES = [...CONNECTION_ERROR_CODES, CLIENT_ERROR_CODES.badResponse]

/**
 * Once, after the update that made only the API's own word end a receipt (issue 22): rows that
 * earlier versions ended on an answer that was not the API's go on, each as a move of the
 * lifecycle table, when they ended within RESUME_WINDOW_MS (issue 31: an upgrade never re-sends a
 * row from months ago). A create that "failed" with a code that says no answer of the API came
 * (NOT_API_FAILURE_CODES; "gave up after N attempts" keeps the last failure's code), and a create
 * "done" although its answer named nothing (`completion_not_reported`), are sent again with the
 * SAME Idempotency-Key (the server replays what it may have created); a job given up on a
 * redirect, a 404 or answers without a status is followed again (a read: nothing is created).
 * A `completion_not_reported` row says only "no record named"; why (no job in the answer, a job
 * that could not be followed) is in its note, which the same version wrote. A file the
 * after-upload step had moved is sent from where it is now, and left there. Each row's history
 * says what was resumed and why. The API's own refusals and real records are not touched.
 * Returns how many.
 */
export function resumeEndedWithoutTheApi(db: Db, transition: TransitionFn, now: number): number {
  const codes = NOT_API_FAILURE_CODES
  const rows = db
    .all<Row>(
      `SELECT * FROM uploads WHERE updated_at >= ? AND (
        (status = 'failed' AND job_reference IS NULL AND (
          error_code IN (${codes.map(() => '?').join(', ')})
          OR (error_code LIKE 'http!_%' ESCAPE '!' AND error_code != 'http_429')))
        OR (status = 'completed' AND record_uuid IS NULL AND error_code = 'completion_not_reported' AND (
          (job_reference IS NULL AND last_error LIKE '%(its answer named no job and no record)%')
          OR (job_reference IS NOT NULL AND (
            last_error LIKE '%could not be followed: 3__,%'
            OR last_error LIKE '%could not be followed: 404,%'
            OR last_error LIKE '%never gave a status Bookdrop knows%')))))`,
      now - RESUME_WINDOW_MS,
      ...codes,
    )
    .map(fromRow)
  let n = 0
  for (const r of rows) {
    const cleared = { recordUuid: null, recordType: null, completedAt: null, httpStatus: null, nextAttemptAt: now, polls: 0 }
    // Its file was moved as if done: it is sent (or followed) from there, and stays there.
    const moved = r.movedTo ? { path: r.movedTo, afterUpload: 'leave' as const, movedTo: null } : {}
    const ended = new Date(r.updatedAt).toISOString().replace('T', ' ').slice(0, 16)
    const was = r.status === 'failed' ? `failed (${r.errorCode ?? 'no code'})` : 'done without a record'
    const resend = {
      attempts: 0,
      errorCode: 'not_api',
      lastError: `Resumed by the update: it had ${was} at ${ended} UTC on an answer that was not the API's; sent again with the same Idempotency-Key.`,
    }
    const moved_ =
      r.status === 'failed'
        ? transition(r, 'failed', 'waiting_retry', { ...resend, polls: 0, nextAttemptAt: now, httpStatus: null }, now)
        : r.jobReference === null
          ? transition(r, 'completed', 'waiting_retry', { ...cleared, ...moved, ...resend }, now)
          : transition(
              r,
              'completed',
              'processing',
              {
                ...cleared,
                ...moved,
                acceptedAt: now,
                errorCode: null,
                lastError: `Resumed by the update: its job had been given up at ${ended} UTC on an answer that was not the API's; followed again.`,
              },
              now,
            )
    if (moved_) n++
  }
  return n
}
