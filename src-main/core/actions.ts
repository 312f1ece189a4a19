/**
 * A person's actions on one upload: cancel it, send it again (a duplicate anyway), or retry every
 * failed one. Each is a move of the lifecycle table (./lifecycle.ts), refused when the row changed
 * meanwhile; errors are sentences for people (the app service gives them a code).
 */
import { randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { ERROR_CODES } from '../../schemas/assumptions'
import { coded } from '../../contract/coded'
import { JOB_STATES } from '../../contract/main-states'
import type { EngineEmitter } from './events'
import type { IntakeResult } from './intake/intake'
import { transitionOf } from './lifecycle'
import { fsPath, printable } from './names'
import type { TransitionPatch, Upload, UploadStatus, UploadStore } from './store/uploads'

/** What the actions need of the engine. */
export interface ActionDeps {
  uploads: UploadStore
  events: EngineEmitter
  /** Looks at the queue now (a row became due). */
  kick(profileId: string): void
  /** Resumes a profile held for a person (a retry is that person's go-ahead). */
  resume(profileId: string): void
  /** Takes a skipped row's file again through intake, continuing the same row ("Send anyway"). */
  retake(row: Upload): Promise<IntakeResult>
  /** What to say when the row's local copy in the data folder was deleted (engine/retention.ts), or null. */
  copyGone?(row: Upload): Promise<string | null>
}

function mustGet(d: ActionDeps, id: number): Upload {
  const row = d.uploads.get(id)
  if (!row) throw new Error(`There is no upload #${id}.`)
  return row
}

/** A person's action as a move of the lifecycle table; refused when the row changed meanwhile. */
function changeStatus(d: ActionDeps, row: Upload, to: UploadStatus, patch: TransitionPatch): Upload {
  const next = d.uploads.transition(row.id, row.status, to, patch)
  if (!next)
    throw new Error(
      `Upload #${row.id} changed meanwhile (it is ${d.uploads.get(row.id)?.status ?? 'gone'} now): try again.`,
    )
  d.events.emit('upload', { upload: next, previous: row.status })
  return next
}

/** Cancels a row that has not reached the server yet (or whose job is still followed). */
export function cancelUpload(d: ActionDeps, id: number): Upload {
  const row = mustGet(d, id)
  if (!transitionOf(row.status, 'cancelled')) {
    throw new Error(`Upload #${id} is ${row.status}: only waiting or running uploads can be cancelled.`)
  }
  return changeStatus(d, row, 'cancelled', { nextAttemptAt: null, lastError: coded(JOB_STATES.cancelledByYou) })
}

/** Sends a failed, cancelled or skipped file again; a duplicate is sent anyway. */
export async function retryUpload(d: ActionDeps, id: number): Promise<Upload> {
  const row = mustGet(d, id)
  // Its local copy (a mail attachment, a phone's photo, a prepared photo) was deleted by the
  // retention: say so and what to do, rather than "no longer there".
  const gone = row.status === 'cancelled' && row.jobReference ? null : await d.copyGone?.(row)
  if (gone) throw new Error(gone)
  // "Send anyway": a duplicate, or a possible duplicate held (issue 33; never held again for it).
  if (row.status === 'duplicate' || row.status === 'held') {
    const next = changeStatus(d, row, 'queued', { forced: true, lastError: null, nextAttemptAt: null })
    d.kick(row.profileId)
    return next
  }
  if (row.status === 'failed' || row.status === 'cancelled') {
    const exists = await stat(fsPath(row.path)).then(
      (st) => st.isFile(),
      () => false,
    )
    if (!exists && !(row.status === 'cancelled' && row.jobReference)) {
      throw new Error(`${printable(row.path)} is no longer there: put the file back, then retry.`)
    }
    const reset = { attempts: 0, nextAttemptAt: null, lastError: null, errorCode: null, httpStatus: null, polls: 0 }
    let next: Upload
    if (row.status === 'cancelled' && row.jobReference) {
      // The server already has the job: follow it again rather than sending the file twice.
      next = changeStatus(d, row, 'processing', reset)
    } else {
      // A definite "no" from the server (a 4xx, a failed job) created nothing, and the server keeps
      // that answer under the old Idempotency-Key: a fresh key lets it try again, with the file's
      // name and prompt of today. Anything else may have created the record, so the old key stays
      // and the server replays instead; so does "this key was used with another body" (422), which
      // says an earlier request under the key exists, not that nothing was created.
      const definite =
        row.status === 'failed' &&
        row.errorCode !== ERROR_CODES.idempotencyMismatch &&
        ((row.httpStatus !== null && row.httpStatus >= 400 && row.httpStatus < 500) ||
          row.errorCode === 'job_failed')
      next = changeStatus(d, row, 'queued', {
        ...reset,
        jobReference: null,
        acceptedAt: null,
        ...(definite ? { idempotencyKey: randomUUID(), sentName: null, sentPrompt: null } : {}),
      })
    }
    d.resume(row.profileId)
    return next
  }
  if (row.status === 'skipped') {
    // The same row goes on ("Send anyway"): skipped → queued, or skipped again with today's reason.
    const r = await d.retake(row)
    if (r.kind === 'ignored') throw new Error(`${row.name} changed while it was read: try again in a moment.`)
    return r.upload
  }
  throw new Error(`Upload #${id} is ${row.status}: nothing to retry.`)
}

/** Retries every failed upload of a profile (after a new key or a subscription change). */
export async function retryFailed(d: ActionDeps, profileId?: string): Promise<number> {
  let n = 0
  const ids = [...d.uploads.iterate({ statuses: ['failed'], profileId })].map((r) => r.id)
  for (const id of ids) {
    try {
      await retryUpload(d, id)
      n++
    } catch {
      // The file is gone: its row keeps saying why.
    }
  }
  return n
}
