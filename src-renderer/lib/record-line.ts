/**
 * What an upload became, in one line (issue 32): "Flour Mills · 3 Mar 2026 · ₦12,400.00", with
 * "· 3 records" when it made several. Dates and money in the person's locale (lib/format.ts), the
 * currency the record's own.
 */
import { type IntlShape, defineMessages } from 'react-intl'
import type { RecordSummary } from '../../contract/review'
import { formatDate, formatMoney } from './format'
import messages from './record-line.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** A record's total with its currency, in the person's locale ("₦12,400.00"); '' when none. */
export function totalText(r: Pick<RecordSummary, 'total' | 'currency'>): string {
  if (r.total === null || r.total === '') return ''
  const n = Number(r.total)
  return Number.isFinite(n) ? formatMoney(n, r.currency) : r.total
}

/** The line; parts the record lacks are left out (a missing vendor says "No vendor"). */
export function recordLine(intl: IntlShape, r: RecordSummary, count = 1): string {
  const parts = [r.vendor?.trim() || intl.formatMessage(m.noVendor)]
  if (r.date) parts.push(formatDate(r.date))
  const total = totalText(r)
  if (total) parts.push(total)
  if (count > 1) parts.push(intl.formatMessage(m.records, { count }))
  return parts.join(' · ')
}
