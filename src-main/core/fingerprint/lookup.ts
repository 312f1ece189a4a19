/**
 * From fingerprint matches to a PossibleDuplicate (contract/possible-duplicate.ts), for the holding
 * flow (i33-hold). Only matches whose row was sent (processing, completed: the sha256 rule's
 * "sent") or is on its way (queued, uploading, waiting_retry, held) count: sent ones first, then
 * the oldest. A row that failed, was cancelled, skipped, superseded or discarded never does.
 */
import type { PossibleDuplicate } from '../../../contract/possible-duplicate'
import type { Upload, UploadStore } from '../store/uploads'
import type { Fingerprint, FingerprintIndex } from './types'

/** Statuses of a row whose receipt was sent (the server took it). */
export const SENT_STATUSES: readonly string[] = ['processing', 'completed']
/** Statuses of a row still on its way ('held' is the holding flow's: a held row waits for a person). */
export const ON_ITS_WAY_STATUSES: readonly string[] = ['queued', 'uploading', 'waiting_retry', 'held']

function possible(u: Upload, basis: PossibleDuplicate['basis'], sent: boolean): PossibleDuplicate {
  return {
    basis,
    uploadId: u.id,
    name: u.name,
    sentAt: sent ? (u.acceptedAt ?? u.completedAt ?? u.updatedAt) : null,
    recordUuid: u.recordUuid,
  }
}

/**
 * The possible duplicate a new fingerprint looks like, or null (the `NearLookup` of index.ts).
 * `exclude`: the row being recorded, when it has an id already.
 */
export function nearOf(
  uploads: Pick<UploadStore, 'get'>,
  index: FingerprintIndex,
  q: { profileId: string; target: string; fp: Fingerprint; exclude?: number },
): PossibleDuplicate | null {
  let waiting: PossibleDuplicate | null = null
  for (const m of index.findAllNear(q.profileId, q.target, q.fp, q.exclude)) {
    const u = uploads.get(m.uploadId)
    if (!u) continue
    if (SENT_STATUSES.includes(u.status)) return possible(u, m.basis, true)
    if (!waiting && ON_ITS_WAY_STATUSES.includes(u.status)) waiting = possible(u, m.basis, false)
  }
  return waiting
}

/** The possible duplicate a stored row looks like (by its stored fingerprint), or null. */
export function lookupNear(
  uploads: Pick<UploadStore, 'get'>,
  index: FingerprintIndex,
  row: Pick<Upload, 'id' | 'profileId' | 'target'>,
): PossibleDuplicate | null {
  const fp = index.of(row.id)
  return fp
    ? nearOf(uploads, index, { profileId: row.profileId, target: row.target, fp, exclude: row.id })
    : null
}
