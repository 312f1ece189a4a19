/**
 * The queue's part of the app's settings (concurrency, file size limit, poll interval, job
 * deadline): saved with the rest of the app's settings under one key, read when the engine opens.
 */
import type { SettingsStore } from '../folders'
import type { QueueOptions } from './queue'

/** The queue's part of the app's settings (Settings in the contract). */
export interface QueueSettings {
  concurrency: number
  maxFileBytes: number
  pollIntervalMs: number
  jobTimeoutMs: number
}

/** The one settings key: the app's settings, the queue's part included. */
export const SETTINGS_KEY = 'app'
/** Where earlier versions kept the queue's part: read when SETTINGS_KEY has none of it. */
const LEGACY_QUEUE_KEY = 'queue'

/** The queue options saved with the app's settings (or, from an earlier version, under 'queue'). */
export function savedQueueOptions(settings: SettingsStore): Partial<QueueOptions> {
  const app = settings.get<Record<string, unknown>>(SETTINGS_KEY, {})
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
  const fromApp = {
    concurrency: num(app.concurrency),
    maxFileBytes: num(app.maxFileBytes),
    jobTimeoutMs: num(app.jobTimeoutMs),
  }
  const hasApp = Object.values(fromApp).some((v) => v !== undefined)
  const picked = hasApp ? fromApp : settings.get<Partial<QueueOptions>>(LEGACY_QUEUE_KEY, {})
  return Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined))
}
