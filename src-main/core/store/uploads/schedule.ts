/**
 * The queue's questions to the table: which row to send or poll next (each from its own partial
 * index), the profiles with work, whether storage takes a write again after a fault, and the moves
 * the after-upload step still owes. (Its writes, recoverInterrupted and shiftClock, are the
 * store's own: store/uploads.ts.)
 */
import { type Row, fromRow } from './rows'
import type { Upload, UploadTable } from './types'

/**
 * The scheduler's question: the earliest row of `kind` (by next_attempt_at, then id).
 * `profiles` null means every profile; otherwise only those (paused ones left out). Each profile
 * is answered from its own partial index, so rows of a paused profile cost nothing to skip.
 */
function earliest(
  t: UploadTable,
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
    return t.db.get<Row>(
      `SELECT * FROM uploads INDEXED BY ${index} WHERE ${status} ${due} ORDER BY next_attempt_at, id LIMIT 1`,
      ...time,
    )
  }
  let best: Row | undefined
  for (const p of profiles) {
    const r = t.db.get<Row>(
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
export function nextToSend(t: UploadTable, profiles: readonly string[] | null): Upload | undefined {
  const r = earliest(t, 'send', profiles)
  return r ? fromRow(r) : undefined
}

/**
 * The job to ask about next among `profiles` (null: all), due or not, leaving out the rows whose
 * poll is in flight (`skip`: the queue knows them; nothing is written to mark them).
 */
export function nextToPoll(
  t: UploadTable,
  profiles: readonly string[] | null,
  skip: readonly number[],
): Upload | undefined {
  const r = earliest(t, 'poll', profiles, skip)
  return r ? fromRow(r) : undefined
}

/** Profiles that have rows still to send or follow (the queue learns them at start). */
export function profilesWithWork(t: UploadTable): string[] {
  return t.db
    .all<{ profile_id: string }>(
      `SELECT DISTINCT profile_id FROM uploads WHERE status IN ('queued', 'uploading', 'waiting_retry', 'processing')`,
    )
    .map((r) => r.profile_id)
}

/**
 * A write that needs room (a page of its own), to tell whether storage works again after a fault;
 * it leaves nothing behind.
 */
export function probeWrite(t: UploadTable): void {
  t.db.transaction(() => {
    t.db.run('CREATE TABLE IF NOT EXISTS storage_probe (blob BLOB)')
    t.db.run('INSERT INTO storage_probe (blob) VALUES (zeroblob(8192))')
    t.db.run('DELETE FROM storage_probe')
  })
}

/** Completed rows whose source file still has to be moved (the app stopped between the two). */
export function pendingMoves(t: UploadTable): Upload[] {
  return t.db
    .all<Row>(
      `SELECT * FROM uploads WHERE status = 'completed' AND after_upload != 'leave' AND moved_to IS NULL`,
    )
    .map(fromRow)
}
