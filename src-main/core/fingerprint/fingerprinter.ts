/**
 * The engine's side of fingerprinting: a TaskPool over the "fingerprint" worker (./worker.ts) with
 * FINGERPRINT_LIMITS. Every failure of the worker (a limit, a crash, a hang) is a null fingerprint
 * with a reason; the file goes on as it would without one.
 */
import type { DocumentKind, FingerprintLimits, FingerprintResult } from './index'

const MB = 1024 * 1024

/** A receipt's text or picture is fingerprinted in well under a second; a hostile file meets these. */
export const FINGERPRINT_LIMITS: FingerprintLimits = {
  timeoutMs: 10_000,
  maxHeapMb: 192,
  maxInputBytes: 64 * MB,
  maxPixels: 50_000_000,
}

export class Fingerprinter {
  constructor(readonly limits: FingerprintLimits = FINGERPRINT_LIMITS) {}

  /** Fingerprints bytes already read (intake reads a receipt once). Never throws for a bad document. */
  async fingerprintBytes(_bytes: Uint8Array, _kind: DocumentKind): Promise<FingerprintResult> {
    return { fingerprint: null, reason: 'not implemented yet' }
  }

  /** Fingerprints a file by path (reads it, then fingerprintBytes). */
  async fingerprintFile(_path: string, _kind: DocumentKind): Promise<FingerprintResult> {
    return { fingerprint: null, reason: 'not implemented yet' }
  }

  async close(): Promise<void> {}
}
