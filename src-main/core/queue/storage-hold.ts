/**
 * The queue held by storage: a write failed for lack of space or an I/O error, so nothing new
 * starts until a probe write succeeds again (with backoff); then rows left 'uploading' by the
 * failed write are sent again and the queue goes on.
 */
import type { EngineEmitter } from '../events'
import type { UploadStore } from '../store/uploads'
import { isStorageError, storageMessage } from '../store/storage-errors'
import { storageGuarded } from '../store/storage-guard'
import { type QueueHooks, STORAGE_PROBE_FIRST_MS, STORAGE_PROBE_MAX_MS } from './types'

/** What the hold needs of the queue. */
export interface StorageHoldDeps {
  store: UploadStore
  events: EngineEmitter
  hooks: QueueHooks
  now(): number
  running(): boolean
  /** Rows with a request in flight in this process (left alone by the recovery). */
  inFlightRows(): number[]
  /** The hold began: the pump's timer stops. */
  held(): void
  /** The hold ended: look for work. */
  kick(): void
}

export class StorageHold {
  private storage: { problem: string; probeMs: number; timer: NodeJS.Timeout | null } | null = null

  constructor(private readonly d: StorageHoldDeps) {}

  /** True while storage holds the queue. */
  get holding(): boolean {
    return this.storage !== null
  }

  /** The problem that holds the whole queue (disk full, I/O error), or null. */
  problem(): string | null {
    return this.storage?.problem ?? null
  }

  /** No probe runs after a stop. */
  stop(): void {
    if (this.storage?.timer) clearTimeout(this.storage.timer)
  }

  /**
   * A write failed for lack of space or an I/O error: nothing new starts (a row is never marked
   * sent unless that write succeeded: it stays 'uploading' and is sent again with the same
   * Idempotency-Key, so the server replays), and the queue tries storage again with backoff.
   */
  fault(e: unknown): void {
    const problem = storageMessage(e)
    if (this.storage) {
      this.storage.problem = problem
      return
    }
    this.storage = { problem, probeMs: STORAGE_PROBE_FIRST_MS, timer: null }
    this.d.held()
    this.d.events.emit('storage', { problem })
    this.scheduleProbe()
  }

  /** Runs a write of the queue's; a storage fault pauses the queue instead of escaping. */
  guarded<T>(write: () => T): T | undefined {
    return storageGuarded({ storageFault: (e) => this.fault(e) }, write)
  }

  private scheduleProbe(): void {
    const s = this.storage
    if (!s || !this.d.running()) return
    s.timer = setTimeout(() => this.probeStorage(), s.probeMs)
    s.probeMs = Math.min(STORAGE_PROBE_MAX_MS, s.probeMs * 2)
  }

  private probeStorage(): void {
    const s = this.storage
    if (!s) return
    s.timer = null
    try {
      this.d.store.probeWrite()
      // Rows left 'uploading' by a failed write, with nothing in flight for them here: send again.
      this.d.store.recoverInterrupted(this.d.now(), { inFlight: this.d.inFlightRows(), polls: false })
    } catch (e) {
      if (!isStorageError(e)) this.d.events.emit('notice', { level: 'error', message: (e as Error).message })
      s.problem = storageMessage(e)
      this.scheduleProbe()
      return
    }
    this.storage = null
    this.d.events.emit('storage', { problem: null })
    this.d.events.emit('notice', { level: 'info', message: 'Storage works again: uploads resume.' })
    this.d.hooks.storageRecovered?.()
    this.d.kick()
  }
}
