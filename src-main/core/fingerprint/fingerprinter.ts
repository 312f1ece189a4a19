/**
 * The engine's side of fingerprinting: the `fingerprint` task of the intake worker
 * (intake/intake-worker.ts) with FINGERPRINT_LIMITS, in the engine's intake pool (given: the engine
 * owns and closes it) or in a pool of its own. Every failure of the worker (a limit passed, a crash,
 * a hang) is a null fingerprint with a reason; the file goes on as it would without one (its exact
 * bytes are still caught by the sha256 rule). One worker: fingerprints of a scan of many files queue
 * behind each other, while the pool's time limit starts only when a worker takes a task.
 */
import { readFile } from 'node:fs/promises'
import { TaskPool, WorkerLimitError } from '../../../workers/pool'
import { pinSharp } from '../prepare/preparer'
import type { ComputeInput, NeedsPictures } from './compute'
import type { DocumentKind, FingerprintLimits, FingerprintResult } from './types'

const MB = 1024 * 1024
/** The largest document handed to the worker in shared memory (a prepared photo, a receipt PDF). */
const SHARED_MAX = 8 * MB

/**
 * A receipt's text or picture is fingerprinted in tens of ms (a 12-megapixel photo: the prepared
 * file, decoded small); a hostile file meets these. `maxPixels` as the images worker's (50 MP).
 */
export const FINGERPRINT_LIMITS: FingerprintLimits = {
  timeoutMs: 10_000,
  maxHeapMb: 192,
  // It reads every file a folder receives, for as long as the engine runs: with the default (24 MB)
  // the soak's RSS grew by ~20 MB more than without fingerprints.
  maxYoungMb: 4,
  maxInputBytes: 64 * MB,
  maxPixels: 50_000_000,
}

export type FingerprintTasks = { fingerprint: (input: ComputeInput) => FingerprintResult | NeedsPictures }

export class Fingerprinter {
  private pool: TaskPool<FingerprintTasks> | null = null
  private closed = false
  /** True once sharp is pinned on this thread: the worker may decode pictures. */
  private pictures = false
  /** Memory shared with the worker for the document it reads (see lease). */
  private shared: { buffer: SharedArrayBuffer; busy: boolean } | null = null

  constructor(
    readonly limits: FingerprintLimits = FINGERPRINT_LIMITS,
    /** The engine's intake pool (its limits are FINGERPRINT_LIMITS); its owner closes it. */
    private readonly enginePool?: TaskPool<FingerprintTasks>,
  ) {}

  private tasks(): TaskPool<FingerprintTasks> {
    if (this.closed) throw new Error('Bookdrop is stopping.')
    if (this.enginePool) return this.enginePool
    this.pool ??= new TaskPool<FingerprintTasks>('intake', { limits: this.limits, size: 1 })
    return this.pool
  }

  /** Fingerprints bytes already read (intake reads a receipt once). Never throws for a bad document. */
  async fingerprintBytes(bytes: Uint8Array, kind: DocumentKind): Promise<FingerprintResult> {
    if (bytes.length > this.limits.maxInputBytes)
      return { fingerprint: null, reason: 'the file is over the size Bookdrop fingerprints' }
    const pool = this.tasks()
    // sharp is pinned (see pinSharp) before the first task that may load it in the worker: a
    // picture, or a PDF whose text the worker could not find (pictures: false asks it to say so).
    if (kind === 'image') this.pinPictures()
    const lease = this.lease(bytes)
    try {
      const input = { bytes: lease?.view ?? bytes, kind, maxPixels: this.limits.maxPixels, pictures: this.pictures }
      const first = await pool.run('fingerprint', input)
      if (!('needsPictures' in first)) return first
      // A scan, met before any picture: sharp pinned now, and the task run again.
      this.pinPictures()
      const again = await pool.run('fingerprint', { ...input, pictures: true })
      return 'needsPictures' in again ? { fingerprint: null, reason: 'the page image was not read' } : again
    } catch (e) {
      if (this.closed) throw new Error('Bookdrop is stopping.')
      const why =
        e instanceof WorkerLimitError
          ? e.message
          : `the fingerprint could not be computed (${(e as Error).message})`
      return { fingerprint: null, reason: why }
    } finally {
      if (lease) this.shared!.busy = false
    }
  }

  /**
   * The bytes copied into the shared buffer, for the worker to read in place: a message copies a
   * Uint8Array into fresh memory on each side (about 0.3 ms and a page fault per 4 KB for a 200 KB
   * receipt, and memory the idle worker frees late). Null when it is busy (intake fingerprints a
   * few files at once: the others go by copy) or the file is over SHARED_MAX.
   */
  private lease(bytes: Uint8Array): { view: Uint8Array } | null {
    if (bytes.length > SHARED_MAX || this.shared?.busy) return null
    if (!this.shared || this.shared.buffer.byteLength < bytes.length) {
      let size = 256 * 1024
      while (size < bytes.length) size *= 2
      this.shared = { buffer: new SharedArrayBuffer(size), busy: false }
    }
    const view = new Uint8Array(this.shared.buffer, 0, bytes.length)
    view.set(bytes)
    this.shared.busy = true
    return { view }
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

  private pinPictures(): void {
    if (this.pictures) return
    pinSharp()
    this.pictures = true
  }

  async close(): Promise<void> {
    this.closed = true
    await this.pool?.close()
    this.pool = null
  }
}
