/**
 * The one contract between the renderer and main (design.md §1).
 *
 * Every call is listed once, in the group of ./calls/ it belongs to, with the runtime schema of its
 * request and its response type; CALLS and `Calls` here compose the groups. Main registers IPC
 * handlers by looping over CALLS and validates every payload; the preload builds `window.bookdrop`
 * from the same list; the web host serves the same list over HTTP. The answers' shapes are in
 * ./views.ts, the channels and payload limits in ./channels.ts. The renderer imports only types from
 * here; the name lists its HTTP bridge needs at run time are in ./names.ts (no zod). This file
 * imports only types from src-main (never Node code).
 *
 * A secret key crosses the bridge once, renderer → main, inside `addProfile` or `rotateProfileKey`,
 * and never comes back: no response type holds one. The business key a partner registration returns
 * stays in main (`registerBusiness` answers with its last 4 characters and a `registrationId`).
 */
import type { z } from 'zod'
import type { EngineEvents } from './types'
import type { PhoneState } from './phone'
import type { Coded } from './message'
export type { Coded } from './message'
import { CALL_NAMES, type CallName, EVENT_NAMES, type EventName } from './names'
import { APP_CALLS, type AppCalls, type Settings } from './calls/app'
import { UPLOAD_CALLS, type UploadCalls } from './calls/uploads'
import { FOLDER_CALLS, type FolderCalls } from './calls/folders'
import { RECORD_CALLS, type RecordCalls } from './calls/records'
import { DOCUMENT_CALLS, type DocumentCalls } from './calls/document'
import { PARTNER_CALLS, type PartnerCalls } from './calls/partner'
import { PHONE_CALLS, type PhoneCalls } from './calls/phone'
import { CONNECTION_CALLS, type ConnectionCalls } from './calls/connection'
import { MAIL_CALLS, type MailCalls } from './calls/mail'
import { DATA_FOLDER_CALLS, type DataFolderCalls } from './calls/data-folder'
import { REVIEW_CALLS, type ReviewCalls } from './calls/review'
import { DUPLICATE_CALLS, type DuplicateCalls } from './calls/duplicates'
import type { Assert } from './calls/shared'
import type { ProfileList, SessionState } from './views'

export * from './types'
export * from './phone'
export * from './views'
export * from './channels'
export * from './review'
export { currencyCode, reviewEditSchema } from './calls/review'
export { settingsSchema, type Settings } from './calls/app'
export type { DataFolderView, FreedView } from './calls/data-folder'
export { DUPLICATE_MODES, type DuplicateMode } from './calls/duplicates'
export { MAX_PREVIEW_BYTES, type ReviewDocument } from './calls/document'
export { UPLOAD_STATUS_VALUES, historyFilterSchema, type HistoryFilterInput } from './calls/uploads'
export { CALL_NAMES, EVENT_NAMES, type CallName, type EventName }

// ---------------------------------------------------------------------------------------------
// The calls: each group (./calls/, one a room or domain) lists its request schemas and answers
// ---------------------------------------------------------------------------------------------

export const CALLS = {
  ...APP_CALLS,
  ...UPLOAD_CALLS,
  ...FOLDER_CALLS,
  ...RECORD_CALLS,
  ...DOCUMENT_CALLS,
  ...PARTNER_CALLS,
  ...PHONE_CALLS,
  ...CONNECTION_CALLS,
  ...MAIL_CALLS,
  ...DATA_FOLDER_CALLS,
  ...REVIEW_CALLS,
  ...DUPLICATE_CALLS,
} as const

/** Keys that two of the groups share (a spread would let the later one win silently). */
type KeysOf<U> = U extends object ? keyof U : never
type SharedKeys<G extends readonly object[]> = G extends readonly [infer H, ...infer T extends readonly object[]]
  ? (keyof H & KeysOf<T[number]>) | SharedKeys<T>
  : never
type _NoCallInTwoGroups = Assert<
  [
    SharedKeys<
      [
        typeof APP_CALLS,
        typeof UPLOAD_CALLS,
        typeof FOLDER_CALLS,
        typeof RECORD_CALLS,
        typeof DOCUMENT_CALLS,
        typeof PARTNER_CALLS,
        typeof PHONE_CALLS,
        typeof CONNECTION_CALLS,
        typeof MAIL_CALLS,
        typeof DATA_FOLDER_CALLS,
        typeof REVIEW_CALLS,
        typeof DUPLICATE_CALLS,
      ]
    >,
  ] extends [never]
    ? true
    : false
>

type _EveryCallNamed = Assert<
  [Exclude<keyof typeof CALLS, CallName>, Exclude<CallName, keyof typeof CALLS>] extends [never, never]
    ? true
    : false
>

export interface Calls
  extends AppCalls,
    UploadCalls,
    FolderCalls,
    RecordCalls,
    DocumentCalls,
    PartnerCalls,
    PhoneCalls,
    ConnectionCalls,
    MailCalls,
    DataFolderCalls,
    ReviewCalls,
    DuplicateCalls {}

type _EveryCallAnswered = Assert<
  [Exclude<keyof Calls, CallName>, Exclude<CallName, keyof Calls>] extends [never, never] ? true : false
>

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
  /**
   * The same sentence as a catalogue id with parameters (issue 34): the renderer words it in the
   * person's language (src-renderer/lib/bridge.ts rewrites `message` with it); main's `message`
   * is its English text (logs, readers without the code).
   */
  coded?: Coded
  /** Field path → the field's message as a Coded, where main has one. */
  codedFields?: Record<string, Coded>
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
