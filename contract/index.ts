/**
 * The one contract between the renderer and main (design.md §1).
 *
 * Every call is listed once in CALLS with the runtime schema of its request; its response type is
 * in `Calls`. Main registers IPC handlers by looping over CALLS and validates every payload; the
 * preload builds `window.bookdrop` from the same list; the web host serves the same list over HTTP.
 * The renderer imports only types from here; the name lists its HTTP bridge needs at run time are in
 * ./names.ts (no zod). This file imports only types from src-main (never Node code).
 *
 * A secret key crosses the bridge once, renderer → main, inside `addProfile` or `rotateProfileKey`,
 * and never comes back: no response type holds one. The business key a partner registration returns
 * stays in main (`registerBusiness` answers with its last 4 characters and a `registrationId`).
 */
import { z } from 'zod'
import type {
  AddCreditsRead,
  AddSeatsResult,
  AiTarget,
  BillingStatus,
  InvoiceRead,
  PageMetaRead,
  PurchaseOrderData,
  ReferredBusinessPage,
  ReferredBusinessRow,
  RegisteredBusiness,
} from '../schemas'
import {
  AI_TARGETS,
  addCreditsSchema,
  addSeatsSchema,
  recordPatchSchema,
  recordPutSchema,
  registerBusinessSchema,
} from '../schemas'
import {
  type ConnectionReport,
  type ConnectionSettings,
  type EngineEvents,
  type FolderConfig,
  type FolderState,
  type Grant,
  type GrantMonth,
  type MailAccountView,
  type Profile,
  type ProfileState,
  UPLOAD_SOURCES,
  UPLOAD_STATUSES,
  type UploadMonth,
  type UploadStatus,
  type UploadView,
} from './types'

export * from './types'
export * from './phone'
import type { PhoneState, PhoneTarget } from './phone'
import { CALL_NAMES, type CallName, EVENT_NAMES, type EventName } from './names'

export { CALL_NAMES, EVENT_NAMES, type CallName, type EventName }

// ---------------------------------------------------------------------------------------------
// Shared request pieces
// ---------------------------------------------------------------------------------------------

const none = z.object({}).strict()
const id = z.string().min(1).max(200)
const target = z.enum(AI_TARGETS as [AiTarget, ...AiTarget[]])

/**
 * The upload statuses, repeated here because the renderer bundles this file and must not pull in
 * src-main values (node:crypto). The check below fails to compile if the lists ever differ.
 */
/** Every upload status, in the order screens list them. */
export const UPLOAD_STATUS_VALUES = UPLOAD_STATUSES

/** Compile-time check: `Assert<false>` does not compile. */
type Assert<T extends true> = T
const page = z.object({
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(100).default(20),
  search: z.string().max(200).optional(),
  status: z.string().max(50).optional(),
  date_order: z.enum(['asc', 'desc']).optional(),
})

export const historyFilterSchema = z
  .object({
    statuses: z.array(z.enum(UPLOAD_STATUS_VALUES)).max(10).optional(),
    targets: z.array(target).max(10).optional(),
    sources: z.array(z.enum(UPLOAD_SOURCES)).max(10).optional(),
    profileId: z.string().max(200).optional(),
    folderId: z.string().max(200).optional(),
    search: z.string().max(200).optional(),
    from: z.number().optional(),
    to: z.number().optional(),
    order: z.enum(['asc', 'desc']).optional(),
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
  })
  .strict()
export type HistoryFilterInput = z.input<typeof historyFilterSchema>

const folderFields = z.object({
  profileId: z.string(),
  path: z.string(),
  target,
  promptTemplate: z.string().optional(),
  recursive: z.boolean().optional(),
  acceptedKinds: z.array(z.string()).optional(),
  usePolling: z.boolean().optional(),
  afterUpload: z.enum(['leave', 'move', 'archive']).optional(),
  archiveDir: z.string().nullable().optional(),
  takeExisting: z.boolean().optional(),
  enabled: z.boolean().optional(),
  processType: z.enum(['async', 'direct']).optional(),
})

/** A mail account as the Mail screen sends it (main checks each field again: src-main/core/mail/config.ts). */
const mailAccountFields = z
  .object({
    profileId: z.string().max(200),
    label: z.string().max(100).optional(),
    host: z.string().max(253),
    port: z.number().int().min(1).max(65535).optional(),
    security: z.enum(['tls', 'starttls', 'plain']).optional(),
    user: z.string().max(200),
    usePolling: z.boolean().optional(),
    pollSeconds: z.number().int().min(15).max(3600).optional(),
    enabled: z.boolean().optional(),
  })
  .strict()

