/**
 * The upload queue and its history: one row per file, written before any network call.
 *
 * `UploadStore` is the table's one door and its only writer: a new row, a status move (the
 * lifecycle table's, guarded in SQL: `transition` is the one way a status changes), a note, and the
 * recovery after a crash or a clock jump are written here, with `run()`, never `RETURNING`. Its
 * reading parts live in `store/uploads/`: the row and its mapping (rows.ts), what is known of a
 * file or its content (duplicates.ts), the scheduler's questions (schedule.ts), counts and history
 * (history.ts) and one-time data migrations (migrations.ts, through `transition`).
 */
import type { Db } from './db'
import { randomUUID } from 'node:crypto'
import { type FromStatus, SCHEDULED_STATUSES, type UploadStatus, checkNote, checkTransition } from '../lifecycle'
import {
  COLUMN,
  type LastError,
  type Row,
  fromRow,
  lastErrorColumns,
  lastErrorFields,
  ROW_DEFAULTS,
  storedPath,
  toDb,
} from './uploads/rows'
import { type CopyRef, localCopyRefs } from './uploads/copies'
import * as duplicates from './uploads/duplicates'
import { UploadHistory } from './uploads/history'
import { resumeEndedWithoutTheApi } from './uploads/migrations'
import * as schedule from './uploads/schedule'
import type { HistoryFilter, NewUpload, TransitionPatch, Upload, UploadTable } from './uploads/types'

export { SKIP_REASONS, type AfterUpload, type SkipReason, type UploadSource, type UploadView } from '../../../contract/types'

export { ACTIVE_STATUSES, TERMINAL_STATUSES, UPLOAD_STATUSES, type UploadStatus } from '../lifecycle'

export type { CopyRef } from './uploads/copies'
export { type HistoryFilter, type NewUpload, type TransitionPatch, type Upload, toUploadView } from './uploads/types'

