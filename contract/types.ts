/**
 * The public shapes of the contract: what main hands the renderer (and the web host's page), defined
 * here and nowhere else. Main's own modules take these types from here; the database rows, the
 * engine's internals and the secret stores keep theirs (a row carries more than the view: see
 * `toUploadView`). Type-only, apart from the status and reason lists the renderer iterates.
 */
import type { AiTarget, Environment } from '../schemas'
import type { RecordSummary, ReviewEvent } from './review'
import type { DuplicateBasis, PossibleDuplicate } from './possible-duplicate'
import type { Coded } from './message'

// ---- uploads ------------------------------------------------------------------------------------

/** Every status of an upload (src-main/core/lifecycle.ts says which moves between them are allowed). */
export const UPLOAD_STATUSES = [
  'queued',
  'uploading',
  'waiting_retry',
  'processing',
  'completed',
  'failed',
  'duplicate',
  'skipped',
  'cancelled',
  'superseded',
  /** Issue 33: a possible duplicate (same text / same picture as a receipt already sent): waits for a person's Send anyway or Discard. */
  'held',
  /** Issue 33: a held possible duplicate a person discarded: never sent. */
  'discarded',
] as const
export type UploadStatus = (typeof UPLOAD_STATUSES)[number]

/** Statuses of a row still on its way to the server. */
export const ACTIVE_STATUSES: readonly UploadStatus[] = ['queued', 'uploading', 'waiting_retry', 'processing']

/** Every status past ACTIVE_STATUSES: nothing more happens to the row unless a person acts (or the file changes). */
export const TERMINAL_STATUSES: readonly UploadStatus[] = UPLOAD_STATUSES.filter((s) => !ACTIVE_STATUSES.includes(s))

export const SKIP_REASONS = [
  'unsupported_kind',
  'too_large',
  'empty',
  'unreadable',
  'vanished',
  'existed_before',
  'outside_folder',
  'mismatch',
  /** A photo that could not be prepared (damaged, too many pixels): not sent; "Send anyway" sends it as it is. */
  'not_prepared',
  /** A mail with no receipt in it (no accepted attachment, and its body not sent): left untouched. */
  'no_receipt',
] as const
export type SkipReason = (typeof SKIP_REASONS)[number]

/**
 * Where a row's file came from: a watched folder, a drop on the window (or the web page), the
 * command line, a mail rule, a phone. Listed so the history can filter by each.
 */
export const UPLOAD_SOURCES = ['watch', 'drop', 'cli', 'mail', 'phone'] as const
export type UploadSource = (typeof UPLOAD_SOURCES)[number]
export type AfterUpload = 'leave' | 'move' | 'archive'