const mailRuleFields = z
  .object({
    accountId: z.string().max(200),
    mailbox: z.string().max(200).optional(),
    fromContains: z.string().max(200).nullable().optional(),
    subjectContains: z.string().max(200).nullable().optional(),
    since: z.string().max(10).nullable().optional(),
    target,
    promptTemplate: z.string().max(4000).optional(),
    acceptedKinds: z.array(z.string().max(10)).max(40).optional(),
    after: z.enum(['leave', 'seen', 'move']).optional(),
    moveTo: z.string().max(200).optional(),
    sendBody: z.boolean().optional(),
    processType: z.enum(['async', 'direct']).optional(),
    enabled: z.boolean().optional(),
  })
  .strict()

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
  /** Prepare photos before sending them: HEIC to JPEG, oriented, scaled, location stripped (issue 25). */
  preparePhotos: z.boolean(),
  /** Longest edge of a prepared photo, px. */
  photoMaxEdge: z.number().int().min(800).max(8000),
  /** JPEG quality of a prepared photo. */
  photoQuality: z.number().int().min(40).max(95),
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

/** The calls that carry files as bytes; every other call's payload is at most MAX_CALL_BYTES. */
export const FILE_CALLS = ['addFileContents', 'uploadBankStatement'] as const satisfies readonly CallName[]
/** Largest payload of a call that carries no file: 1 MiB of JSON (IPC and HTTP alike). */
export const MAX_CALL_BYTES = 1024 * 1024

/** Base64 characters in one call (about 105 MB of files): bounds memory in main and the web host. */
export const MAX_FILE_CONTENTS_BASE64 = 140 * 1024 * 1024

/**
 * Files given as bytes (the web host, or a drop where the OS gives no path). At most about 27 MB
 * each and 105 MB per call; main writes them under <dataDir>/dropped/ with a sanitised name.
 */
const fileContents = z
  .array(
    z.object({
      name: z.string().min(1, { error: 'every file needs a name' }).max(255),
      base64: z
        .string()
        .max(36 * 1024 * 1024, {
          error: 'a file given as bytes can be at most about 27 MB: add it by path instead',
        })
        .regex(/^[A-Za-z0-9+/]*={0,2}$/, {
          error: 'base64 must be plain Base64 (no data: prefix, no line breaks)',
        }),
    }),
  )
  .min(1, { error: 'give at least one file' })
  .max(50, { error: 'at most 50 files at a time' })
  .refine((files) => files.reduce((n, f) => n + f.base64.length, 0) <= MAX_FILE_CONTENTS_BASE64, {
    error: 'these files are too large to send in one go (about 105 MB at most): send fewer at a time',
  })

// ---------------------------------------------------------------------------------------------
// Response types
// ---------------------------------------------------------------------------------------------