/** A query's parameters after the database (profileId, target, path, size, mtimeMs). */
type WithoutDb<F> = F extends (db: Db, ...a: infer A) => unknown ? A : never

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

  // ---- row changes: every write of the uploads table is here ---------------------------------

  /** A new row, committed before any request, in a status intake may start with (TRANSITIONS 'new'). */
  insert(u: NewUpload, now = Date.now()): Upload {
    checkTransition('new', u.status, [])
    if (SCHEDULED_STATUSES.includes(u.status) && u.nextAttemptAt == null) u = { ...u, nextAttemptAt: now }
    const fields: Record<string, unknown> = {
      process_type: 'async',
      after_upload: 'leave',
      ...Object.fromEntries(Object.entries(u).map(([k, v]) => [COLUMN[k as keyof typeof COLUMN], toDb(v)])),
      ...('lastError' in u ? lastErrorColumns(u.lastError) : {}),
      ...storedPath(u.path),
      idempotency_key: randomUUID(),
      created_at: now,
      updated_at: now,
    }
    const cols = Object.keys(fields)
    this.t.writes++
    // run(), not RETURNING: it steps to completion (a failed commit throws) and costs a third as
    // much in libsql; the new row is what was written plus the table's defaults.
    const { lastInsertRowid } = this.db.run(
      `INSERT INTO uploads (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      ...cols.map((c) => fields[c]),
    )
    return fromRow({ ...ROW_DEFAULTS, ...(fields as Partial<Row>), id: lastInsertRowid } as Row)
  }

  get(id: number): Upload | undefined {
    const r = this.db.get<Row>('SELECT * FROM uploads WHERE id = ?', id)
    return r ? fromRow(r) : undefined
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
    checkTransition(from, to, Object.keys(patch))
    // A row waiting to be sent or polled always has a time, so the scheduler's indexes cover it.
    if (SCHEDULED_STATUSES.includes(to) && patch.nextAttemptAt == null)
      patch = { ...patch, nextAttemptAt: now }
    return this.write(row, from, { ...patch, status: to }, now)
  }

  /** Changes fields of a row that keeps its status (lifecycle NOTES), if it still has `status`. */
  note(
    row: number | Upload,
    status: UploadStatus,
    patch: TransitionPatch,
    now = Date.now(),
  ): Upload | undefined {
    checkNote(status, Object.keys(patch))
    return this.write(row, status, patch, now)
  }

  /**
   * The guarded UPDATE. Given the row as the caller last read it, the new row is that plus the patch
   * (the guard on the status proves nothing else moved it: every write goes through here); given an
   * id, it is read back.
   */
  private write(
    row: number | Upload,
    expected: UploadStatus,
    patch: TransitionPatch & { status?: UploadStatus },
    now: number,
  ): Upload | undefined {
    const id = typeof row === 'number' ? row : row.id
    const written = Object.entries({ ...patch, updatedAt: now }).filter(([, v]) => v !== undefined)
    // A lastError given as a Coded is stored as its text and its code (two columns, two fields).
    const entries = written.flatMap(([k, v]): [string, unknown][] =>
      k === 'lastError' ? Object.entries(lastErrorFields(v as LastError)) : [[k, v]],
    )
    const columns: [string, unknown][] = written.flatMap(([k, v]): [string, unknown][] => {
      if (k === 'lastError') return Object.entries(lastErrorColumns(v as LastError))
      if (k !== 'path' || typeof v !== 'string') return [[COLUMN[k as keyof typeof COLUMN], toDb(v)]]
      const stored = storedPath(v) // a path that is not UTF-8 keeps its bytes
      return [
        ['path', stored.path],
        ['path_bytes', stored.path_bytes],
      ]
    })
    this.t.writes++
    // run(), not RETURNING: it steps to completion, so a failed commit (SQLITE_FULL, an I/O
    // error) throws here instead of being lost, and it costs a third of RETURNING in libsql.
    const { changes } = this.db.run(
      `UPDATE uploads SET ${columns.map(([c]) => `${c} = ?`).join(', ')} WHERE id = ? AND status = ?`,
      ...columns.map(([, v]) => v),
      id,
      expected,
    )
    if (changes === 0) return undefined
    if (typeof row === 'number' || row.status !== expected) return this.get(id)
    return { ...row, ...(Object.fromEntries(entries) as Partial<Upload>) }
  }

  /**
   * After a crash or stop: a row left 'uploading' may or may not have reached the server. It goes
   * back to the queue with the SAME Idempotency-Key, so the server replays instead of creating again.
   */
  recoverInterrupted(
    now = Date.now(),
    { inFlight = [], polls = true }: { inFlight?: readonly number[]; polls?: boolean } = {},
  ): number {
    checkTransition('uploading', 'waiting_retry', ['nextAttemptAt'])
    checkNote('processing', ['nextAttemptAt'])
    this.t.writes++
    // Rows with a request still in flight in this process are left alone (after a storage fault).
    const keep = inFlight.length ? `AND id NOT IN (${inFlight.map(() => '?').join(', ')})` : ''
    return this.db.transaction(() => {
      // Jobs being followed: poll them again now (a poll in flight at the crash left a placeholder time).
      if (polls) this.db.run(`UPDATE uploads SET next_attempt_at = ? WHERE status = 'processing'`, now)
      return this.db.run(
        `UPDATE uploads SET status = 'waiting_retry', next_attempt_at = ?, updated_at = ? WHERE status = 'uploading' ${keep}`,
        now,
        now,
        ...inFlight,
      ).changes
    })
  }

  /**
   * The clock went back by `deltaMs` (negative) or jumped: every scheduled time, and the job
   * deadlines' start, move with it, so a row due "in 2 s" is not left waiting an hour.
   */
  shiftClock(deltaMs: number): number {
    checkNote('queued', ['nextAttemptAt'])
    checkNote('processing', ['nextAttemptAt', 'acceptedAt'])
    this.t.writes++
    return this.db.transaction(() => {
      const n = this.db.run(
        `UPDATE uploads SET next_attempt_at = next_attempt_at + ? WHERE status IN ('queued', 'waiting_retry', 'processing')
         AND next_attempt_at IS NOT NULL`,
        deltaMs,
      ).changes
      this.db.run(
        `UPDATE uploads SET accepted_at = accepted_at + ? WHERE status = 'processing' AND accepted_at IS NOT NULL`,
        deltaMs,
      )
      return n
    })
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
  fileState(...a: WithoutDb<typeof duplicates.fileState>): ReturnType<typeof duplicates.fileState> {
    return duplicates.fileState(this.db, ...a)
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

  /** A write that needs room, to tell whether storage works again after a fault. */
  probeWrite(): void {
    schedule.probeWrite(this.t)
  }

  /** Completed rows whose source file still has to be moved (the app stopped between the two). */
  pendingMoves(): Upload[] {
    return schedule.pendingMoves(this.t)
  }

  /** Rows that refer to a local copy in the data folder (uploads/copies.ts; engine/retention.ts). */
  localCopyRefs(dataDir: string): CopyRef[] {
    return localCopyRefs(this.db, dataDir)
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
