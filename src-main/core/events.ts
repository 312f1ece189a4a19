/**
 * The engine's typed event stream: the desktop app, the web host, notifications and the headless
 * CLI all consume it. Payloads are plain data (no secrets, no class instances) so they can cross
 * the IPC bridge or go out as server-sent events unchanged.
 */
import { EventEmitter } from 'node:events'
import type { Upload } from './store/uploads'

export type FolderState = 'starting' | 'watching' | 'polling' | 'error' | 'stopped' | 'disabled'

export type ProfileState =
  | 'active'
  | 'paused'
  | 'rate_limited'
  | 'auth_required'
  | 'forbidden'
  /** The server refused an AI create for lack of credits: held until a person resumes. */
  | 'out_of_credits'

export interface EngineEvents {
  /** A row was created or changed status. */
  upload: { upload: Upload; previous: Upload['status'] | null }
  /** Bytes of a file sent so far (one event per ~64 KiB at most). */
  progress: { id: number; sent: number; total: number }
  folder: { folderId: string; state: FolderState; message: string | null }
  rateLimit: {
    profileId: string
    limit: number | null
    remaining: number | null
    resetAt: number | null
    pausedUntil: number | null
  }
  profile: { profileId: string; state: ProfileState; message: string | null }
  /**
   * Storage failed (disk full, I/O error) and the queue paused as a whole, or (problem null) it
   * works again and uploads resume.
   */
  storage: { problem: string | null }
  /** Something went wrong outside a single file (a move failed, a folder could not be read). */
  notice: { level: 'info' | 'warning' | 'error'; message: string }
}

export type EngineEventName = keyof EngineEvents

/** A small typed wrapper over EventEmitter. */
export class TypedEmitter<E extends { [K in keyof E]: unknown }> {
  private readonly ee = new EventEmitter()

  constructor() {
    this.ee.setMaxListeners(100)
  }

  on<K extends keyof E & string>(name: K, fn: (payload: E[K]) => void): () => void {
    this.ee.on(name, fn)
    return () => this.ee.off(name, fn)
  }

  once<K extends keyof E & string>(name: K, fn: (payload: E[K]) => void): () => void {
    this.ee.once(name, fn)
    return () => this.ee.off(name, fn)
  }

  emit<K extends keyof E & string>(name: K, payload: E[K]): void {
    this.ee.emit(name, payload)
  }

  removeAll(): void {
    this.ee.removeAllListeners()
  }
}

export type EngineEmitter = TypedEmitter<EngineEvents>
