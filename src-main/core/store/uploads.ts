/**
 * The upload queue and its history: one row per file, written before any network call.
 *
 * `UploadStore` is the table's one door; its parts live in `store/uploads/`: the row and its
 * mapping (rows.ts), row changes (changes.ts: the only status writer, guarded in SQL), what is
 * known of a file or its content (duplicates.ts), the queue's scheduling and recovery
 * (schedule.ts), counts and history (history.ts) and one-time data migrations (migrations.ts).
 */
import type { FromStatus, UploadStatus } from '../lifecycle'
import type { Db } from './db'
import { getUpload, insertUpload, noteUpload, transitionUpload } from './uploads/changes'
import * as duplicates from './uploads/duplicates'
import { UploadHistory } from './uploads/history'
import { resumeEndedWithoutTheApi } from './uploads/migrations'
import * as schedule from './uploads/schedule'
import type { HistoryFilter, NewUpload, TransitionPatch, Upload, UploadTable } from './uploads/types'

export { SKIP_REASONS, type AfterUpload, type SkipReason, type UploadSource, type UploadView } from '../../../contract/types'

export { ACTIVE_STATUSES, TERMINAL_STATUSES, UPLOAD_STATUSES, type UploadStatus } from '../lifecycle'

export { type HistoryFilter, type NewUpload, type TransitionPatch, type Upload, toUploadView } from './uploads/types'

export class UploadStore {
  private readonly t: UploadTable
  private readonly history: UploadHistory

  constructor(private readonly db: Db) {
    this.t = { db, writes: 0 }
    this.history = new UploadHistory(this.t)
  }

  transaction<R>(fn: () => R): R {
    return this.db.transaction(fn)
  }

  // ---- row changes (uploads/changes.ts) -------------------------------------------------------

  /** A new row, committed before any request, in a status intake may start with (TRANSITIONS 'new'). */
  insert(u: NewUpload, now = Date.now()): Upload {
    return insertUpload(this.t, u, now)
  }

  get(id: number): Upload | undefined {
    return getUpload(this.t, id)
  }

  /**
   * The one way a status changes: `from` → `to` as the lifecycle table allows, writing only the
   * fields that move may write, and only if the row still has status `from` (SQL-guarded). Returns
   * the new row, or undefined when the row was no longer `from` (a person cancelled it meanwhile).
   * A move or field the table does not list throws TransitionError.
   */
  transition(
    row: number | Upload,
    from: FromStatus & UploadStatus,
    to: UploadStatus,
    patch: TransitionPatch = {},
    now = Date.now(),
  ): Upload | undefined {
    return transitionUpload(this.t, row, from, to, patch, now)
  }

  /** Changes fields of a row that keeps its status (lifecycle NOTES), if it still has `status`. */
  note(row: number | Upload, status: UploadStatus, patch: TransitionPatch, now = Date.now()): Upload | undefined {
    return noteUpload(this.t, row, status, patch, now)
  }

  // ---- a file and its content (uploads/duplicates.ts) -----------------------------------------

  /**
   * The latest row of a file that was skipped for a cause that can go away by itself (unreadable,
   * too large, empty): intake takes it again as that same row, so a file has one row per version.
   */
  findRetakeable(profileId: string, target: string, path: string): Upload | undefined {
    return duplicates.findRetakeable(this.db, profileId, target, path)
  }

  /** Rows of a folder skipped for a cause that can go away, one per path (the latest): looked at on a rescan. */
  retakeableInFolder(folderId: string): Upload[] {
    return duplicates.retakeableInFolder(this.db, folderId)
  }

  /** The newest row of this file (path) for a profile and target, whatever its status. */
  latestOfPath(profileId: string, target: string, path: string): Upload | undefined {
    return duplicates.latestOfPath(this.db, profileId, target, path)
  }

  /** What the store knows of a file: the row that handled this version, and a retakeable one. */
  fileState(
    profileId: string,
    target: string,
    path: string,
    size: number,
    mtimeMs: number,
  ): { handled: Upload | undefined; retakeable: Upload | undefined } {
    return duplicates.fileState(this.db, profileId, target, path, size, mtimeMs)
  }

  /** The earlier upload of the same content that was *sent* (a duplicate's original). */
  findContent(profileId: string, target: string, sha256: string): Upload | undefined {
    return duplicates.findContent(this.db, profileId, target, sha256)
  }

  /** Rows of the same content on their way but not sent yet, or skipped as vanished. */
  findUnsent(profileId: string, target: string, sha256: string): Upload[] {
    return duplicates.findUnsent(this.db, profileId, target, sha256)
  }

  /** Duplicates whose original ended without being sent; `original` narrows to one original. */
  orphanedDuplicates(original?: number): Upload[] {
    return duplicates.orphanedDuplicates(this.db, original)
  }

  // ---- the queue's scheduling and recovery (uploads/schedule.ts) ------------------------------

  /** The row to send next among `profiles` (null: all), due or not. */
  nextToSend(profiles: readonly string[] | null = null): Upload | undefined {
    return schedule.nextToSend(this.t, profiles)
  }

  /** The job to ask about next among `profiles` (null: all), due or not, leaving out `skip`. */
  nextToPoll(profiles: readonly string[] | null = null, skip: readonly number[] = []): Upload | undefined {
    return schedule.nextToPoll(this.t, profiles, skip)
  }

  /** Profiles that have rows still to send or follow (the queue learns them at start). */
  profilesWithWork(): string[] {
    return schedule.profilesWithWork(this.t)
  }

  /** After a crash or stop: rows left 'uploading' go back to the queue with the SAME key. */
  recoverInterrupted(
    now = Date.now(),
    opts: { inFlight?: readonly number[]; polls?: boolean } = {},
  ): number {
    return schedule.recoverInterrupted(this.t, now, opts)
  }

  /** A write that needs room, to tell whether storage works again after a fault. */
  probeWrite(): void {
    schedule.probeWrite(this.t)
  }

  /** The clock went back by `deltaMs` or jumped: every scheduled time moves with it. */
  shiftClock(deltaMs: number): number {
    return schedule.shiftClock(this.t, deltaMs)
  }

  /** Completed rows whose source file still has to be moved (the app stopped between the two). */
  pendingMoves(): Upload[] {
    return schedule.pendingMoves(this.t)
  }

  // ---- one-time data migrations (uploads/migrations.ts) ---------------------------------------

  /** Rows that earlier versions ended on an answer that was not the API's go on (issue 22). */
  resumeEndedWithoutTheApi(now = Date.now()): number {
    return resumeEndedWithoutTheApi(this.db, (...a) => this.transition(...a), now)
  }

  // ---- counts and history (uploads/history.ts) ------------------------------------------------

  /** Rows still on their way (queued, sending, waiting, processing), leaving out some profiles. */
  countActive(excludeProfiles: string[] = []): number {
    return this.history.countActive(excludeProfiles)
  }

  countByStatus(profileId?: string): Record<UploadStatus, number> {
    return this.history.countByStatus(profileId)
  }

  /** History: filtered, searched and paged; `total` counts every match. */
  query(f: HistoryFilter = {}): { rows: Upload[]; total: number } {
    return this.history.query(f)
  }

  /** Every matching row, one at a time (CSV export). */
  iterate(f: HistoryFilter = {}): Generator<Upload> {
    return this.history.iterate(f)
  }
}
