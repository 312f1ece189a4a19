/**
 * Possible duplicates (issue 33): rows held, or sent anyway, because their text or picture matches
 * another receipt (`near_of`, `near_basis`). What the other receipt is called and when it was sent,
 * for the row's sentence; the held rows that wait on a receipt still on its way; held rows a
 * person has to decide.
 */
import type { Db } from '../db'
import type { PossibleDuplicate } from '../../../../contract/possible-duplicate'
import { type Row, fromRow } from './rows'
import type { Upload } from './types'

/** When a row was sent: the server accepted it as a job, or made its record at once. Null: not (yet) sent. */
export function sentAtOf(u: Pick<Upload, 'status' | 'acceptedAt' | 'completedAt'>): number | null {
  if (u.status !== 'processing' && u.status !== 'completed') return null
  return u.acceptedAt ?? u.completedAt ?? null
}

/** The receipt `row` looks like, named and dated; null when it has none (or that row is gone). */
export function possibleDuplicate(db: Db, row: Pick<Upload, 'nearOf' | 'nearBasis'>): PossibleDuplicate | null {
  if (row.nearOf == null || row.nearBasis == null) return null
  const r = db.get<Row>('SELECT * FROM uploads WHERE id = ?', row.nearOf)
  if (!r) return null
  const other = fromRow(r)
  return {
    basis: row.nearBasis,
    uploadId: other.id,
    name: other.name,
    sentAt: sentAtOf(other),
    recordUuid: other.recordUuid,
  }
}

/** Held rows that wait on `original` (a receipt still on its way when they arrived). */
export function heldOn(db: Db, original: number): Upload[] {
  return db
    .all<Row>(`SELECT * FROM uploads INDEXED BY uploads_near WHERE near_of = ? AND status = 'held' ORDER BY id ASC LIMIT 1000`, original)
    .map(fromRow)
}

/**
 * Held rows whose receipt ended without being sent (skipped, refused before the server took it,
 * superseded, or cancelled by a person): each goes on its own. Looked at at start (a restart
 * finishes what an earlier run left).
 */
export function orphanedHeld(db: Db): Upload[] {
  return db
    .all<Row>(
      `SELECT h.* FROM uploads h JOIN uploads o ON o.id = h.near_of
       WHERE h.status = 'held' AND o.status IN ('skipped', 'failed', 'superseded', 'cancelled', 'discarded')
       AND o.job_reference IS NULL AND o.record_uuid IS NULL
       ORDER BY h.id ASC LIMIT 1000`,
    )
    .map(fromRow)
}

/** Held rows (a profile's, or every profile's), oldest first. */
export function held(db: Db, profileId?: string, limit = 1000): Upload[] {
  const one = profileId === undefined ? '' : 'AND profile_id = ?'
  return db
    .all<Row>(
      `SELECT * FROM uploads WHERE status = 'held' ${one} ORDER BY id ASC LIMIT ?`,
      ...(profileId === undefined ? [] : [profileId]),
      limit,
    )
    .map(fromRow)
}
