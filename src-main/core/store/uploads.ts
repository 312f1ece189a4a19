/**
 * The upload queue and its history: one row per file, written before any network call.
 */
import { randomUUID } from 'node:crypto'
import type { AiTarget } from '../../../schemas'
import {
  type FromStatus,
  RETAKE_REASONS,
  UPLOAD_STATUSES,
  SCHEDULED_STATUSES,
  type UploadStatus,
  checkNote,
  checkTransition,
} from '../lifecycle'
import type { Db } from './db'
import { printable } from '../names'
import { COLUMN, type Row, fromRow, ROW_DEFAULTS, storedPath } from './upload-rows'
import type { UploadSource, UploadView } from '../../../contract/types'

export { SKIP_REASONS, type AfterUpload, type SkipReason, type UploadSource, type UploadView } from '../../../contract/types'

export { ACTIVE_STATUSES, TERMINAL_STATUSES, UPLOAD_STATUSES, type UploadStatus } from '../lifecycle'


/** A row of the uploads table: the public view plus what only main uses. */
export interface Upload extends UploadView {
  /** Sent with every attempt of this file's create, so a retry never creates a second record. */
  idempotencyKey: string
}

/**
 * The row as the contract shows it (history, events): main's own fields left out, and every name
 * and path printable (one line, in its own order; names.ts), whatever the file system held.
 */
export function toUploadView(u: Upload): UploadView {
  const { idempotencyKey: _key, ...view } = u
  return {
    ...view,
    name: printable(view.name),
    path: printable(view.path),
    movedTo: view.movedTo === null ? null : printable(view.movedTo),
    archiveDir: view.archiveDir === null ? null : printable(view.archiveDir),
  }
}

function notIn(profiles: readonly string[]): string {
  return profiles.length ? `AND profile_id NOT IN (${profiles.map(() => '?').join(', ')})` : ''
}

function toDb(v: unknown): unknown {
  if (typeof v === 'boolean') return v ? 1 : 0
  return v === undefined ? null : v
}

/** Fields a transition or note writes (never the status: that is the move itself). */
export type TransitionPatch = Partial<Omit<Upload, 'id' | 'status' | 'createdAt' | 'updatedAt'>>

export type NewUpload = Pick<
  Upload,
  'profileId' | 'target' | 'source' | 'path' | 'name' | 'prompt' | 'status'
> &
  Partial<Omit<Upload, 'id' | 'createdAt' | 'updatedAt' | 'idempotencyKey'>>

export interface HistoryFilter {
  statuses?: UploadStatus[]
  targets?: AiTarget[]
  /** Where the files came from (folder, drop, command line, mail, phone). */
  sources?: UploadSource[]
  profileId?: string
  folderId?: string
  /** Case-insensitive substring of the file name. */
  search?: string
  /** created_at bounds, epoch ms, inclusive. */
  from?: number
  to?: number
  /** Newest first unless 'asc'. */
  order?: 'asc' | 'desc'
  offset?: number
  limit?: number
}

export class UploadStore {
  /** Writes through this store so far: cached counts taken before the latest one are stale. */
  private writes = 0
  /** COUNT(*) answers by query, valid while no write happened here or elsewhere (data_version). */
  private readonly counted = new Map<string, { writes: number; dataVersion: number; value: unknown }>()

  constructor(private readonly db: Db) {}

  transaction<R>(fn: () => R): R {
    return this.db.transaction(fn)
  }

