/**
 * The holding flow's part of intake (issue 33): a file whose text or picture matches a receipt
 * already sent (or one still on its way) is held for a person instead of sent: "held" in the
 * lifecycle, with the row it looks like (`nearOf`) and why (`nearBasis`). The fingerprints
 * themselves are the fingerprint module's (core/fingerprint): this file only asks it and decides.
 *
 * - Profile setting "hold" (the default): the row is recorded 'held'; it never reaches the sender
 *   until a person chooses Send anyway (→ queued, never held again for that match) or Discard.
 * - Profile setting "send": the row is queued as usual and still carries the note.
 * - A match still on its way: the row is held and waits for it (engine/held.ts releases it when
 *   that one ends unsent).
 * - A person's own "Send anyway" (override) is never held.
 */
import { type PossibleDuplicate, possibleDuplicateText } from '../../../contract/possible-duplicate'
import type { Fingerprint, NearLookup } from '../fingerprint'
import type { Upload } from '../store/uploads'

/** What a profile does with a possible duplicate: hold it for a person, or send it with a note. */
export type DuplicateMode = 'hold' | 'send'
export const DUPLICATE_MODES: readonly DuplicateMode[] = ['hold', 'send']
export const DEFAULT_DUPLICATE_MODE: DuplicateMode = 'hold'

/** What intake needs to hold near matches (the engine builds it: engine/held.ts). */
export interface NearHolding {
  /** The receipt a new fingerprint looks like (sent first, then on its way), or null. */
  lookup: NearLookup
  /** The profile's setting (hold by default). */
  mode(profileId: string): DuplicateMode
}

/** The fields of a row held (or sent with a note) as a possible duplicate of `near`. */
export function nearFields(near: PossibleDuplicate): Pick<Upload, 'nearOf' | 'nearBasis' | 'lastError'> {
  const waits = near.sentAt == null
  return {
    nearOf: near.uploadId,
    nearBasis: near.basis,
    lastError: `${possibleDuplicateText(near)}${waits ? ', which is still on its way' : ''}.`,
  }
}

/**
 * Inside intake's transaction: the status and fields of a row about to be queued whose fingerprint
 * is `fp`. Held when it matches another receipt and its profile holds possible duplicates.
 */
export function nearDecision(
  near: NearHolding | undefined,
  req: { profileId: string; target: string },
  fp: Fingerprint | null,
): { status: 'queued' | 'held'; extra: Partial<Upload> } {
  if (!near || !fp) return { status: 'queued', extra: {} }
  const match = near.lookup({ profileId: req.profileId, target: req.target, fp })
  if (!match) return { status: 'queued', extra: {} }
  const fields = nearFields(match)
  if (near.mode(req.profileId) === 'send') return { status: 'queued', extra: { nearOf: fields.nearOf, nearBasis: fields.nearBasis } }
  return { status: 'held', extra: fields }
}
