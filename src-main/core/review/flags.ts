/**
 * Review's flags and its other sentences (issue 32), each a `Coded` with its English wording: no
 * total (zero or missing), no vendor, a date after today, a currency other than the business's, and
 * a possible duplicate (another record with the same vendor, date and total: contract/possible-
 * duplicate.ts, basis `same_record`). The same conditions, in SQL, count "Flagged"
 * (store/records.ts FLAGGED): change both together.
 */
import { coded } from '../../../contract/coded'
import type { Coded } from '../../../contract/message'
import { REVIEW_MESSAGES } from '../../../contract/review-messages'
import {
  MESSAGE_ID as DUPLICATE_MESSAGE_ID,
  type PossibleDuplicate,
  possibleDuplicateText,
} from '../../../contract/possible-duplicate'
import type { ReviewFlag } from '../../../contract/review'
import type { Profile } from '../../../contract/types'
import { FLAGGED_KINDS, type FlagContext, type StoredRecord } from '../store/records'

/**
 * Review's sentences, each worded in English from its ICU message (contract/review-messages.ts;
 * translations in contract/i18n/<locale>/review-main.json), so the English is written once.
 */
const M = REVIEW_MESSAGES
export const REVIEW_TEXT = {
  noTotal: () => coded(M.flag_no_total),
  noVendor: () => coded(M.flag_no_vendor),
  futureDate: () => coded(M.flag_future_date),
  otherCurrency: (currency: string, businessCurrency: string) => coded(M.flag_other_currency, { currency, businessCurrency }),
  /** Why a record's fields cannot be changed from Review. */
  readOnlyKind: (kind: string) => coded(M.readonly_kind, { kind }),
  readOnlyDeleted: () => coded(M.readonly_deleted),
  readOnlyUnread: () => coded(M.readonly_unread),
  /** The record could not be read yet. */
  readPending: (why: string) => coded(M.read_pending, { why }),
  saveOffline: () => coded(M.save_offline),
  narrationEmpty: () => coded(M.save_narration_empty),
  notFound: () => coded(M.not_found),
} as const

/** The duplicate flag of `r` when another record (of another upload) has its vendor, date and total. */
function duplicateFlag(other: StoredRecord): ReviewFlag {
  const duplicate: PossibleDuplicate = {
    basis: 'same_record',
    uploadId: other.uploadId,
    name: other.name,
    sentAt: other.createdAt,
    recordUuid: other.uuid,
  }
  const text = possibleDuplicateText(duplicate)
  const params = { name: other.name, sentAt: other.createdAt, basis: 'same_record' }
  const message: Coded = { code: DUPLICATE_MESSAGE_ID, params, text }
  return { code: 'possible_duplicate', duplicate, text, message }
}

function plain(code: 'no_total' | 'no_vendor' | 'future_date', message: Coded): ReviewFlag {
  return { code, text: message.text, message }
}

/**
 * The flags of a record. `sameRecord` lists the other records with its vendor, date and total
 * (RecordStore.sameRecord): the first one is named. A record not read yet, deleted on the server,
 * or of a kind that is not a receipt's (a contact, an account) has none.
 */
export function flagsOf(r: StoredRecord, ctx: FlagContext, sameRecord: readonly StoredRecord[]): ReviewFlag[] {
  if (r.fetchedAt === null || r.deletedOnServer) return []
  if (!(FLAGGED_KINDS as readonly string[]).includes(r.kind)) return []
  const flags: ReviewFlag[] = []
  if (r.total === null || Number(r.total) === 0) flags.push(plain('no_total', REVIEW_TEXT.noTotal()))
  if (r.vendor === null || r.vendor.trim() === '') flags.push(plain('no_vendor', REVIEW_TEXT.noVendor()))
  if (r.date !== null && r.date > ctx.today) flags.push(plain('future_date', REVIEW_TEXT.futureDate()))
  if (ctx.currency && r.currency && r.currency !== ctx.currency) {
    const message = REVIEW_TEXT.otherCurrency(r.currency, ctx.currency)
    flags.push({ code: 'other_currency', currency: r.currency, businessCurrency: ctx.currency, text: message.text, message })
  }
  const other = sameRecord[0]
  if (other) flags.push(duplicateFlag(other))
  return flags
}

/** The business's currency: what /auth/validate said, else what the person set on the profile. */
export function businessCurrency(p: Pick<Profile, 'business' | 'currency'>): string | null {
  const said = p.business?.currency?.trim().toUpperCase()
  if (said && /^[A-Z]{3}$/.test(said)) return said
  return p.currency ?? null
}

/** Today's date where this computer is, YYYY-MM-DD. */
export function localDay(now: number = Date.now()): string {
  const d = new Date(now)
  const p = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`
}
