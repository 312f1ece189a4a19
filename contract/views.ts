/**
 * What the calls answer: the shapes the renderer sees (profiles, the session, intake outcomes,
 * folders, lists of records, client health, the overview). Types only.
 */
import type { Coded } from './message'
import type { PageMetaRead, ReferredBusinessRow } from '../schemas'
import type {
  FolderConfig,
  FolderState,
  Grant,
  GrantMonth,
  Profile,
  ProfileState,
  UploadMonth,
  UploadStatus,
  UploadView,
} from './types'

export interface AppInfo {
  version: string
  /** 'electron' in the desktop app, 'web' through the web host. */
  host: 'electron' | 'web'
  platform: string
  /**
   * The OS's preferred languages, most preferred first (desktop: Electron's
   * app.getPreferredSystemLanguages()); empty through the web host, where the browser's
   * navigator.languages speak for the person (issue 34).
   */
  languages: string[]
  /** The embedded emulator is running (demo mode). */
  demo: boolean
  keychain: { backend: string; label: string; persistent: boolean; problem: string | null }
}

/** A profile as the renderer sees it: no secret, and whether it belongs to the demo emulator. */
export interface ProfileView extends Profile {
  /** True for the demo mode's profiles: their keys live in memory only and vanish on exit. */
  demo: boolean
}

export interface ProfileList {
  profiles: ProfileView[]
  activeId: string | null
}

export interface SessionState {
  profileId: string | null
  state: ProfileState
  message: string | null
  /**
   * `message` as a catalogue id with parameters (issue 34: offline, the server unreachable, a rate
   * limit, a refused key…), worded in the language in use (src-renderer/lib/coded.ts `codedOrText`).
   */
  messageCoded?: Coded | null
  /** Storage failed (disk full, I/O error): every upload waits until a write succeeds again. */
  storage: string | null
  rateLimit: {
    limit: number | null
    remaining: number | null
    resetAt: number | null
    pausedUntil: number | null
  } | null
  counts: Record<UploadStatus, number>
}

export type IntakeOutcome =
  | { kind: 'queued' | 'duplicate' | 'skipped' | 'held'; upload: UploadView }
  /** Nothing recorded: this exact version was already handled, or it changed while being read. */
  | { kind: 'ignored'; why: 'already_handled' | 'changed'; path: string }
  /**
   * A file sent as bytes that could not be saved to be sent (the disk is full…); the others of its
   * batch were. `path` is its name; `message` says why, without the data folder's path.
   */
  | { kind: 'ignored'; why: 'not_saved'; path: string; message: string }

export interface FolderView extends FolderConfig {
  state: FolderState
  message: string | null
  /** `message` as a catalogue id with parameters (issue 34): the renderer words it. */
  messageCoded?: Coded | null
}

export interface ListPage<T> {
  data: T[]
  /** `total` is null when the server sent none (2.1: meta is optional). */
  meta: PageMetaRead
}

/**
 * A record as lists show it. Only `uuid` is sure; every other field may be missing or null when the
 * server does not send it (fields not shown by the spec), and screens show "—" for it.
 */
export interface RecordRow {
  uuid: string
  source_uuid?: string | null
  date?: string | null
  narration?: string | null
  amount?: number | null
  total_amount?: number | null
  currency?: string | null
  status?: string | null
  contact?: string | null
  document_number?: string | null
  [key: string]: unknown
}

export interface ClientHealth {
  profileId: string
  profileName: string
  businessUuid: string | null
  folders: { path: string; state: FolderState; message: string | null }[]
  lastSuccessAt: number | null
  stuckJobs: number
  failed: number
  creditBalance: number | null
  error: string | null
}

/** The overview of a business profile: one local month of its uploads (main's SQLite). */
export interface BusinessOverview extends UploadMonth {
  kind: 'business'
  /** The month shown, YYYY-MM (local time). */
  month: string
  /** Files needing attention now (failed, skipped, duplicate), whenever they were added. */
  needsAttention: number
  /** AI credits one create costs (schemas/assumptions.ts). */
  creditsPerCreate: number
}

/** The overview of a partner profile: the grants this app made in one month, and its businesses. */
export interface PartnerOverview extends Omit<GrantMonth, 'grants'> {
  kind: 'partner'
  month: string
  grants: (Grant & { businessName: string | null })[]
  /** Referred businesses in all (null when the list could not be read). */
  businesses: number | null
  /** Referred businesses with no seat (null when the list could not be read). */
  withoutSeats: ReferredBusinessRow[] | null
  /** Why the businesses could not be listed, or null. */
  error: string | null
}

export type Overview = BusinessOverview | PartnerOverview
