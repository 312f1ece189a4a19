/**
 * The life of a receipt as one explicit state machine (design.md §2): every status, every allowed
 * move from → to, why it happens and which fields it may write. The store applies a move only
 * through `UploadStore.transition(id, from, to, patch)`, guarded in SQL (`WHERE status = from`), and
 * refuses anything this table does not list; no other code writes a status. docs/engine.md's "life of a
 * receipt" table is generated from TRANSITIONS (`lifecycleMarkdown`) and a test keeps them equal.
 */
import { ACTIVE_STATUSES, TERMINAL_STATUSES, UPLOAD_STATUSES, type UploadStatus } from '../../contract/types'

export { ACTIVE_STATUSES, TERMINAL_STATUSES, UPLOAD_STATUSES, type UploadStatus }

/** A row being inserted: intake commits it in one of the statuses `from: 'new'` leads to. */
export type FromStatus = UploadStatus | 'new'

/** Statuses whose rows the scheduler picks up at `next_attempt_at`. */
export const SCHEDULED_STATUSES: readonly UploadStatus[] = ['queued', 'waiting_retry', 'processing']

/** Skip reasons whose cause can go away by itself: such rows are looked at again (re-take). */
export const RETAKE_REASONS = ['unreadable', 'too_large', 'empty'] as const

/** Fields of a row a transition may write (the status itself and updated_at always change). */
export type UploadField =
  | 'size'
  | 'mtimeMs'
  | 'sha256'
  | 'prompt'
  | 'reason'
  | 'attempts'
  | 'nextAttemptAt'
  | 'lastError'
  | 'errorCode'
  | 'httpStatus'
  | 'idempotencyKey'
  | 'jobReference'
  | 'acceptedAt'
  | 'polls'
  | 'recordUuid'
  | 'recordType'
  | 'duplicateOf'
  | 'forced'
  | 'completedAt'
  | 'movedTo'
  | 'path'
  | 'name'
  | 'folderId'
  | 'note'
  | 'preparedPath'
  | 'preparedSize'
  | 'preparedMtimeMs'
  | 'afterUpload'
  | 'sentName'
  | 'sentPrompt'
  | 'nearOf'
  | 'nearBasis'

export interface Transition {
  from: FromStatus
  to: UploadStatus
  /** Who or what makes the move, in plain words (docs/engine.md's table). */
  why: string
  /** Fields the move may write besides the status. */
  writes: readonly UploadField[]
}

const ERROR: UploadField[] = ['lastError', 'errorCode', 'httpStatus']
/** What the first send under a key fixes (the body sent under a key never changes; a rename shows in the history only). */
const SENT: UploadField[] = ['sentName', 'sentPrompt']
const RESEND: UploadField[] = ['attempts', 'nextAttemptAt', 'polls', 'jobReference', 'acceptedAt', 'idempotencyKey', ...SENT, ...ERROR]
/** A file found again under another name (renamed or moved while it waited): its row follows it. */
const FOLLOW: UploadField[] = ['path', 'name', 'folderId', 'prompt', 'size', 'mtimeMs']
const PREPARED: UploadField[] = ['preparedPath', 'preparedSize', 'preparedMtimeMs']
const RETAKE: UploadField[] = ['size', 'mtimeMs', 'sha256', 'prompt', 'reason', 'nextAttemptAt', 'duplicateOf', 'forced', 'note', 'nearOf', 'nearBasis', ...FOLLOW, ...PREPARED, ...ERROR]
const RECORD: UploadField[] = ['recordUuid', 'recordType', 'completedAt', 'nextAttemptAt', ...ERROR]