  /** A new row, committed before any request, in a status intake may start with (TRANSITIONS 'new'). */
  insert(u: NewUpload, now = Date.now()): Upload {
    checkTransition('new', u.status, [])
    if (SCHEDULED_STATUSES.includes(u.status) && u.nextAttemptAt == null) u = { ...u, nextAttemptAt: now }
    const fields: Record<string, unknown> = {
      process_type: 'async',
      after_upload: 'leave',
      ...Object.fromEntries(Object.entries(u).map(([k, v]) => [COLUMN[k as keyof typeof COLUMN], toDb(v)])),
      ...storedPath(u.path),
      idempotency_key: randomUUID(),
      created_at: now,
      updated_at: now,
    }
    const cols = Object.keys(fields)
    this.writes++
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
    patch: Partial<Omit<Upload, 'id'>>,
    now: number,
  ): Upload | undefined {
    const id = typeof row === 'number' ? row : row.id
    const entries = Object.entries({ ...patch, updatedAt: now }).filter(([, v]) => v !== undefined)
    const columns: [string, unknown][] = entries.flatMap(([k, v]): [string, unknown][] => {
      if (k !== 'path' || typeof v !== 'string') return [[COLUMN[k as keyof typeof COLUMN], toDb(v)]]
      const stored = storedPath(v) // a path that is not UTF-8 keeps its bytes
      return [
        ['path', stored.path],
        ['path_bytes', stored.path_bytes],
      ]
    })
    this.writes++
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
   * The latest row of a file that was skipped for a cause that can go away by itself (unreadable,
   * too large, empty): intake takes it again as that same row, so a file has one row per version.
   */
  findRetakeable(profileId: string, target: string, path: string): Upload | undefined {
    const stored = storedPath(path)
    const r = this.db.get<Row>(
      `SELECT * FROM uploads WHERE path = ? AND path_bytes IS ? AND profile_id = ? AND target = ? AND status = 'skipped'
       AND reason IN (${RETAKE_REASONS.map(() => '?').join(', ')}) ORDER BY id DESC LIMIT 1`,
      stored.path,
      stored.path_bytes,
      profileId,
      target,
      ...RETAKE_REASONS,
    )
    return r ? fromRow(r) : undefined
  }

  /** Rows of a folder skipped for a cause that can go away, one per path (the latest): looked at on a rescan. */
  retakeableInFolder(folderId: string): Upload[] {
    const rows = this.db
      .all<Row>(
        `SELECT * FROM uploads INDEXED BY uploads_skipped_by_folder WHERE folder_id = ? AND status = 'skipped'
         AND reason IN (${RETAKE_REASONS.map(() => '?').join(', ')}) ORDER BY id DESC`,
        folderId,
        ...RETAKE_REASONS,
      )
      .map(fromRow)
    const seen = new Set<string>()
    return rows.filter((u) => !seen.has(u.path) && seen.add(u.path))
  }

  /** The newest rows of this file (path, exact bytes) for a profile and target, newest first. */
  private rowsOfPath(profileId: string, target: string, path: string, limit: number): Row[] {
    const stored = storedPath(path)
    return this.db.all<Row>(
      `SELECT * FROM uploads WHERE path = ? AND path_bytes IS ? AND profile_id = ? AND target = ? ORDER BY id DESC LIMIT ?`,
      stored.path,
      stored.path_bytes,
      profileId,
      target,
      limit,
    )
  }

  /** The newest row of this file (path) for a profile and target, whatever its status. */
  latestOfPath(profileId: string, target: string, path: string): Upload | undefined {
    const r = this.rowsOfPath(profileId, target, path, 1)[0]
    return r ? fromRow(r) : undefined
  }

  /**
   * What the store knows of a file (its newest rows for this profile and target), in one query:
   * - `handled`: a row that handled this exact version (path, size, mtime), so it is not taken again;
   *   not a superseded row (its bytes were not what is on disk) nor one skipped for a cause that can
   *   go away (that file is looked at again);
   * - `retakeable`: the latest row skipped for such a cause, which a new take continues.
   */
  fileState(
    profileId: string,
    target: string,
    path: string,
    size: number,
    mtimeMs: number,
  ): { handled: Upload | undefined; retakeable: Upload | undefined } {
    const rows = this.rowsOfPath(profileId, target, path, 50)
    const retake = (r: Row) =>
      r.status === 'skipped' && (RETAKE_REASONS as readonly string[]).includes(r.reason ?? '')
    const handled = rows.find(
      (r) => r.size === size && r.mtime_ms === mtimeMs && r.status !== 'superseded' && !retake(r),
    )
    const retakeable = rows.find(retake)
    return {
      handled: handled ? fromRow(handled) : undefined,
      retakeable: retakeable ? fromRow(retakeable) : undefined,
    }
  }

  /**
   * The earlier upload of the same content for the same profile and target that was *sent*: the
   * server accepted its create (a job followed) or made its record. Only such a row makes a file a
   * duplicate ("Duplicate" never means merely queued).
   */
  findContent(profileId: string, target: string, sha256: string): Upload | undefined {
    const r = this.db.get<Row>(
      `SELECT * FROM uploads WHERE profile_id = ? AND target = ? AND sha256 = ?
       AND status IN ('processing', 'completed')
       ORDER BY id ASC LIMIT 1`,
      profileId,
      target,
      sha256,
    )
    return r ? fromRow(r) : undefined
  }

  /**
   * Rows of the same content that are on their way but not sent yet (queued, being sent, waiting to
   * retry), and rows of it that were skipped because their file vanished before it was sent:
   * a file of this content found at another path may be the same file, renamed or moved.
   */
  findUnsent(profileId: string, target: string, sha256: string): Upload[] {
    return this.db
      .all<Row>(
        `SELECT * FROM uploads WHERE profile_id = ? AND target = ? AND sha256 = ?
         AND (status IN ('queued', 'uploading', 'waiting_retry') OR (status = 'skipped' AND reason = 'vanished'))
         ORDER BY id ASC LIMIT 20`,
        profileId,
        target,
        sha256,
      )
      .map(fromRow)
  }

  /**
   * Duplicates whose original ended without being sent (skipped, failed before the server took it,
   * or superseded; not cancelled by a person): each should go in its original's place. `original`
   * narrows to one original.
   */
  orphanedDuplicates(original?: number): Upload[] {
    const one = original === undefined ? '' : 'AND d.duplicate_of = ?'
    return this.db
      .all<Row>(
        `SELECT d.* FROM uploads d INDEXED BY uploads_duplicates JOIN uploads o ON o.id = d.duplicate_of
         WHERE d.status = 'duplicate' ${one}
         AND o.status IN ('skipped', 'failed', 'superseded') AND o.job_reference IS NULL AND o.record_uuid IS NULL
         ORDER BY d.id ASC LIMIT 1000`,
        ...(original === undefined ? [] : [original]),
      )
      .map(fromRow)
  }

  /**
   * The scheduler's question: the earliest row of `kind` (by next_attempt_at, then id).
   * `profiles` null means every profile; otherwise only those (paused ones left out). Each profile
   * is answered from its own partial index, so rows of a paused profile cost nothing to skip.
   */
  private earliest(
    kind: 'send' | 'poll',
    profiles: readonly string[] | null,
    skip: readonly number[] = [],
  ): Row | undefined {
    const status = kind === 'send' ? `status IN ('queued', 'waiting_retry')` : `status = 'processing'`
    const due = skip.length ? `AND id NOT IN (${skip.map(() => '?').join(', ')})` : ''
    const time = skip
    // INDEXED BY: the planner must not trade these partial indexes for a status or profile index
    // and a sort of every waiting row (it did, once such indexes existed).
    const index = kind === 'send' ? 'uploads_send' : 'uploads_poll'
    if (profiles === null) {
      return this.db.get<Row>(
        `SELECT * FROM uploads INDEXED BY ${index} WHERE ${status} ${due} ORDER BY next_attempt_at, id LIMIT 1`,
        ...time,
      )
    }
    let best: Row | undefined
    for (const p of profiles) {
      const r = this.db.get<Row>(
        `SELECT * FROM uploads INDEXED BY ${index}_by_profile
         WHERE profile_id = ? AND ${status} ${due} ORDER BY next_attempt_at, id LIMIT 1`,
        p,
        ...time,
      )
      if (
        r &&
        (!best ||
          r.next_attempt_at! < best.next_attempt_at! ||
          (r.next_attempt_at === best.next_attempt_at && r.id < best.id))
      ) {
        best = r
      }
    }
    return best
  }

  /**
   * The row to send next among `profiles` (null: all): the one with the earliest time, due or not
   * (the scheduler sends it when due, else sleeps until its time).
   */
  nextToSend(profiles: readonly string[] | null = null): Upload | undefined {
    const r = this.earliest('send', profiles)
    return r ? fromRow(r) : undefined
  }

  /**
   * The job to ask about next among `profiles` (null: all), due or not, leaving out the rows whose
   * poll is in flight (`skip`: the queue knows them; nothing is written to mark them).
   */
  nextToPoll(profiles: readonly string[] | null = null, skip: readonly number[] = []): Upload | undefined {
    const r = this.earliest('poll', profiles, skip)
    return r ? fromRow(r) : undefined
  }

  /** Profiles that have rows still to send or follow (the queue learns them at start). */
  profilesWithWork(): string[] {
    return this.db
      .all<{ profile_id: string }>(
        `SELECT DISTINCT profile_id FROM uploads WHERE status IN ('queued', 'uploading', 'waiting_retry', 'processing')`,
      )
      .map((r) => r.profile_id)
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
    this.writes++
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
   * Once, after the update that made only the API's own word end a receipt (issue 22): rows that
   * earlier versions ended on an answer that was not the API's go on, each as a move of the
   * lifecycle table. A create that "failed" on a body that was not JSON, a redirect, an error page
   * without the API's JSON, or network errors until its attempts ran out, and a create "done"
   * although its answer named nothing, are sent again with the SAME Idempotency-Key (the server
   * replays what it may have created); a job given up on a redirect, a 404 or answers without a
   * status is followed again. A file the after-upload step had moved is sent from where it is now,
   * and left there. The API's own refusals and real records are not touched. Returns how many.
   */
  resumeEndedWithoutTheApi(now = Date.now()): number {
    const rows = this.db
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
          ? this.transition(r, 'failed', 'waiting_retry', { ...resend, polls: 0, nextAttemptAt: now, httpStatus: null }, now)
          : r.jobReference === null
            ? this.transition(r, 'completed', 'waiting_retry', { ...cleared, ...moved, ...resend }, now)
            : this.transition(
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

  /**
   * A write that needs room (a page of its own), to tell whether storage works again after a fault;
   * it leaves nothing behind.
   */
  probeWrite(): void {
    this.db.transaction(() => {
      this.db.run('CREATE TABLE IF NOT EXISTS storage_probe (blob BLOB)')
      this.db.run('INSERT INTO storage_probe (blob) VALUES (zeroblob(8192))')
      this.db.run('DELETE FROM storage_probe')
    })
  }

  /**
   * The clock went back by `deltaMs` (negative) or jumped: every scheduled time, and the job
   * deadlines' start, move with it, so a row due "in 2 s" is not left waiting an hour.
   */
  shiftClock(deltaMs: number): number {
    checkNote('queued', ['nextAttemptAt'])
    checkNote('processing', ['nextAttemptAt', 'acceptedAt'])
    this.writes++
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

  /** Completed rows whose source file still has to be moved (the app stopped between the two). */
  pendingMoves(): Upload[] {
    return this.db
      .all<Row>(
        `SELECT * FROM uploads WHERE status = 'completed' AND after_upload != 'leave' AND moved_to IS NULL`,
      )
      .map(fromRow)
  }

  /** Rows still on their way (queued, sending, waiting, processing), leaving out some profiles. */
  countActive(excludeProfiles: string[] = []): number {
    return (
      this.db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM uploads WHERE status IN ('queued', 'uploading', 'waiting_retry', 'processing') ${notIn(excludeProfiles)}`,
        ...excludeProfiles,
      )?.n ?? 0
    )
  }

  /**
   * A count, remembered until the next write: counting 100,000 rows costs ~10 ms, and the same
   * counts are asked for again and again (every session refresh, every page of the history) while
   * nothing changes. Writes by another connection (PRAGMA data_version) also make it stale.
   */
  private countOnce<T>(key: string, count: () => T): T {
    const dataVersion = this.db.get<{ data_version: number }>('PRAGMA data_version')?.data_version ?? -1
    const hit = this.counted.get(key)
    if (hit && hit.writes === this.writes && hit.dataVersion === dataVersion) return hit.value as T
    const value = count()
    if (this.counted.size >= 200) this.counted.clear()
    this.counted.set(key, { writes: this.writes, dataVersion, value })
    return value
  }

  countByStatus(profileId?: string): Record<UploadStatus, number> {
    return { ...this.countOnce(`status ${profileId ?? '*'}`, () => this.countByStatusNow(profileId)) }
  }

  private countByStatusNow(profileId?: string): Record<UploadStatus, number> {
    const out = Object.fromEntries(UPLOAD_STATUSES.map((s) => [s, 0])) as Record<UploadStatus, number>
    const rows = profileId
      ? this.db.all<{ status: UploadStatus; n: number }>(
          'SELECT status, COUNT(*) AS n FROM uploads WHERE profile_id = ? GROUP BY status',
          profileId,
        )
      : this.db.all<{ status: UploadStatus; n: number }>(
          'SELECT status, COUNT(*) AS n FROM uploads GROUP BY status',
        )
    for (const r of rows) out[r.status] = r.n
    return out
  }

  private where(f: HistoryFilter): { sql: string; params: unknown[] } {
    const clauses: string[] = []
    const params: unknown[] = []
    if (f.statuses?.length) {
      clauses.push(`status IN (${f.statuses.map(() => '?').join(', ')})`)
      params.push(...f.statuses)
    }
    if (f.targets?.length) {
      clauses.push(`target IN (${f.targets.map(() => '?').join(', ')})`)
      params.push(...f.targets)
    }
    if (f.sources?.length) {
      clauses.push(`source IN (${f.sources.map(() => '?').join(', ')})`)
      params.push(...f.sources)
    }
    if (f.profileId) {
      clauses.push('profile_id = ?')
      params.push(f.profileId)
    }
    if (f.folderId) {
      clauses.push('folder_id = ?')
      params.push(f.folderId)
    }
    if (f.search?.trim()) {
      clauses.push(`name LIKE ? ESCAPE '\\'`)
      params.push(`%${f.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    }
    if (f.from !== undefined) {
      clauses.push('created_at >= ?')
      params.push(f.from)
    }
    if (f.to !== undefined) {
      clauses.push('created_at <= ?')
      params.push(f.to)
    }
    return { sql: clauses.length ? `WHERE ${clauses.join(' AND ')}` : '', params }
  }

  /** History: filtered, searched and paged; `total` counts every match. */
  query(f: HistoryFilter = {}): { rows: Upload[]; total: number } {
    const { sql, params } = this.where(f)
    const order = f.order === 'asc' ? 'ASC' : 'DESC'
    const limit = Math.min(Math.max(f.limit ?? 100, 1), 1000)
    const offset = Math.max(f.offset ?? 0, 0)
    const rows = this.db
      .all<Row>(
        `SELECT * FROM uploads ${sql} ORDER BY created_at ${order}, id ${order} LIMIT ? OFFSET ?`,
        ...params,
        limit,
        offset,
      )
      .map(fromRow)
    const total = this.countOnce(
      `total ${sql} ${JSON.stringify(params)}`,
      () => this.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM uploads ${sql}`, ...params)?.n ?? 0,
    )
    return { rows, total }
  }

  /** Every matching row, one at a time (CSV export). */
  *iterate(f: HistoryFilter = {}): Generator<Upload> {
    const { sql, params } = this.where(f)
    const order = f.order === 'asc' ? 'ASC' : 'DESC'
    for (const r of this.db.iterate<Row>(
      `SELECT * FROM uploads ${sql} ORDER BY created_at ${order}, id ${order}`,
      ...params,
    )) {
      yield fromRow(r)
    }
  }
}