/** One file's upload as screens show it (its history row). */
export interface UploadView {
  id: number
  profileId: string
  target: AiTarget
  source: UploadSource
  folderId: string | null
  path: string
  name: string
  size: number | null
  mtimeMs: number | null
  sha256: string | null
  prompt: string
  processType: 'async' | 'direct'
  status: UploadStatus
  reason: SkipReason | null
  attempts: number
  nextAttemptAt: number | null
  lastError: string | null
  /**
   * `lastError` as a catalogue id with parameters (issue 34): worded in the language in use
   * (src-renderer/lib/coded.ts `codedOrText`). Absent or null on rows stored before codes were:
   * their `lastError` text is what they say.
   */
  lastErrorCoded?: Coded | null
  errorCode: string | null
  httpStatus: number | null
  jobReference: string | null
  /** When the server accepted the file as a job (the job deadline counts from here). */
  acceptedAt: number | null
  polls: number
  recordUuid: string | null
  recordType: string | null
  duplicateOf: number | null
  forced: boolean
  afterUpload: AfterUpload
  archiveDir: string | null
  movedTo: string | null
  /**
   * Something a person should know about how the file was taken, e.g. sent although it looked
   * unfinished (its end marker missing) after it had not changed for a long time.
   */
  note: string | null
  createdAt: number
  updatedAt: number
  completedAt: number | null
  /**
   * A photo prepared before it was sent (HEIC → JPEG, oriented, scaled, location stripped): the
   * prepared file in the data folder, its size and mtime. What was hashed and sent is this file;
   * `path` and `size` stay the original's. Null when the file was sent as it is.
   */
  preparedPath: string | null
  preparedSize: number | null
  preparedMtimeMs: number | null
  /** Source `mail`: the mail's sender (display name and address) and subject; null otherwise. */
  mailFrom: string | null
  mailSubject: string | null
  /**
   * Its local copy in Bookdrop's data folder (a mail attachment, a phone's photo, a file added in
   * the browser) was deleted by the retention (issue 31): `path` names a file that is gone. Set by
   * the history; absent elsewhere.
   */
  localCopyRemoved?: boolean
  /**
   * What the upload became (issue 32): its first record's summary as read from the server, null
   * until it is read (or when the upload made no record). `recordCount` is how many records it made
   * (a bank statement makes several; 0 until read).
   */
  record: RecordSummary | null
  recordCount: number
  /**
   * Issue 33: the receipt this row looks like (same text or same picture), when it was held or sent
   * as a possible duplicate: `nearOf` its row, `nearBasis` why. Kept after "Send anyway" (the note stays).
   */
  nearOf: number | null
  nearBasis: DuplicateBasis | null
  /** That other receipt, named and dated for the row's sentence (set where views are made; absent: not looked up). */
  possibleDuplicate?: PossibleDuplicate | null
}

// ---- profiles -----------------------------------------------------------------------------------

export type ProfileKind = 'business' | 'partner' | 'oauth'
export type ProfileEnvironment = Environment

/**
 * What GET /auth/validate said about the business a key belongs to (not secret). Its response fields
 * are not shown by the spec: each is null when the server's answer did not carry it recognisably
 * (screens then fall back to the profile's own name).
 */
export interface BusinessInfo {
  uuid: string | null
  name: string | null
  currency: string | null
  country: string | null
}

export interface Profile {
  /** Random UUID; also the keychain account of the profile's key. */
  id: string
  name: string
  environment: ProfileEnvironment
  /** Only for the custom environment: https, or http on loopback; ends in the version prefix. */
  baseUrl?: string
  kind: ProfileKind
  /** ISO 8601. */
  createdAt: string
  /** When the key (or token) was last validated by the server: at add and at each rotation. */
  validatedAt: string
  /** Business and OAuth profiles: the business the key acts for. */
  business?: BusinessInfo
  /**
   * The business's currency as the person set it (ISO 4217), used where /auth/validate does not say
   * it (review flags, the month's money). Absent when not set.
   */
  currency?: string
}

// ---- folders ------------------------------------------------------------------------------------

export type FolderState = 'starting' | 'watching' | 'polling' | 'error' | 'stopped' | 'disabled'

export interface FolderConfig {
  id: string
  profileId: string
  path: string
  target: AiTarget
  promptTemplate: string
  recursive: boolean
  acceptedKinds: string[]
  usePolling: boolean
  afterUpload: AfterUpload
  archiveDir: string | null
  takeExisting: boolean
  enabled: boolean
  processType: 'async' | 'direct'
  /** When the folder was first added (files older than this are left alone unless takeExisting). */
  addedAt: number
}

// ---- mail accounts and rules ------------------------------------------------------------------

/** How an IMAP connection is protected: implicit TLS (993), STARTTLS (143), or none (loopback only). */
export type MailSecurity = 'tls' | 'starttls' | 'plain'
/** What happens to a mail once every receipt in it has its record. Never a delete. */
export type MailAfter = 'leave' | 'seen' | 'move'