export const TRANSITIONS: readonly Transition[] = [
  { from: 'new', to: 'queued', why: 'intake: a stable, accepted file, hashed, with content not sent before', writes: [] },
  { from: 'new', to: 'duplicate', why: 'intake: the same content was already sent to this target (accepted or recorded), or another file of it is being sent', writes: [] },
  { from: 'new', to: 'held', why: 'intake (issue 33): its text or picture matches a receipt already sent, or one still on its way (it waits for it), and the profile holds possible duplicates', writes: [] },
  { from: 'new', to: 'skipped', why: 'intake: unsupported kind, too large, empty, unreadable, vanished, a link to a file outside the watched folder, content that is not what its name says, a photo that could not be prepared; or a mail with no receipt in it', writes: [] },
  { from: 'queued', to: 'uploading', why: 'scheduler: the row is due and its profile may send', writes: ['attempts', 'nextAttemptAt', ...SENT] },
  { from: 'waiting_retry', to: 'uploading', why: 'scheduler: the retry is due', writes: ['attempts', 'nextAttemptAt', ...SENT] },
  { from: 'uploading', to: 'processing', why: "the API accepted the file as a job (async): its JSON envelope named the job", writes: ['jobReference', 'acceptedAt', 'polls', 'nextAttemptAt', ...ERROR] },
  { from: 'uploading', to: 'completed', why: "the API created the record at once (direct), or its own answer (its envelope with data) named no job to follow: sent, completion not reported", writes: RECORD },
  { from: 'uploading', to: 'waiting_retry', why: "no answer of the API: offline, unreachable, a timeout, a web page, an empty or foreign body, a redirect, a 404 or a 5xx page without the API's JSON (a 5xx page: after its Retry-After, a light probe first), a proxy's refusal or an untrusted certificate (no attempt used); or the API's 429 or 5xx (an attempt used); or a restart or stop while sending; or its file could not be opened for a reason that passes (too many open files, a read error: an attempt used). Same Idempotency-Key", writes: ['attempts', 'nextAttemptAt', ...ERROR] },
  { from: 'uploading', to: 'failed', why: "a definite refusal in the API's own JSON envelope (400, 401, 403, 404), a 413 page (too large for the server, with the size), or too many attempts (only the API's answers count)", writes: ['nextAttemptAt', ...ERROR] },
  { from: 'uploading', to: 'skipped', why: 'the file vanished, became unreadable (or could not be opened in all its attempts) or too large before it was sent', writes: ['reason', 'nextAttemptAt', ...ERROR] },
  { from: 'uploading', to: 'superseded', why: 'the file changed on disk before it was sent (size, mtime or sha256 of the bytes streamed); its new version is taken as a new row', writes: ['nextAttemptAt', ...ERROR] },
  { from: 'processing', to: 'completed', why: "the API's job answer named its record, or the API itself said the job cannot be followed (sent, completion not reported)", writes: RECORD },
  { from: 'processing', to: 'failed', why: "the API said the job failed, or it had not finished when the API was asked after the job deadline", writes: ['nextAttemptAt', ...ERROR] },
  { from: 'queued', to: 'cancelled', why: 'a person cancelled it', writes: ['nextAttemptAt', 'lastError'] },
  { from: 'waiting_retry', to: 'cancelled', why: 'a person cancelled it', writes: ['nextAttemptAt', 'lastError'] },
  { from: 'uploading', to: 'cancelled', why: 'a person cancelled it while it was being sent', writes: ['nextAttemptAt', 'lastError'] },
  { from: 'processing', to: 'cancelled', why: 'a person stopped following its job', writes: ['nextAttemptAt', 'lastError'] },
  { from: 'duplicate', to: 'cancelled', why: 'a person dismissed the duplicate', writes: ['nextAttemptAt', 'lastError'] },
  { from: 'failed', to: 'queued', why: 'a person retried it (a fresh Idempotency-Key only after a definite refusal)', writes: RESEND },
  { from: 'cancelled', to: 'queued', why: 'a person retried it', writes: RESEND },
  { from: 'cancelled', to: 'processing', why: 'a person retried it and its job is still on the server: follow it again', writes: RESEND },
  { from: 'duplicate', to: 'queued', why: 'a person chose "Send anyway"; or its original ended without being sent (skipped, refused, superseded), so it goes in its place, at once or at the next start', writes: ['forced', 'nextAttemptAt', 'note', ...ERROR] },
  { from: 'held', to: 'queued', why: 'a person chose "Send anyway" (it is never held again for that match); or the receipt it waited for ended without being sent (failed, cancelled, skipped, superseded), so it goes on its own (no longer called a possible duplicate)', writes: ['forced', 'nextAttemptAt', 'note', 'nearOf', 'nearBasis', ...ERROR] },
  { from: 'held', to: 'discarded', why: 'a person chose "Discard": never sent', writes: ['nextAttemptAt', 'lastError'] },
  { from: 'skipped', to: 'held', why: 're-take: the file can be sent now, but its text or picture matches a receipt already sent (issue 33)', writes: RETAKE },
  { from: 'skipped', to: 'queued', why: 're-take: the cause went away (readable again, smaller, no longer empty), its file vanished and is found renamed, or a person chose "Send anyway"', writes: RETAKE },
  { from: 'skipped', to: 'duplicate', why: 're-take: the file can be sent now, but its content was already sent', writes: RETAKE },
  { from: 'failed', to: 'waiting_retry', why: "update (once, issue 22): it had failed on an answer that was not the API's (a web page, an empty body, a redirect, an error page, network errors until the attempts ran out); sent again with the same Idempotency-Key", writes: RESEND },
  { from: 'completed', to: 'waiting_retry', why: "update (once, issue 22): it was \"done\" on an answer that was not the API's (a success without data); sent again with the same Idempotency-Key, from where its file is now", writes: [...RESEND, ...RECORD, 'movedTo', 'path', 'afterUpload'] },
  { from: 'completed', to: 'processing', why: "update (once, issue 22): its job had been given up on an answer that was not the API's (a redirect, a 404 page, answers without a status); followed again", writes: [...RESEND, ...RECORD, 'movedTo', 'path', 'afterUpload'] },
]

