/**
 * Fingerprinting as intake does it (intake/intake.ts): of what will be sent (a photo's prepared
 * file, else the bytes read), by what the file is. Never throws and never fails a take: a file
 * without a fingerprint goes on as before (the sha256 rule still catches its exact bytes).
 */
import { readFile } from 'node:fs/promises'
import { fileKind } from '../../../schemas/routes'
import type { Fingerprinter } from './fingerprinter'
import type { DocumentKind, Fingerprint, FingerprintIndex } from './types'

/** What intake is given to fingerprint files and keep their fingerprints (Engine builds it). */
export interface IntakeFingerprints {
  fingerprinter: Pick<Fingerprinter, 'fingerprintBytes'>
  index: FingerprintIndex
  /** False: nothing is fingerprinted (EngineOptions.fingerprints; the bench compares both). */
  enabled: () => boolean
}

/** Kinds sharp reads as they are (HEIC only once prepared, as a JPEG). */
const PICTURE_KINDS: ReadonlySet<string> = new Set(['jpg', 'jpeg', 'png', 'webp', 'tif', 'tiff', 'avif'])

/** What a file is fingerprinted as, by its name; null: not fingerprinted (text, mail, …). */
export function documentKindOf(name: string, prepared: boolean): DocumentKind | null {
  if (prepared) return 'image'
  const kind = fileKind(name)
  if (kind === 'pdf') return 'pdf'
  return PICTURE_KINDS.has(kind) ? 'image' : null
}

/**
 * The fingerprint of a file intake took: `whole` its bytes when intake read it whole (receipt-sized),
 * `preparedPath` the photo's prepared file. Null when it has none, or fingerprints are off.
 */
export async function intakeFingerprint(
  f: IntakeFingerprints | undefined,
  name: string,
  whole: Uint8Array | null,
  preparedPath: string | null,
): Promise<Fingerprint | null> {
  if (!f || !f.enabled()) return null
  const kind = documentKindOf(name, preparedPath !== null)
  if (!kind) return null
  try {
    const bytes = preparedPath ? await readFile(preparedPath) : whole
    if (!bytes) return null
    return (await f.fingerprinter.fingerprintBytes(bytes, kind)).fingerprint
  } catch {
    // Stopping, or the prepared file went away: this file is simply not fingerprinted.
    return null
  }
}
