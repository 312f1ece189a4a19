/** The types of content fingerprints (issue 33); documented in ./index.ts, the module's door. */
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
  | {
      kind: 'text'
      /** sha256 hex of the normalised text */ hash: string
      /** its length, characters */ chars: number
    }
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

/** Limits of fingerprinting in the intake worker (a TaskPool's WorkerLimits plus what libvips may decode). */
export interface FingerprintLimits {
  timeoutMs: number
  maxHeapMb: number
  maxYoungMb?: number
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
export type NearLookup = (q: {
  profileId: string
  target: string
  fp: Fingerprint
  exclude?: number
}) => PossibleDuplicate | null

/**
 * Fingerprints a file (Fingerprinter.fingerprintFile; fingerprintBytes for bytes already read), in
 * the limited worker with the Fingerprinter's limits (FINGERPRINT_LIMITS by default). Never throws for a bad document: a document
 * that cannot be read, has no text and no page image, or passes a limit gives `{ fingerprint: null,
 * reason }`. Throws only when the fingerprinter was closed (Bookdrop is stopping).
 */
export type FingerprintFileFn = (path: string, kind: DocumentKind) => Promise<FingerprintResult>
