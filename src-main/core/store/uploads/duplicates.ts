/**
 * What the table knows of a file or of its content: the rows of a path (is this version handled,
 * can a skipped row be taken again) and the rows of the same content (the duplicate rule).
 */
import { RETAKE_REASONS } from '../../lifecycle'
import type { Db } from '../db'
import { type Row, fromRow, storedPath } from './rows'
import type { Upload } from './types'

/**
 * The latest row of a file that was skipped for a cause that can go away by itself (unreadable,
 * too large, empty): intake takes it again as that same row, so a file has one row per version.
 */
export function findRetakeable(db: Db, profileId: string, target: string, path: string): Upload | undefined {
  const stored = storedPath(path)
  const r = db.get<Row>(
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
export function retakeableInFolder(db: Db, folderId: string): Upload[] {
  const rows = db
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
function rowsOfPath(db: Db, profileId: string, target: string, path: string, limit: number): Row[] {
  const stored = storedPath(path)
  return db.all<Row>(
    `SELECT * FROM uploads WHERE path = ? AND path_bytes IS ? AND profile_id = ? AND target = ? ORDER BY id DESC LIMIT ?`,
    stored.path,
    stored.path_bytes,
    profileId,
    target,
    limit,
  )
}

/** The newest row of this file (path) for a profile and target, whatever its status. */
export function latestOfPath(db: Db, profileId: string, target: string, path: string): Upload | undefined {
  const r = rowsOfPath(db, profileId, target, path, 1)[0]
  return r ? fromRow(r) : undefined
}

/**
 * What the store knows of a file (its newest rows for this profile and target), in one query:
 * - `handled`: a row that handled this exact version (path, size, mtime), so it is not taken again;
 *   not a superseded row (its bytes were not what is on disk) nor one skipped for a cause that can
 *   go away (that file is looked at again);
 * - `retakeable`: the latest row skipped for such a cause, which a new take continues.
 */
export function fileState(
  db: Db,
  profileId: string,
  target: string,
  path: string,
  size: number,
  mtimeMs: number,
): { handled: Upload | undefined; retakeable: Upload | undefined } {
  const rows = rowsOfPath(db, profileId, target, path, 50)
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
export function findContent(db: Db, profileId: string, target: string, sha256: string): Upload | undefined {
  const r = db.get<Row>(
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
export function findUnsent(db: Db, profileId: string, target: string, sha256: string): Upload[] {
  return db
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
export function orphanedDuplicates(db: Db, original?: number): Upload[] {
  const one = original === undefined ? '' : 'AND d.duplicate_of = ?'
  return db
    .all<Row>(
      `SELECT d.* FROM uploads d INDEXED BY uploads_duplicates JOIN uploads o ON o.id = d.duplicate_of
       WHERE d.status = 'duplicate' ${one}
       AND o.status IN ('skipped', 'failed', 'superseded') AND o.job_reference IS NULL AND o.record_uuid IS NULL
       ORDER BY d.id ASC LIMIT 1000`,
      ...(original === undefined ? [] : [original]),
    )
    .map(fromRow)
}
