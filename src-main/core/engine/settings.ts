/**
 * What the engine keeps in the settings table: the app's settings (one key; the queue's part is
 * applied live), the connection settings, and which one-time upgrades a data folder has had.
 */
import type { EngineEmitter } from '../events'
import type { SettingsStore } from '../folders'
import type { UploadQueue } from '../queue/queue'
import { type QueueSettings, SETTINGS_KEY } from '../queue/saved-options'
import type { UploadStore } from '../store/uploads'

type QueueSetters = Pick<
  UploadQueue,
  'setConcurrency' | 'setMaxFileBytes' | 'setPollInterval' | 'setJobTimeout'
>

export class EngineSettings {
  constructor(
    private readonly store: SettingsStore,
    private readonly queue: QueueSetters,
  ) {}

  /** The app's saved settings record, or {} (the settings room checks it against the contract). */
  saved(): Record<string, unknown> {
    return this.store.get<Record<string, unknown>>(SETTINGS_KEY, {})
  }

  /** Saves the app's settings under the one key and applies the queue's part now. */
  save(next: QueueSettings & Record<string, unknown>): void {
    this.store.set(SETTINGS_KEY, next)
    this.applyToQueue(next)
  }

  /** The saved connection settings (proxy, extra certificates), or {}: the connection room checks them. */
  connection(): Record<string, unknown> {
    return this.store.get<Record<string, unknown>>('connection', {})
  }

  saveConnection(next: Record<string, unknown>): void {
    this.store.set('connection', next)
  }

  /** Applies the queue's part of the settings (each field given), without saving it. */
  applyToQueue(s: Partial<QueueSettings>): void {
    if (s.concurrency !== undefined) this.queue.setConcurrency(s.concurrency)
    if (s.maxFileBytes !== undefined) this.queue.setMaxFileBytes(s.maxFileBytes)
    if (s.pollIntervalMs !== undefined) this.queue.setPollInterval(s.pollIntervalMs)
    if (s.jobTimeoutMs !== undefined) this.queue.setJobTimeout(s.jobTimeoutMs)
  }

  /**
   * Once per data folder (issue 22): rows earlier versions ended on an answer that was not the
   * API's, within the last day (issue 31), are sent or followed again (UploadStore.resumeEndedWithoutTheApi).
   */
  resumeEndedWithoutTheApi(uploads: UploadStore, events: EngineEmitter): void {
    const DONE = 'resumed_not_api_endings'
    if (this.store.get<boolean>(DONE, false)) return
    const n = uploads.resumeEndedWithoutTheApi()
    this.store.set(DONE, true)
    if (n > 0) {
      events.emit('notice', {
        level: 'info',
        message: `${n} file(s) that had ended in the last day on an answer that was not the API's are sent or followed again (each one's history says so). Older ones are left as they were: retry them from the history if they still need sending.`,
      })
    }
  }
}
