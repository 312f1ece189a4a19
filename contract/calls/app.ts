/** The calls of the app itself: its profiles, the session, the settings, the demo and the overview. */
import { z } from 'zod'
import type { AppInfo, Overview, ProfileList, ProfileView, SessionState } from '../views'
import { id, none } from './shared'
import { LANGUAGE_CHOICES } from '../i18n/languages'

const environment = z.enum(['production', 'sandbox', 'custom'])
const profileKind = z.enum(['business', 'partner', 'oauth'])

export const settingsSchema = z.object({
  concurrency: z.number().int().min(1).max(16),
  /** First wait before asking the server about a job, ms; later polls back off up to 30 s. */
  pollIntervalMs: z.number().int().min(500).max(30_000),
  /** Largest file sent, bytes. */
  maxFileBytes: z
    .number()
    .int()
    .min(1024)
    .max(200 * 1024 * 1024),
  /** Give up on a job the server has not finished after this long, ms (1 minute to 30 days). */
  jobTimeoutMs: z
    .number()
    .int()
    .min(60_000)
    .max(30 * 24 * 60 * 60_000),
  notifications: z.boolean(),
  closeToTray: z.boolean(),
  launchAtLogin: z.boolean(),
  theme: z.enum(['system', 'light', 'dark']),
  /** The interface's language: 'system' follows the OS's (or the browser's) preferred languages (issue 34). */
  language: z.enum(LANGUAGE_CHOICES),
  /** Prepare photos before sending them: HEIC to JPEG, oriented, scaled, location stripped (issue 25). */
  preparePhotos: z.boolean(),
  /** Longest edge of a prepared photo, px. */
  photoMaxEdge: z.number().int().min(800).max(8000),
  /** JPEG quality of a prepared photo. */
  photoQuality: z.number().int().min(40).max(95),
  /**
   * Days Bookdrop keeps its local copies of receipts (prepared photos, mail attachments, what phones
   * sent) once their upload has ended; 0 deletes them once the record exists (issue 31).
   */
  keepCopiesDays: z.number().int().min(0).max(3650),
  /**
   * The address phones reach this computer on ("Add from phone"): '' picks the first private-network
   * address; otherwise one of this computer's private addresses (or loopback, for tests).
   */
  phoneListen: z
    .string()
    .max(64)
    .regex(/^[0-9A-Fa-f.:]*$/, { error: 'give an IP address of this computer, or leave it empty' }),
})
export type Settings = z.infer<typeof settingsSchema>

export const APP_CALLS = {
  getAppInfo: none,
  listProfiles: none,
  addProfile: z.object({
    name: z.string(),
    environment,
    baseUrl: z.string().optional(),
    kind: profileKind,
    secret: z.string(),
    bearerToken: z.string().optional(),
  }),
  rotateProfileKey: z.object({ id, secret: z.string(), bearerToken: z.string().optional() }),
  renameProfile: z.object({ id, name: z.string() }),
  removeProfile: z.object({ id }),
  setActiveProfile: z.object({ id }),
  startDemo: none,
  getSession: none,
  getSettings: none,
  setSettings: settingsSchema.partial().strict(),
  /** The overview screen's figures for the active profile, for a local month (default: this one). */
  getOverview: z
    .object({
      month: z
        .string()
        .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: 'month must be written YYYY-MM, e.g. 2026-03' })
        .optional(),
    })
    .strict(),
} as const

export interface AppCalls {
  getAppInfo: AppInfo
  listProfiles: ProfileList
  addProfile: ProfileView
  rotateProfileKey: ProfileView
  renameProfile: ProfileView
  removeProfile: ProfileList
  setActiveProfile: ProfileList
  startDemo: ProfileList
  getSession: SessionState
  getSettings: Settings
  setSettings: Settings
  getOverview: Overview
}
