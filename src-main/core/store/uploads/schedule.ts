/**
 * The queue's side of the table: which row to send or poll next (each from its own partial index),
 * the profiles with work, and what a start, a storage fault or a clock jump puts right (rows left
 * 'uploading', scheduled times), plus the moves the after-upload step still owes.
 */
import { checkNote, checkTransition } from '../../lifecycle'
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
 * After a crash or stop: a row left 'uploading' may or may not have reached the server. It goes
 * back to the queue with the SAME Idempotency-Key, so the server replays instead of creating again.
 */
export function recoverInterrupted(
  t: UploadTable,
  now: number,
  { inFlight = [], polls = true }: { inFlight?: readonly number[]; polls?: boolean } = {},
): number {
  checkTransition('uploading', 'waiting_retry', ['nextAttemptAt'])
  checkNote('processing', ['nextAttemptAt'])
  t.writes++
  // Rows with a request still in flight in this process are left alone (after a storage fault).
  const keep = inFlight.length ? `AND id NOT IN (${inFlight.map(() => '?').join(', ')})` : ''
  return t.db.transaction(() => {
    // Jobs being followed: poll them again now (a poll in flight at the crash left a placeholder time).
    if (polls) t.db.run(`UPDATE uploads SET next_attempt_at = ? WHERE status = 'processing'`, now)
    return t.db.run(
      `UPDATE uploads SET status = 'waiting_retry', next_attempt_at = ?, updated_at = ? WHERE status = 'uploading' ${keep}`,
      now,
      now,
      ...inFlight,
    ).changes
  })
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

/**
 * The clock went back by `deltaMs` (negative) or jumped: every scheduled time, and the job
 * deadlines' start, move with it, so a row due "in 2 s" is not left waiting an hour.
 */
export function shiftClock(t: UploadTable, deltaMs: number): number {
  checkNote('queued', ['nextAttemptAt'])
  checkNote('processing', ['nextAttemptAt', 'acceptedAt'])
  t.writes++
  return t.db.transaction(() => {
    const n = t.db.run(
      `UPDATE uploads SET next_attempt_at = next_attempt_at + ? WHERE status IN ('queued', 'waiting_retry', 'processing')
       AND next_attempt_at IS NOT NULL`,
      deltaMs,
    ).changes
    t.db.run(
      `UPDATE uploads SET accepted_at = accepted_at + ? WHERE status = 'processing' AND accepted_at IS NOT NULL`,
      deltaMs,
    )
    return n
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
