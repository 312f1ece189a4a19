/**
 * A record read as Review summarises it (issue 32): kind, vendor, date, total, currency, narration,
 * from whatever `GET /{resource}/{uuid}` answered (fields not shown by the spec: our names or
 * FIELD_ALIASES, else null). The total is kept as a decimal string, never a float: a number the
 * server sends is written with two places at least ("12400" → "12400.00").
 */
import { FIELD_ALIASES } from '../assumptions'
import { decimalText } from './decimal'
import { type Obj, isObject, pick, pickText, text, withUuid } from './primitives'

export { decimalText } from './decimal'

export interface RecordSummaryRead {
  uuid: string
  /** The server's resource_type, lower case with `_` (null when it says none). */
  kind: string | null
  vendor: string | null
  date: string | null
  total: string | null
  currency: string | null
  narration: string | null
  /** The record's fields as plain JSON values, for screens that show them read-only. */
  fields: Record<string, unknown>
}

/** YYYY-MM-DD at the start of a date or timestamp; anything else is null. */
function calendarDay(v: unknown): string | null {
  const t = text(v)?.trim() ?? ''
  const m = /^(\d{4}-\d{2}-\d{2})(?:$|[T ])/.exec(t)
  return m ? m[1]! : null
}

/** A name: text, or an object's name (a contact given as an object). */
function nameOf(v: unknown): string | null {
  if (isObject(v)) return pickText(v, ['name', 'display_name', 'company_name', 'business_name'])
  const t = text(v)?.trim()
  return t ? t : null
}

/** Plain JSON values only (a nested object or list kept as it is), at most 60 fields. */
function plainFields(o: Obj): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(o).slice(0, 60)) {
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v) || typeof v === 'object') out[k] = v
  }
  return out
}

export function readRecordSummary(o: Obj, uuid: string): RecordSummaryRead {
  const currency = pickText(o, FIELD_ALIASES.currency)?.trim().toUpperCase() ?? null
  const kind = text(o.resource_type)?.trim().toLowerCase().replace(/[\s-]+/g, '_') || null
  const narration = text(o.narration)
  return {
    uuid,
    kind,
    vendor: nameOf(pick(o, FIELD_ALIASES.recordVendor)),
    date: calendarDay(pick(o, FIELD_ALIASES.recordDate)),
    total: decimalText(pick(o, FIELD_ALIASES.recordTotal)),
    currency: currency && /^[A-Z]{3}$/.test(currency) ? currency : null,
    narration: narration && narration.trim() ? narration : null,
    fields: plainFields(o),
  }
}

export const recordSummaryRead = withUuid(readRecordSummary)