export interface MailAccountConfig {
  id: string
  profileId: string
  /** A name for people ("Shop inbox"); defaults to user@host. */
  label: string
  /** `imap` for a real server; `demo` for the demo's inbox (in memory, no network). */
  kind: 'imap' | 'demo'
  host: string
  port: number
  security: MailSecurity
  user: string
  /** Poll every `pollSeconds` instead of IMAP IDLE (servers without IDLE use polling anyway). */
  usePolling: boolean
  pollSeconds: number
  enabled: boolean
  addedAt: number
}

export interface MailRuleConfig {
  id: string
  accountId: string
  /** Written with `/` between levels (translated to the server's separator), e.g. `INBOX` or `Receipts/2026`. */
  mailbox: string
  /** Case-insensitive substrings; all given must match (AND). `from` matches the address or the name. */
  fromContains: string | null
  subjectContains: string | null
  /** YYYY-MM-DD: only mails the server received on or after this day are read (IMAP SINCE). */
  since: string
  target: AiTarget
  /** The folder template fields, plus `{from}` and `{subject}`. */
  promptTemplate: string
  acceptedKinds: string[]
  after: MailAfter
  /** The mailbox `move` puts mails in (created if missing), `/`-separated. */
  moveTo: string
  /** A mail with no receipt attached: send its body's text (`text_attachment`) instead of skipping it. */
  sendBody: boolean
  processType: 'async' | 'direct'
  enabled: boolean
  addedAt: number
}

export type MailAccountState =
  | 'starting'
  | 'connecting'
  /** Connected, reading or waiting for new mail (IDLE or polling). */
  | 'connected'
  /** The server cannot be reached now (offline, refused, dropped): tried again with backoff. */
  | 'waiting'
  /** Something a person must fix (wrong password, certificate, unknown mailbox): tried again slowly. */
  | 'error'
  | 'disabled'

/** What went wrong with an account, for the screen's advice. */
export type MailProblem =
  | 'auth'
  | 'certificate'
  | 'unreachable'
  | 'mailbox'
  | 'no_password'
  | 'protocol'

export interface MailAccountStatus {
  state: MailAccountState
  /** What happened and what to do, in a sentence (never a password). */
  message: string | null
  /** The same sentence as a catalogue id with parameters, for the person's language (issue 34). */
  messageCoded?: Coded | null
  problem: MailProblem | null
  /** When the mailboxes were last read completely. */
  lastCheckAt: number | null
  /** IMAP IDLE in use (else polling). */
  idle: boolean
}

/** An account as the Mail screen shows it: its settings, state and rules; never its password. */
export interface MailAccountView extends MailAccountConfig {
  status: MailAccountStatus
  rules: MailRuleConfig[]
  /** The demo's inbox: in memory only, gone with the demo. */
  demo: boolean
}

// ---- the engine's events --------------------------------------------------------------------------

export type ProfileState =
  | 'active'
  | 'paused'
  | 'rate_limited'
  | 'auth_required'
  | 'forbidden'
  /** The server refused an AI create for lack of credits: held until a person resumes. */
  | 'out_of_credits'
  /**
   * No answer from the server (refused, DNS, reset, timeout), or a 5xx page instead of the API's
   * answer (the server or a gateway failing; the message names it): uploads, polls and calls wait and are
   * tried again by themselves; back to 'active' on the first answer that is the API's.
   */
  | 'unreachable'
  /**
   * Something answers that is not the API (a web page, a login portal, a proxy's error, a redirect,
   * a foreign JSON shape, a certificate this computer does not trust): waiting, as for unreachable.
   */
  | 'not_api'
  /** The OS says there is no network (or the errors say so): waiting until it is back. */
  | 'offline'

