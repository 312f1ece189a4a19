/**
 * What the phone's page (src-renderer/phone/) and the desktop's phone listener
 * (src-main/core/phone/) say to each other over the LAN, and what the desktop's panel shows. Plain
 * constants and types: the phone's page imports this file alone (no zod, nothing else of the app).
 *
 *   GET  /               the phone's page (and its own script and style, nothing else)
 *   POST /pair           {token} → sets the session cookie; {state: 'pending', code, device}
 *   GET  /state[?wait=1] the session: pending (waits up to 20 s for the desktop's answer), allowed
 *   POST /upload?id=&target=&name=[&note=][&doc=&page=&pages=]   one photo's bytes → PhoneOutcome
 *   GET  /photos         what became of this session's photos since → {photos: PhonePhotoProgress[]}
 *
 * A request of a session that ended (ended on the computer, 30 idle minutes, the panel closed and
 * opened again) is answered 403 with PHONE_NOT_PAIRED.
 */

/** What the phone is told once its pairing ended. */
export const PHONE_NOT_PAIRED = 'This phone is no longer paired. Scan the new code on your computer.'

/** What a phone may send its photos as (receipts and documents a camera captures). */
export const PHONE_TARGETS = ['expenses', 'bills', 'invoices', 'income'] as const
export type PhoneTarget = (typeof PHONE_TARGETS)[number]
/** Their names on the phone's page (kept here, not imported: the page's script stays one file). */
export const PHONE_TARGET_LABELS: Record<PhoneTarget, string> = {
  expenses: 'Expenses (receipts)',
  bills: 'Bills',
  invoices: 'Invoices',
  income: 'Income',
}

/** The largest photo (or PDF) the listener takes, bytes: a 48-megapixel HEIC is about 15 MB. */
export const MAX_PHONE_PHOTO_BYTES = 40 * 1024 * 1024
/** Pages of one document at most. */
export const MAX_DOCUMENT_PAGES = 20
/** Characters of the optional note (it goes with the photo's instructions). */
export const MAX_PHONE_NOTE = 500

/** The session as the phone's page sees it. */
export type PhoneSessionView =
  | { state: 'pending'; code: string; device: string }
  | { state: 'allowed'; code: string; device: string; business: string | null; targets: readonly PhoneTarget[] }

/**
 * What happened to one photo: `sent` (in the desktop's queue, to be sent), `duplicate` (the same
 * content was already sent), `skipped` (with its reason), or `received` (a page of a document that
 * waits for its other pages).
 */
export interface PhoneOutcome {
  status: 'sent' | 'duplicate' | 'skipped' | 'received'
  message: string
  /** The computer's upload (its history row), when one was made: GET /photos follows it. */
  upload?: number
}

/**
 * What became of one photo of this session after it arrived (GET /photos), by the id the phone
 * gave it (for a document, its last page's): `waiting` (in the computer's queue), `sending`,
 * `done` (the server made a record: `record` says its kind), or a final `duplicate`, `skipped`,
 * `failed` or `cancelled` with the reason in `message`.
 */
export interface PhonePhotoProgress {
  id: string
  state: 'waiting' | 'sending' | 'done' | 'duplicate' | 'skipped' | 'failed' | 'cancelled'
  /** A sentence for the person holding the phone. */
  message: string
  /** The kind of record the server made (e.g. expense, bill), once done. */
  record: string | null
  /** Nothing more will happen to it (unless someone acts on the computer). */
  final: boolean
}

/** A refusal of the listener: `error` is a sentence for the person holding the phone. */
export interface PhoneRefusal {
  error: string
  /** `session`: pair again (scan a new code); `link`: ask for a new link; `limit`: try later or smaller. */
  kind: 'session' | 'link' | 'limit' | 'request'
}

/** A phone as the desktop's panel lists it. */
export interface PhoneDevice {
  id: string
  device: string
  /** The four digits the phone shows: the person checks they match before allowing it. */
  code: string
  since: number
  lastSeenAt: number
  /** Photos (or documents) it sent in this session. */
  photos: number
  /** The business its photos go to (allowed phones). */
  business: string | null
}

/** The desktop's phone panel: the listener, the one-time link, the phones waiting and paired. */
export interface PhoneState {
  /** The listener runs (the panel is open). */
  open: boolean
  /** Where phones reach this computer, http://<address>:<port>, or null. */
  address: string | null
  /**
   * The pairing link (it holds the one-time token): shown as a QR code (`qr`: rows of the code's
   * modules, '1' dark) and as text. Null when there is none valid (spent, expired, panel closed).
   */
  link: { url: string; expiresAt: number; qr: string[] } | null
  /** Phones that opened the link and wait for Allow or Refuse. */
  pending: PhoneDevice[]
  paired: PhoneDevice[]
  /** Requests the listener refused (wrong host or origin, no session, limits): counted, nothing else kept. */
  refused: number
  /** This computer's private-network addresses (Settings chooses one). */
  interfaces: { name: string; address: string }[]
  /** Why phones cannot connect now (no private address, the port is taken…), or null. */
  problem: string | null
}