/**
 * Fields that may change while a row keeps its status (no transition): a waiting file renamed or
 * moved (the row follows it), following a job, the file moved after its record exists, a skipped file looked at again and still not sendable, the
 * scheduler's clock corrected. UploadStore.note() checks against this.
 */
export const NOTES: Readonly<Record<UploadStatus, readonly UploadField[]>> = {
  // A file renamed or moved while it waits: its row follows it (FOLLOW), and is sent once.
  queued: ['nextAttemptAt', ...FOLLOW],
  waiting_retry: ['nextAttemptAt', ...FOLLOW],
  uploading: [],
  processing: ['polls', 'nextAttemptAt', 'acceptedAt', 'lastError'],
  completed: ['movedTo', 'lastError'],
  failed: [],
  // A duplicate of an original that ended unsent waits on the copy sent in its place.
  duplicate: ['duplicateOf'],
  skipped: ['size', 'mtimeMs', 'reason', 'lastError'],
  cancelled: [],
  superseded: [],
  // A held row waits on a receipt still on its way; that one's row may be replaced (superseded) by its new version.
  held: ['nearOf'],
  discarded: [],
}

const KEY = (from: FromStatus, to: UploadStatus) => `${from}>${to}`
const BY_PAIR = new Map(TRANSITIONS.map((t) => [KEY(t.from, t.to), t]))

/** The transition from → to, or undefined when the table does not allow it. */
export function transitionOf(from: FromStatus, to: UploadStatus): Transition | undefined {
  return BY_PAIR.get(KEY(from, to))
}

/** A move the table does not allow, or a field it may not write: a programming error, never a person's. */
export class TransitionError extends Error {
  override readonly name = 'TransitionError'
}

/**
 * Checks a move and its patch against the table; throws TransitionError when the pair is not listed
 * or the patch writes a field the move may not write.
 */
export function checkTransition(from: FromStatus, to: UploadStatus, fields: readonly string[]): Transition {
  const t = transitionOf(from, to)
  if (!t) throw new TransitionError(`an upload cannot go from ${from} to ${to}`)
  const extra = fields.filter((f) => !(t.writes as readonly string[]).includes(f))
  if (extra.length) throw new TransitionError(`${from} → ${to} may not write ${extra.join(', ')}`)
  return t
}

/** Checks a change of fields without a change of status against NOTES. */
export function checkNote(status: UploadStatus, fields: readonly string[]): void {
  const allowed = NOTES[status] as readonly string[]
  const extra = fields.filter((f) => !allowed.includes(f))
  if (extra.length) throw new TransitionError(`a ${status} upload may not change ${extra.join(', ')}`)
}

/** docs/engine.md's "life of a receipt" table, generated from TRANSITIONS. */
export function lifecycleMarkdown(): string {
  const lines = ['| from | to | when |', '| --- | --- | --- |']
  for (const t of TRANSITIONS) lines.push(`| ${t.from} | ${t.to} | ${t.why} |`)
  return lines.join('\n')
}
