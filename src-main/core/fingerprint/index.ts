/**
 * Content fingerprints (issue 33): what a receipt SHOWS, not only its bytes, so that the same
 * receipt arriving twice (a re-downloaded invoice, a re-compressed or scaled photo) is known before
 * it costs a credit. This module is the interface; the holding flow (status 'held', Send anyway /
 * Discard, headless, mail, settings, UI: branch i33-hold) codes against it and decides what to do.
 *
 * The three kinds, and the basis each gives (contract/possible-duplicate.ts):
 * - 'text'    → same_text:    a PDF with a text layer; sha256 of its normalised text (normalise.ts:
 *                             NFKC, lower case, whitespace collapsed). Metadata (/CreationDate,
 *                             /ModDate, /ID, producer) is not text: a re-download matches.
 * - 'picture' → same_picture: a photo as prepared (prepare/preparer.ts), or the embedded page image
 *                             of a scanned PDF; a perceptual hash compared by distance, globally AND
 *                             region by region (picture.ts), so receipts of one shop that differ in a
 *                             few digits of the total are not a match.
 * - 'bytes'   → same_bytes:   the file's sha256 (the existing exact-duplicate rule). Never produced by
 *                             fingerprintFile (the uploads table already indexes sha256); it exists so
 *                             `lookupNear` speaks one type for all three bases.
 *
 * Computation runs in the limited "fingerprint" worker (workers/entries.json; limits in
 * FINGERPRINT_LIMITS): a bad, hostile, hanging or crashing document gives `null` with a reason,
 * never an error to intake, a lost file or a blocked queue. A file without a fingerprint is simply
 * never a near-duplicate (its exact bytes are still caught by sha256).
 *
 * Agreement with the holding flow (i33-hold):
 * - Intake computes the fingerprint after it hashed the file (photos: of the prepared file) and,
 *   inside the transaction that records the row, calls `FingerprintIndex.remember()` for a row
 *   recorded 'queued' (and for a row the holding flow records 'held'). Before that, in the same
 *   transaction, it calls the `nearOf()` hook (see `NearLookup`) with the new fingerprint: the
 *   holding flow decides there whether the row is held instead of queued.
 * - `lookupNear(row)` answers the same question later for a stored row (e.g. when the original
 *   "still on its way" ends: held if it was sent, sent on its own if it failed or was cancelled).
 * - Matches are per profile AND target (the sha256 rule's scope). A match's upload row may be in any
 *   status; `lookupNear` returns only rows that were sent (processing, completed: `sentAt` set) or
 *   are on their way (queued, uploading, waiting_retry, held: `sentAt` null), sent ones first,
 *   oldest first. Rows that failed, were cancelled, skipped or superseded never count.
 * - `forget(uploadId)` when a row is discarded (the person said "Discard": it is not a receipt that
 *   was booked) or deleted from the history.
 */
import type { PossibleDuplicate } from '../../../contract/possible-duplicate'

export type FingerprintKind = 'text' | 'picture' | 'bytes'

/** A picture's perceptual hash: one global hash plus one per region of a fixed grid. */
export interface PictureHash {
  /** 64-bit DCT hash of the whole (normalised) picture, 16 hex digits. Banded for the index. */
  global: string
  /** Region hashes, row-major over a `cols` × `rows` grid, each a hex string (same length). */
  regions: string[]
  cols: number
  rows: number
  /** Width / height of the picture's content box (a portrait receipt is < 1). */
  aspect: number
}

export type Fingerprint =
  | { kind: 'text'; /** sha256 hex of the normalised text */ hash: string; /** its length, characters */ chars: number }
  | ({ kind: 'picture' } & PictureHash)
  | { kind: 'bytes'; /** the file's sha256 hex */ hash: string }

/** What fingerprintFile looks at: from the file's name and sniffed kind. */
export type DocumentKind = 'pdf' | 'image'

/** Why a document has no fingerprint (for logs and the row's note, never an error). */
export type NoFingerprint = {
  fingerprint: null
  /** Plain words: "the PDF has no text and no page image", "the worker's time limit passed", … */
  reason: string
}
export type FingerprintResult = { fingerprint: Fingerprint; reason?: undefined } | NoFingerprint

/** Limits of the fingerprint worker (a TaskPool's WorkerLimits plus what libvips may decode). */
export interface FingerprintLimits {
  timeoutMs: number
  maxHeapMb: number
  maxInputBytes: number
  /** Pixels at most in a picture decoded (header checked before decoding). */
  maxPixels: number
}

/** A stored fingerprint's match: which upload it was, and why. */
export interface NearMatch {
  uploadId: number
  basis: 'same_text' | 'same_picture' | 'same_bytes'
}

/**
 * The history database's index of fingerprints (its own table `fingerprints` and `fingerprint_bands`,
 * made on first use, per profile and target). A lookup never scans: text by an index on its hash,
 * pictures by bands of the global hash (candidates that share a band, then verified by distance and
 * region by region). p99 under 5 ms among 100,000 (npm run bench -- --only fingerprint).
 */
export interface FingerprintIndex {
  /** Keeps `fp` for an upload row (replaces what that row had). Call it inside intake's transaction. */
  remember(profileId: string, target: string, uploadId: number, fp: Fingerprint): void
  /** The oldest stored upload whose fingerprint matches `fp`, other than `exclude`; null: none. */
  findNear(profileId: string, target: string, fp: Fingerprint, exclude?: number): NearMatch | null
  /** Every stored upload that matches, oldest first (the holding flow filters them by status). */
  findAllNear(profileId: string, target: string, fp: Fingerprint, exclude?: number): NearMatch[]
  /** The fingerprint stored for an upload, if any. */
  of(uploadId: number): Fingerprint | null
  /** Drops an upload's fingerprint (discarded, deleted from the history). */
  forget(uploadId: number): void
}

/**
 * What intake asks the holding flow while it records a row (inside the transaction): the
 * possible duplicate this new file looks like, or null. The holding flow passes one to the Intake.
 */
export type NearLookup = (q: { profileId: string; target: string; fp: Fingerprint; exclude?: number }) => PossibleDuplicate | null

/**
 * Fingerprints a file (runs in the limited worker). Never throws for a bad document: a document
 * that cannot be read, has no text and no page image, or passes a limit gives `{ fingerprint: null,
 * reason }`. Throws only when the fingerprinter was closed (Bookdrop is stopping).
 */
export type FingerprintFileFn = (path: string, kind: DocumentKind, limits?: Partial<FingerprintLimits>) => Promise<FingerprintResult>

export { FINGERPRINT_LIMITS, Fingerprinter } from './fingerprinter'
export { SqlFingerprintIndex } from './store'
export { lookupNear, nearOf } from './lookup'
