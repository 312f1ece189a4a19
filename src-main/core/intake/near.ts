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
import { fileKind } from '../../../schemas/routes'
import { type PossibleDuplicate, possibleDuplicateText } from '../../../contract/possible-duplicate'
import type { DocumentKind, Fingerprint, FingerprintResult, NearLookup } from '../fingerprint'
import type { Upload } from '../store/uploads'

/** What a profile does with a possible duplicate: hold it for a person, or send it with a note. */
export type DuplicateMode = 'hold' | 'send'
export const DUPLICATE_MODES: readonly DuplicateMode[] = ['hold', 'send']
export const DEFAULT_DUPLICATE_MODE: DuplicateMode = 'hold'

/** What intake needs to hold near matches (the engine builds it: engine/held.ts). */
export interface NearHolding {
  /** The file's fingerprint, or null (none can be had: it is then never a near match). */
  fingerprint(path: string, kind: DocumentKind, bytes: Uint8Array | null): Promise<FingerprintResult>
  lookup: NearLookup
  remember(profileId: string, target: string, uploadId: number, fp: Fingerprint): void
  /** The profile's setting (hold by default). */
  mode(profileId: string): DuplicateMode
}

const PDF_KINDS: ReadonlySet<string> = new Set(['pdf'])
const IMAGE_KINDS: ReadonlySet<string> = new Set(['jpg', 'jpeg', 'png', 'webp', 'heic', 'heif', 'tif', 'tiff', 'avif'])

/** Which document a file is for fingerprinting (a prepared photo is a JPEG), or null: none is taken. */
export function documentKind(name: string, prepared: boolean): DocumentKind | null {
  if (prepared) return 'image'
  const kind = fileKind(name)
  if (PDF_KINDS.has(kind)) return 'pdf'
  if (IMAGE_KINDS.has(kind)) return 'image'
  return null
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
 * Fingerprints a file that intake is about to record, or null: no holding configured, a person's
 * override, a kind without a fingerprint, or a document that gave none (never an error for intake).
 */
export async function fingerprintFor(
  near: NearHolding | undefined,
  o: { override?: boolean; name: string; path: string; preparedPath: string | null; bytes: Uint8Array | null },
): Promise<Fingerprint | null> {
  if (!near || o.override) return null
  const kind = documentKind(o.name, o.preparedPath != null)
  if (!kind) return null
  try {
    const r = await near.fingerprint(o.preparedPath ?? o.path, kind, o.preparedPath ? null : o.bytes)
    return r.fingerprint
  } catch {
    // The fingerprinter was closed (Bookdrop is stopping): the file goes on as without one.
    return null
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