export interface AppInfo {
  version: string
  /** 'electron' in the desktop app, 'web' through the web host. */
  host: 'electron' | 'web'
  platform: string
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
  | { kind: 'queued' | 'duplicate' | 'skipped'; upload: UploadView }
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

// ---------------------------------------------------------------------------------------------
// The calls
// ---------------------------------------------------------------------------------------------

export const CALLS = {
  // app and profiles
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

  // uploads
  addFiles: z.object({
    paths: z.array(z.string().min(1)).min(1).max(1000),
    target,
    prompt: z.string().max(4000).optional(),
    processType: z.enum(['async', 'direct']).optional(),
  }),
  addFileContents: z.object({
    files: fileContents,
    target,
    prompt: z.string().max(4000).optional(),
    processType: z.enum(['async', 'direct']).optional(),
  }),
  history: historyFilterSchema,
  retryUpload: z.object({ id: z.number().int().positive() }),
  cancelUpload: z.object({ id: z.number().int().positive() }),
  retryFailed: none,
  /** Demo only: the sample receipts (sandbox/sample-receipts.ts) dropped as expenses. */
  addSampleReceipts: none,
  pauseUploads: none,
  resumeUploads: none,
  exportHistory: z.object({ filter: historyFilterSchema }),
  showSourceFile: z.object({ id: z.number().int().positive() }),

  // watched folders
  listFolders: none,
  addFolder: folderFields,
  updateFolder: z.object({ id, patch: folderFields.partial() }),
  removeFolder: z.object({ id }),
  pickDirectory: none,

  // records of the active business
  listPurchaseOrders: page,
  // Checked field by field with purchaseOrderSchema by main (and by the client before sending).
  createPurchaseOrder: z.object({ order: z.record(z.string(), z.unknown()) }),
  listInvoices: page,
  getInvoice: z.object({ id }),
  createInvoiceFromPrompt: z.object({
    prompt: z.string().min(1).max(4000),
    processType: z.enum(['async', 'direct']).optional(),
  }),
  listExpenses: page,
  listBills: page,
  updateExpense: z.object({ id, patch: recordPatchSchema }),
  updateBill: z.object({ id, patch: recordPatchSchema }),
  replaceBill: z.object({ id, body: recordPutSchema }),
  listBankTransactions: page,
  deleteBankTransaction: z.object({ id }),
  /** Goes through the upload queue like any file (history, retries, job following). */
  uploadBankStatement: z.object({
    files: fileContents,
    prompt: z
      .string({ error: 'the prompt is required for a bank statement upload' })
      .trim()
      .min(1, {
        error: 'the prompt is required for a bank statement upload: say which account and period it covers',
      })
      .max(4000),
  }),

  // partner console
  listReferredBusinesses: z.object({
    page: z.number().int().min(1).default(1),
    limit: z.number().int().min(1).max(100).default(20),
  }),
  getBillingStatus: z.object({ businessUuid: id }),
  registerBusiness: z.object({ input: registerBusinessSchema }),
  saveRegisteredBusiness: z.object({
    name: z.string(),
    businessUuid: id,
    /** The svc_sk_ key the registration returned; main keeps it until it is saved or discarded. */
    registrationId: id,
  }),
  /** Forgets a registration's secret key without saving it (it is forgotten after 15 minutes anyway). */
  discardRegistration: z.object({ registrationId: id }),
  addSeats: z.object({ businessUuid: id, grant: addSeatsSchema }),
  addCredits: z.object({ businessUuid: id, grant: addCreditsSchema }),
  getClientHealth: none,

  // the phone ("Add from phone", issue 25)
  getPhone: none,
  /** Starts the listener on the address of Settings (or the web host's --phone-listen) and makes a link. */
  openPhone: none,
  newPhoneLink: none,
  decidePhone: z.object({ id: z.string().min(1).max(64), allow: z.boolean() }).strict(),
  endPhone: z.object({ id: z.string().min(1).max(64) }).strict(),
  /** Closes the panel: every phone's session ends and the listener stops. */
  closePhone: none,
  // the connection (issue 22): proxy, extra trusted certificates, Test connection
  getConnection: none,
  setConnection: z
    .object({
      proxyMode: z.enum(['system', 'manual', 'none']),
      /** http(s)://host:port; required with proxyMode manual. */
      proxyUrl: z.string().trim().max(2000).nullable().optional(),
      /** Extra trusted certificates, PEM text (null: none). Checked by main. */
      caPem: z.string().max(1_000_000).nullable().optional(),
    })
    .strict(),
  /** The proxy's user name and password, kept in the keychain; an empty user name removes them. */
  setProxyCredentials: z.object({ username: z.string().max(256), password: z.string().max(1024) }).strict(),
  /** Tries the active profile's base URL once (GET /auth/validate) and says what it found. */
  testConnection: none,
  // mail accounts and rules (issue 24): the password goes to the OS keychain and never comes back
  listMail: none,
  saveMailAccount: z
    .object({
      id: id.optional(),
      account: mailAccountFields,
      /** Required for a new account; left out, a saved account keeps its password. */
      password: z.string().min(1).max(1000).optional(),
    })
    .strict(),
  removeMailAccount: z.object({ id }).strict(),
  saveMailRule: z.object({ id: id.optional(), rule: mailRuleFields }).strict(),
  removeMailRule: z.object({ id }).strict(),
  checkMail: z.object({ accountId: id }).strict(),
  /** Demo only: a new sample receipt arrives in the demo's inbox. */
  addDemoMail: none,
} as const

/** The phone's targets are targets of the API (contract/phone.ts cannot import schemas: the phone's page bundles it). */
type _PhoneTargetsAreTargets = Assert<PhoneTarget extends AiTarget ? true : false>

type _EveryCallNamed = Assert<
  [Exclude<keyof typeof CALLS, CallName>, Exclude<CallName, keyof typeof CALLS>] extends [never, never]
    ? true
    : false
>

export interface Calls {
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

  addFiles: IntakeOutcome[]
  addFileContents: IntakeOutcome[]
  history: { rows: UploadView[]; total: number }
  retryUpload: UploadView
  cancelUpload: UploadView
  retryFailed: { retried: number }
  addSampleReceipts: IntakeOutcome[]
  pauseUploads: SessionState
  resumeUploads: SessionState
  /** path is null when the person cancelled the save dialog (desktop); downloadUrl is set in the web host. */
  exportHistory: { path: string | null; rows: number; downloadUrl: string | null }
  showSourceFile: { shown: boolean; path: string }