export interface EngineEvents {
  /**
   * A row was created or changed status; or (issue 32) what a completed row became was read, or
   * edited: then `previous` equals the status and `record` / `recordCount` are set.
   */
  upload: { upload: UploadView; previous: UploadStatus | null }
  /** Bytes of a file sent so far (one event per ~64 KiB at most). */
  progress: { id: number; sent: number; total: number }
  folder: { folderId: string; state: FolderState; message: string | null; messageCoded?: Coded | null }
  rateLimit: {
    profileId: string
    limit: number | null
    remaining: number | null
    resetAt: number | null
    pausedUntil: number | null
  }
  profile: { profileId: string; state: ProfileState; message: string | null; messageCoded?: Coded }
  /**
   * Storage failed (disk full, I/O error) and the queue paused as a whole, or (problem null) it
   * works again and uploads resume.
   */
  storage: { problem: string | null }
  /** A mail account's state changed (connected, last check, error with what to do). */
  mail: { accountId: string } & MailAccountStatus
  /** Something went wrong outside a single file (a move failed, a folder could not be read). */
  notice: { level: 'info' | 'warning' | 'error'; message: string }
  /** Review counts changed, or records were stored, edited or marked reviewed (issue 32). */
  review: ReviewEvent
}

// ---- the overview -------------------------------------------------------------------------------

export interface DayFigures {
  /** YYYY-MM-DD (local). */
  day: string
  /** Files the server accepted (one AI create each). */
  sent: number
  completed: number
  failed: number
}

export interface UploadMonth {
  /** Files Bookdrop took this month (sent or not). */
  filesAdded: number
  /** Files whose AI create the server accepted (a job reference or a record came back). */
  filesSent: number
  /** Files whose record exists. */
  recordsCreated: number
  failed: number
  /** AI credits those creates cost: filesSent × AI_CREDITS_PER_CREATE. */
  creditsUsed: number
  days: DayFigures[]
}

/** A seat or credit grant this app made (the API lists none, so the app remembers its own). */
export interface Grant {
  id: number
  profileId: string
  businessUuid: string
  kind: 'seats' | 'credits'
  /** Seats added (seat grants), else 0. */
  seats: number
  months: number
  /** AI credits given to the business (credit grants), else 0. */
  credits: number
  /** Credits taken from the partner's holding. */
  holdingCharged: number
  /** The holding after the grant, as the server said; null when its answer did not say. */
  holdingAfter: number | null
  prorated: boolean
  at: number
}

export interface GrantMonth {
  seatsGranted: number
  seatGrants: number
  creditsGranted: number
  creditGrants: number
  holdingCharged: number
  /** This month's grants, newest first. */
  grants: Grant[]
  /** The holding as the last grant (of any month) that reported it left it. */
  holding: { balance: number; at: number } | null
}

// ---- the connection (issue 22) ------------------------------------------------------------------

/** How requests reach the API: the proxy, and the extra certificates trusted (never a password). */
export interface ConnectionSettings {
  /** system: the OS's proxy settings and PAC file (desktop) or HTTPS_PROXY (elsewhere); manual: proxyUrl; none: direct. */
  proxyMode: 'system' | 'manual' | 'none'
  proxyUrl: string | null
  /** The user name saved for proxies that ask for one (its password stays in the keychain). */
  proxyUser: string | null
  proxyPasswordSaved: boolean
  /** Who the extra trusted certificates are ("Corp Root CA (Corp)"); empty when there are none. */
  extraCertificates: string[]
}

/** What "Test connection" found. */
export interface ConnectionReport {
  baseUrl: string
  /** The proxy used (no credentials), or null for a direct connection. */
  proxy: string | null
  /** Who signed the server's certificate (https). */
  issuer: string | null
  roundTripMs: number | null
  /** HTTP status of the answer; null when none came. */
  status: number | null
  /** True when the answer was the API's own (its JSON envelope). */
  api: boolean
  /** False when the API refused the key; null when it did not say. */
  keyAccepted: boolean | null
  /** One sentence: what was found and, if something is wrong, what to do. */
  message: string
  /** The certificate authorities trusted. */
  trust: string
}
