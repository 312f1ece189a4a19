/**
 * Row changes: a new row, a status move (the lifecycle table's, guarded in SQL) and a note (fields
 * of a row that keeps its status). `UploadStore.transition` and `note` (store/uploads.ts) are the
 * only callers: they are the one way a row changes. Writes use `run()`, never `RETURNING`.
 */
import { randomUUID } from 'node:crypto'
import { type FromStatus, SCHEDULED_STATUSES, type UploadStatus, checkNote, checkTransition } from '../../lifecycle'
import { COLUMN, type Row, fromRow, ROW_DEFAULTS, storedPath, toDb } from './rows'
import type { NewUpload, TransitionPatch, Upload, UploadTable } from './types'

/** A new row, committed before any request, in a status intake may start with (TRANSITIONS 'new'). */
export function insertUpload(t: UploadTable, u: NewUpload, now: number): Upload {
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
  t.writes++
  // run(), not RETURNING: it steps to completion (a failed commit throws) and costs a third as
  // much in libsql; the new row is what was written plus the table's defaults.
  const { lastInsertRowid } = t.db.run(
    `INSERT INTO uploads (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    ...cols.map((c) => fields[c]),
  )
  return fromRow({ ...ROW_DEFAULTS, ...(fields as Partial<Row>), id: lastInsertRowid } as Row)
}

export function getUpload(t: UploadTable, id: number): Upload | undefined {
  const r = t.db.get<Row>('SELECT * FROM uploads WHERE id = ?', id)
  return r ? fromRow(r) : undefined
}

/** The status move behind `UploadStore.transition` (see there). */
export function transitionUpload(
  t: UploadTable,
  row: number | Upload,
  from: FromStatus & UploadStatus,
  to: UploadStatus,
  patch: TransitionPatch,
  now: number,
): Upload | undefined {
  checkTransition(from, to, Object.keys(patch))
  // A row waiting to be sent or polled always has a time, so the scheduler's indexes cover it.
  if (SCHEDULED_STATUSES.includes(to) && patch.nextAttemptAt == null)
    patch = { ...patch, nextAttemptAt: now }
  return write(t, row, from, { ...patch, status: to }, now)
}

/** The note behind `UploadStore.note` (see there). */
export function noteUpload(
  t: UploadTable,
  row: number | Upload,
  status: UploadStatus,
  patch: TransitionPatch,
  now: number,
): Upload | undefined {
  checkNote(status, Object.keys(patch))
  return write(t, row, status, patch, now)
}

/**
 * The guarded UPDATE. Given the row as the caller last read it, the new row is that plus the patch
 * (the guard on the status proves nothing else moved it: every write goes through here); given an
 * id, it is read back.
 */
function write(
  t: UploadTable,
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
  t.writes++
  // run(), not RETURNING: it steps to completion, so a failed commit (SQLITE_FULL, an I/O
  // error) throws here instead of being lost, and it costs a third of RETURNING in libsql.
  const { changes } = t.db.run(
    `UPDATE uploads SET ${columns.map(([c]) => `${c} = ?`).join(', ')} WHERE id = ? AND status = ?`,
    ...columns.map(([, v]) => v),
    id,
    expected,
  )
  if (changes === 0) return undefined
  if (typeof row === 'number' || row.status !== expected) return getUpload(t, id)
  return { ...row, ...(Object.fromEntries(entries) as Partial<Upload>) }
}