  listFolders: FolderView[]
  addFolder: FolderView
  updateFolder: FolderView
  removeFolder: FolderView[]
  pickDirectory: { path: string | null }

  listPurchaseOrders: ListPage<RecordRow>
  createPurchaseOrder: PurchaseOrderData
  listInvoices: ListPage<RecordRow>
  getInvoice: InvoiceRead
  createInvoiceFromPrompt: { jobReference: string | null; recordUuid: string | null }
  listExpenses: ListPage<RecordRow>
  listBills: ListPage<RecordRow>
  updateExpense: RecordRow
  updateBill: RecordRow
  replaceBill: RecordRow
  listBankTransactions: ListPage<RecordRow>
  deleteBankTransaction: { message: string }
  uploadBankStatement: IntakeOutcome[]

  listReferredBusinesses: ReferredBusinessPage
  getBillingStatus: BillingStatus
  /** The secret key is held in main under `registrationId`; only its last 4 characters come back. */
  registerBusiness: Omit<RegisteredBusiness, 'api_secret_key'> & {
    registrationId: string | null
    secretKeyHint: string | null
  }
  /** The new business profile, and the list it is now part of (not made active: switch with setActiveProfile). */
  saveRegisteredBusiness: ProfileList & { profile: ProfileView }
  discardRegistration: { discarded: boolean }
  addSeats: AddSeatsResult
  addCredits: AddCreditsRead
  getClientHealth: ClientHealth[]

  getPhone: PhoneState
  openPhone: PhoneState
  newPhoneLink: PhoneState
  decidePhone: PhoneState
  endPhone: PhoneState
  closePhone: PhoneState
  getConnection: ConnectionSettings
  setConnection: ConnectionSettings
  setProxyCredentials: ConnectionSettings
  testConnection: ConnectionReport
  /** The active business profile's mail accounts, with their rules and state. */
  listMail: MailAccountView[]
  saveMailAccount: MailAccountView
  removeMailAccount: MailAccountView[]
  saveMailRule: MailAccountView
  removeMailRule: MailAccountView
  checkMail: MailAccountView
  addDemoMail: { uid: number }
}

export type Req<K extends CallName> = z.input<(typeof CALLS)[K]>
export type ParsedReq<K extends CallName> = z.output<(typeof CALLS)[K]>
export type Res<K extends CallName> = Calls[K]

export interface BridgeError {
  /** Machine code: the API's error_code, a client code, 'invalid_request', 'not_found', … */
  code: string
  message: string
  /** Field path → message, for forms. */
  fields?: Record<string, string>
  /** HTTP status when the API answered. */
  status?: number
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: BridgeError }

// ---------------------------------------------------------------------------------------------
// Events (main → renderer)
// ---------------------------------------------------------------------------------------------

export interface Events extends EngineEvents {
  /** The active profile's state changed (profile switched, paused, rate limited, counts). */
  session: SessionState
  profiles: ProfileList
  /** Settings changed (the shell applies closeToTray, launchAtLogin; the renderer the theme). */
  settings: Settings
  /** The phone panel changed: a link, a phone waiting for Allow, a phone paired or gone, refusals. */
  phone: PhoneState
}
type _EveryEventNamed = Assert<
  [Exclude<keyof Events, EventName>, Exclude<EventName, keyof Events>] extends [never, never] ? true : false
>

// ---------------------------------------------------------------------------------------------
// window.bookdrop
// ---------------------------------------------------------------------------------------------

export type BookdropApi = {
  readonly [K in CallName]: (req: Req<K>) => Promise<Result<Res<K>>>
} & {
  readonly version: string
  /**
   * Desktop app only: the real path of a File dropped or picked in the window (Electron's
   * webUtils.getPathForFile), or '' when it has none. The web host has no such function.
   */
  readonly pathForFile?: (file: File) => string
  on<E extends EventName>(name: E, listener: (payload: Events[E]) => void): () => void
}

/** IPC channel of a call, and the one channel events arrive on. */
export const callChannel = (name: CallName): string => `bookdrop:${name}`
export const EVENT_CHANNEL = 'bookdrop:event'
/**
 * Preload → main, one-way: the path of a file the person dropped or picked, as
 * webUtils.getPathForFile gave it (a File the page made itself has none). Main lets `addFiles`
 * read a path only if it came this way in the last few minutes (core/user-paths.ts).
 */
export const GRANT_FILE_CHANNEL = 'bookdrop:grant-file'
