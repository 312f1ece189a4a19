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
 * Computation runs in the limited intake worker (workers/entries.json "intake", which also does
 * intake's content check; limits in FINGERPRINT_LIMITS): a bad, hostile, hanging or crashing
 * document gives `null` with a reason, never an error to intake, a lost file or a blocked queue. A
 * file without a fingerprint is simply never a near-duplicate (its exact bytes are still caught by
 * sha256).
 *
 * Agreement with the holding flow (i33-hold):
 * - The engine holds `engine.fingerprints` (engine/fingerprints.ts, EngineFingerprints): `.index`
 *   (this FingerprintIndex over the history database), `.nearOf(q)` and `.lookupNear(row)`.
 * - Intake (intake/intake.ts `take`) computes the fingerprint after it hashed the file (photos: of
 *   the prepared file; fingerprint/intake.ts), and, inside the transaction that records the row,
 *   remembers it for every row recorded 'queued' or 'duplicate' (`kept(...)`). The spot where the
 *   holding flow decides is marked there ("Issue 33, the holding flow"): with `fp` in hand, call
 *   `nearOf({ profileId, target, fp })` (the `NearLookup` shape); a PossibleDuplicate back means
 *   "hold this row" (record it 'held' and remember `fp` for it too, so a later copy finds it).
 * - `lookupNear(row)` answers the same question later for a stored row (e.g. when the original
 *   "still on its way" ends: held if it was sent, sent on its own if it failed or was cancelled).
 * - Matches are per profile AND target (the sha256 rule's scope). `findAllNear` returns rows in any
 *   status; `nearOf`/`lookupNear` return only rows that were sent (processing, completed: `sentAt`
 *   set) or are on their way (queued, uploading, waiting_retry, held: `sentAt` null), sent ones
 *   first, then the oldest. Rows that failed, were cancelled, skipped or superseded never count.
 * - `forget(uploadId)` when a row is discarded (the person said "Discard": it was not booked) or
 *   deleted from the history.
 * - EngineOptions.fingerprints = false turns computing off (the bench's comparison); lookups then
 *   find nothing new.
 */
export type {
  DocumentKind,
  Fingerprint,
  FingerprintFileFn,
  FingerprintIndex,
  FingerprintKind,
  FingerprintLimits,
  FingerprintResult,
  NearLookup,
  NearMatch,
  NoFingerprint,
  PictureHash,
} from './types'
export { FINGERPRINT_LIMITS, Fingerprinter } from './fingerprinter'
export { SqlFingerprintIndex } from './store'
export { lookupNear, nearOf } from './lookup'
