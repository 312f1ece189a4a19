/**
 * Data migrations of the uploads table that run once, as moves of the lifecycle table (through
 * `UploadStore.transition`, passed in). The schema's own migrations are in store/db.ts.
 */
import type { Db } from '../db'
import { type Row, fromRow } from './rows'
import type { TransitionFn } from './types'

/**
 * Once, after the update that made only the API's own word end a receipt (issue 22): rows that
 * earlier versions ended on an answer that was not the API's go on, each as a move of the
 * lifecycle table. A create that "failed" on a body that was not JSON, a redirect, an error page
 * without the API's JSON, or network errors until its attempts ran out, and a create "done"
 * although its answer named nothing, are sent again with the SAME Idempotency-Key (the server
 * replays what it may have created); a job given up on a redirect, a 404 or answers without a
 * status is followed again. A file the after-upload step had moved is sent from where it is now,
 * and left there. The API's own refusals and real records are not touched. Returns how many.
 */
export function resumeEndedWithoutTheApi(db: Db, transition: TransitionFn, now: number): number {
  const rows = db
    .all<Row>(
      `SELECT * FROM uploads WHERE
        (status = 'failed' AND job_reference IS NULL AND (
          error_code IN ('bad_response', 'redirect_refused', 'network_error', 'timeout')
          OR (error_code LIKE 'http!_%' ESCAPE '!' AND last_error LIKE '% failed: the server answered %')
          OR last_error LIKE 'Gave up after % attempts. Last error: Could not reach %'
          OR last_error LIKE 'Gave up after % attempts. Last error: % got no complete answer within %'
          OR last_error LIKE 'Gave up after % attempts. Last error: % failed: the server answered %'))
        OR (status = 'completed' AND record_uuid IS NULL AND error_code = 'completion_not_reported' AND (
          (job_reference IS NULL AND last_error LIKE '%(its answer named no job and no record)%')
          OR (job_reference IS NOT NULL AND (
            last_error LIKE '%could not be followed: 3__,%'
            OR last_error LIKE '%could not be followed: 404,%'
            OR last_error LIKE '%never gave a status Bookdrop knows%'))))`,
    )
    .map(fromRow)
  let n = 0
  for (const r of rows) {
    const cleared = { recordUuid: null, recordType: null, completedAt: null, httpStatus: null, nextAttemptAt: now, polls: 0 }
    // Its file was moved as if done: it is sent (or followed) from there, and stays there.
    const moved = r.movedTo ? { path: r.movedTo, afterUpload: 'leave' as const, movedTo: null } : {}
    const resend = {
      attempts: 0,
      errorCode: 'not_api',
      lastError: "It had ended on an answer that was not the API's; sent again with the same Idempotency-Key.",
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
                lastError: "Its job had been given up on an answer that was not the API's; followed again.",
              },
              now,
            )
    if (moved_) n++
  }
  return n
}
