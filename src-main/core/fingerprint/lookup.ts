/**
 * From a fingerprint match to a PossibleDuplicate (contract/possible-duplicate.ts): only matches
 * whose row was sent or is on its way count; sent ones first, oldest first.
 */
import type { PossibleDuplicate } from '../../../contract/possible-duplicate'
import type { Upload, UploadStore } from '../store/uploads'
import type { Fingerprint, FingerprintIndex } from './index'

/** The possible duplicate a new fingerprint looks like, or null (see NearLookup). */
export function nearOf(
  _uploads: Pick<UploadStore, 'get'>,
  _index: FingerprintIndex,
  _q: { profileId: string; target: string; fp: Fingerprint; exclude?: number },
): PossibleDuplicate | null {
  return null
}

/** The possible duplicate a stored row looks like (by its stored fingerprint), or null. */
export function lookupNear(uploads: Pick<UploadStore, 'get'>, index: FingerprintIndex, row: Upload): PossibleDuplicate | null {
  const fp = index.of(row.id)
  return fp ? nearOf(uploads, index, { profileId: row.profileId, target: row.target, fp, exclude: row.id }) : null
}
