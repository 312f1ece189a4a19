/**
 * The settings room: the app's settings (theme, notifications, the queue's limits…), saved under
 * one key in the engine's database and checked against the contract's schema on every read.
 */
import { type Calls, type ParsedReq, type Settings, settingsSchema } from '../../../contract'
import { DEFAULT_KEEP_COPIES_DAYS } from '../engine/retention'
import { PHOTO_DEFAULTS } from '../prepare/preparer'
import { DEFAULT_QUEUE_OPTIONS } from '../queue/queue'
import type { AppContext } from './context'
import type { Room } from './room'

export const DEFAULT_SETTINGS: Settings = {
  concurrency: DEFAULT_QUEUE_OPTIONS.concurrency,
  pollIntervalMs: DEFAULT_QUEUE_OPTIONS.poll.firstMs,
  maxFileBytes: DEFAULT_QUEUE_OPTIONS.maxFileBytes,
  jobTimeoutMs: DEFAULT_QUEUE_OPTIONS.jobTimeoutMs,
  notifications: true,
  closeToTray: true,
  launchAtLogin: false,
  theme: 'system',
  language: 'system',
  ...PHOTO_DEFAULTS,
  phoneListen: '',
  keepCopiesDays: DEFAULT_KEEP_COPIES_DAYS,
}

/** The saved settings over the defaults; a damaged value falls back field by field. */
export function readSettings(ctx: AppContext): Settings {
  const merged = { ...DEFAULT_SETTINGS, ...ctx.engine.savedSettings() }
  const r = settingsSchema.safeParse(merged)
  if (r.success) return r.data
  const out = { ...DEFAULT_SETTINGS }
  for (const k of Object.keys(DEFAULT_SETTINGS) as (keyof Settings)[]) {
    const one = settingsSchema.shape[k].safeParse(merged[k])
    if (one.success) (out as Record<string, unknown>)[k] = one.data
  }
  return out
}

export type SettingsRoom = Room<'getSettings' | 'setSettings'>

export function settingsRoom(ctx: AppContext): SettingsRoom {
  return {
    async getSettings(): Promise<Calls['getSettings']> {
      return readSettings(ctx)
    },

    async setSettings(req: ParsedReq<'setSettings'>): Promise<Calls['setSettings']> {
      const next = settingsSchema.parse({ ...readSettings(ctx), ...req })
      ctx.engine.saveSettings(next)
      ctx.emit('settings', next)
      return next
    },
  }
}
