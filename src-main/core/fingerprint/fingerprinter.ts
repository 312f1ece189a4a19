/**
 * The engine's side of fingerprinting: a TaskPool over the "fingerprint" worker (./worker.ts) with
 * FINGERPRINT_LIMITS. Every failure of the worker (a limit passed, a crash, a hang) is a null
 * fingerprint with a reason; the file goes on as it would without one (its exact bytes are still
 * caught by the sha256 rule). One worker: fingerprints of a scan of many files queue behind each
 * other, while the pool's time limit starts only when a worker takes a task.
 */
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { TaskPool, WorkerLimitError } from '../../../workers/pool'
import type { ComputeInput } from './compute'
import type { DocumentKind, FingerprintLimits, FingerprintResult } from './types'

const MB = 1024 * 1024

/**
 * A receipt's text or picture is fingerprinted in tens of ms (a 12-megapixel photo: the prepared
 * file, decoded small); a hostile file meets these. `maxPixels` as the images worker's (50 MP).
 */
export const FINGERPRINT_LIMITS: FingerprintLimits = {
  timeoutMs: 10_000,
  maxHeapMb: 192,
  maxInputBytes: 64 * MB,
  maxPixels: 50_000_000,
}

type FingerprintTasks = { fingerprint: (input: ComputeInput) => FingerprintResult }

let sharpPinned = false
/** sharp loaded once on the main thread too (its advice for worker threads; see prepare/preparer.ts). */
function pinSharp(): void {
  if (sharpPinned) return
  sharpPinned = true
  try {
    createRequire(import.meta.url)('sharp')
  } catch {
    // The worker reports the same failure, for the file, as a reason.
  }
}

export class Fingerprinter {
  private pool: TaskPool<FingerprintTasks> | null = null
  private closed = false

  constructor(readonly limits: FingerprintLimits = FINGERPRINT_LIMITS) {}

  private tasks(): TaskPool<FingerprintTasks> {
    if (this.closed) throw new Error('Bookdrop is stopping.')
    if (!this.pool) {
      pinSharp()
      this.pool = new TaskPool<FingerprintTasks>('fingerprint', { limits: this.limits, size: 1 })
    }
    return this.pool
  }

  /** Fingerprints bytes already read (intake reads a receipt once). Never throws for a bad document. */
  async fingerprintBytes(bytes: Uint8Array, kind: DocumentKind): Promise<FingerprintResult> {
    if (bytes.length > this.limits.maxInputBytes)
      return { fingerprint: null, reason: 'the file is over the size Bookdrop fingerprints' }
    const pool = this.tasks()
    try {
      return await pool.run('fingerprint', { bytes, kind, maxPixels: this.limits.maxPixels })
    } catch (e) {
      if (this.closed) throw new Error('Bookdrop is stopping.')
      const why =
        e instanceof WorkerLimitError
          ? e.message
          : `the fingerprint could not be computed (${(e as Error).message})`
      return { fingerprint: null, reason: why }
    }
  }

  /** Fingerprints a file by path (reads it, then fingerprintBytes). Never throws for a bad document. */
  async fingerprintFile(path: string, kind: DocumentKind): Promise<FingerprintResult> {
    let bytes: Uint8Array
    try {
      bytes = await readFile(path)
    } catch (e) {
      return {
        fingerprint: null,
        reason: `the file could not be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`,
      }
    }
    return this.fingerprintBytes(bytes, kind)
  }

  async close(): Promise<void> {
    this.closed = true
    await this.pool?.close()
    this.pool = null
  }
}
