/**
 * Issue 32 (Review): what each receipt became, as screens show it. The record a completed upload
 * made is read once (`GET /{resource}/{uuid}`, docs/api-assumptions.md) and its summary kept with the
 * upload in the history's database, so it shows offline. Type-only, apart from the lists screens
 * iterate. The calls are in ./calls/review.ts.
 */
import type { Coded } from './message'
import type { PossibleDuplicate } from './possible-duplicate'

/**
 * The kind of record an AI create made, by its resource, singular: `expense`, `bill`, `invoice`,
 * `purchase_order`, `journal`, `income`, `contact`, `account`, `bank_transaction`. Another kind the
 * server names is passed on as it says it (lower case, `_` for spaces).
 */
export type RecordKind =
  | 'expense'
  | 'bill'
  | 'invoice'
  | 'purchase_order'
  | 'journal'
  | 'income'
  | 'contact'
  | 'account'
  | 'bank_transaction'
  | (string & {})

/** The kinds Save can change (PATCH /expenses/{uuid}, PATCH /bills/{uuid}); others are read-only. */
export const EDITABLE_KINDS: readonly RecordKind[] = ['expense', 'bill']

/** What a record is, as the history keeps it (read from the server; each field null when it did not say). */
export interface RecordSummary {
  uuid: string
  kind: RecordKind
  /** The contact (vendor, supplier) as the server names it. */
  vendor: string | null
  /** YYYY-MM-DD. */
  date: string | null
  /** Decimal string as the API gave it ("12400.00"), never a float. */
  total: string | null
  /** ISO 4217, upper case. */
  currency: string | null
  narration: string | null
  /** When a person marked it reviewed (epoch ms), null while it waits for review. */
  reviewedAt: number | null
  /** The server answered 404 for it: deleted (or never visible) there. Shown as "deleted on the server". */
  deletedOnServer: boolean
}

/** Where a receipt came from, as Review names it (`watch` is a folder; the command line counts as a drop). */
export type ReviewSource = 'drop' | 'folder' | 'mail' | 'phone'
export const REVIEW_SOURCES: readonly ReviewSource[] = ['drop', 'folder', 'mail', 'phone']

export type ReviewFlagCode = 'no_total' | 'no_vendor' | 'future_date' | 'other_currency' | 'possible_duplicate'
export const REVIEW_FLAG_CODES: readonly ReviewFlagCode[] = [
  'no_total',
  'no_vendor',
  'future_date',
  'other_currency',
  'possible_duplicate',
]

/**
 * Something about a record a person should look at. `text` is the English sentence ("No total",
 * "No vendor", "Date in the future", "Currency USD is not the business's NGN", "Possible duplicate
 * of <file name>…"); `message` is the same sentence coded for the catalogue (ids `review.flag.*`,
 * and `duplicate.possible` from ./possible-duplicate.ts for the duplicate).
 */
export type ReviewFlag =
  | { code: 'no_total'; text: string; message: Coded }
  | { code: 'no_vendor'; text: string; message: Coded }
  | { code: 'future_date'; text: string; message: Coded }
  | { code: 'other_currency'; currency: string; businessCurrency: string; text: string; message: Coded }
  | { code: 'possible_duplicate'; duplicate: PossibleDuplicate; text: string; message: Coded }

/** One record in the Review list: the record, the upload it came from, and its flags. */
export interface ReviewItem {
  record: RecordSummary
  uploadId: number
  /** The upload's file name as the person knows it. */
  name: string
  source: ReviewSource
  flags: ReviewFlag[]
  /** When the upload was added (epoch ms). */
  createdAt: number
  /** When the upload completed (epoch ms); the list is newest first by this. */
  completedAt: number | null
  /** How many records the upload made (a bank statement makes several). */
  recordCount: number
}

export type ReviewFilter = 'to_review' | 'flagged' | 'all'

export interface ReviewCounts {
  /** Records not yet marked reviewed (and not deleted on the server). */
  toReview: number
  /** Records with at least one flag (not deleted on the server). */
  flagged: number
  all: number
}

export interface ReviewList {
  items: ReviewItem[]
  /** Items matching the filter (for paging). */
  total: number
  counts: ReviewCounts
}

/** A record opened on the Review screen. */
export interface ReviewDetail {
  item: ReviewItem
  /** Save can change it: an expense or a bill that still exists on the server. */
  editable: boolean
  /** Why not, when not editable (ids `review.readonly.*`); null when editable. */
  notEditableReason: Coded | null
  /**
   * The record's fields as the server last sent them, for read-only kinds (and for reference):
   * plain JSON values, never a secret. Null when the record could not be read yet.
   */
  fields: Record<string, unknown> | null
  /** The summary could not be read from the server yet (offline…): why, coded; null otherwise. */
  readProblem: Coded | null
}

/** Overview: this month's money (local time), in the business's currency. */
export interface ReviewMoney {
  /** The business's currency (from /auth/validate, else the profile's own setting); null when neither says. */
  currency: string | null
  /** Sum of this month's expenses and bills Bookdrop's uploads created, in `currency` (decimal string, 2 places). */
  spentThisMonth: string
  /** Up to 5 vendors by this month's total, largest first. */
  topVendors: { vendor: string; total: string }[]
  /** Records of this month in another currency, left out of the sum. */
  otherCurrencies: number
  /** Records waiting for review (all months). */
  toReview: number
}

/** The `review` event: counts changed, or records were stored or edited (uuids; uploads by id). */
export interface ReviewEvent {
  counts: ReviewCounts
  uuids: string[]
  uploadIds: number[]
}
