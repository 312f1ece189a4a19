/**
 * The engine's typed event stream: the desktop app, the web host, notifications and the headless
 * CLI all consume it. Payloads are plain data (no secrets, no class instances) so they can cross
 * the IPC bridge or go out as server-sent events unchanged.
 */
import { EventEmitter } from 'node:events'
import type { EngineEvents } from '../../contract/types'

export type { EngineEvents, FolderState, ProfileState } from '../../contract/types'

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
