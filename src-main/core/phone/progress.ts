/**
 * What became of a phone's photos after they arrived (issue 31): the listener remembers, per session,
 * the upload each of its photos made, and GET /photos answers their state now, in plain words. Only
 * that session's uploads, and of each only its state, the reason and the record's kind: never a
 * path, a key or another phone's photo.
 */
import type { PhonePhotoProgress } from '../../../contract/phone'
import type { UploadView } from '../../../contract/types'

/** A session's photos kept at most (the oldest are forgotten first). */
const MAX_PER_SESSION = 200

/** Upload ids by session and the phone's photo id. */
export class SentPhotos {
  private readonly bySession = new Map<string, Map<string, number>>()

  add(sessionId: string, photoId: string, upload: number): void {
    const m = this.bySession.get(sessionId) ?? new Map<string, number>()
    this.bySession.set(sessionId, m)
    m.set(photoId, upload)
    if (m.size > MAX_PER_SESSION) m.delete(m.keys().next().value!)
  }

  of(sessionId: string): [string, number][] {
    return [...(this.bySession.get(sessionId) ?? [])]
  }

  forget(sessionId: string): void {
    this.bySession.delete(sessionId)
  }
}

function sentence(reason: string | null, fallback: string): string {
  const r = (reason ?? '').trim().replace(/[.\s]+$/, '')
  return r ? r : fallback
}

/** One upload's state as the phone shows it. */
export function progressOf(id: string, row: UploadView): PhonePhotoProgress {
  const p = (state: PhonePhotoProgress['state'], message: string, final: boolean, record: string | null = null) => ({ id, state, message, record, final })
  switch (row.status) {
    case 'queued':
      return p('waiting', `In the computer’s queue (upload #${row.id}).`, false)
    case 'uploading':
      return p('sending', 'Being sent to the server…', false)
    case 'processing':
      return p('sending', 'Sent: the server is reading it…', false)
    case 'waiting_retry':
      return p('waiting', `Not sent yet: the computer tries again soon (${sentence(row.lastError, 'the server did not answer')}).`, false)
    case 'completed':
      return row.recordType
        ? p('done', `Done: the server made a record of it (${row.recordType.replace(/_/g, ' ')}).`, true, row.recordType)
        : p('done', 'Done: the server took it.', true)
    case 'duplicate':
      return p('duplicate', 'Already sent before: not sent again.', true)
    case 'skipped':
      return p('skipped', `Skipped: ${sentence(row.lastError, 'it was not sent')}.`, true)
    case 'failed':
      return p('failed', `Not sent: ${sentence(row.lastError, 'the server refused it')}. The computer shows it in its history.`, true)
    case 'cancelled':
      return p('cancelled', 'Cancelled on the computer: not sent.', true)
    case 'superseded':
      return p('cancelled', 'Replaced by a newer copy on the computer.', true)
    case 'held':
      return p('duplicate', 'Looks like a receipt already sent: held on the computer until someone chooses Send anyway or Discard.', true)
    case 'discarded':
      return p('cancelled', 'Discarded on the computer as a possible duplicate: not sent.', true)
  }
}
