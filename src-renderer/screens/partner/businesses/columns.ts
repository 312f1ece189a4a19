import type { ReferredBusinessRow } from '../../../../contract/api'
import { formatDateTime, formatNumber } from '../../../lib/format'

/** The referred-businesses table's columns, the fields of a row's details, and how a value reads. */

export type Key = keyof ReferredBusinessRow
/**
 * The table's columns, by priority (2: hidden under 600 px of table, 3: under 760 px); every other
 * field of the row is in its details row ("Details and billing").
 */
export const COLUMNS: { key: Key; label: string; numeric?: boolean; width?: string; priority?: 2 | 3 }[] = [
  { key: 'name', label: 'Name' },
  { key: 'email', label: 'Email', priority: 2 },
  { key: 'subscription_plan', label: 'Plan', width: '64px', priority: 3 },
  { key: 'subscription_status', label: 'Status', width: '84px' },
  { key: 'available_seats', label: 'Seats', numeric: true, width: '64px' },
  { key: 'subscription_expires_at', label: 'Expires', width: '150px', priority: 3 },
  { key: 'credit_balance', label: 'Credits', numeric: true, width: '84px' },
]
/** Fields shown in a row's details, beside its billing status. */
export const DETAIL_KEYS: { key: Key; label: string }[] = [
  { key: 'uuid', label: 'uuid' },
  { key: 'email', label: 'Email' },
  { key: 'currency', label: 'Currency' },
  { key: 'country', label: 'Country' },
  { key: 'subscription_plan', label: 'Plan' },
  { key: 'subscription_expires_at', label: 'Expires' },
  { key: 'is_subscribed_to_svc', label: 'Subscribed' },
  { key: 'gateway', label: 'Gateway' },
  { key: 'billing_currency', label: 'Billing currency' },
  { key: 'credit_from_referral_partner', label: 'AI paid by you' },
]

/** A column's classes: numbers right-aligned, and the width at which it gives way. */
export function columnClass(c: (typeof COLUMNS)[number]): string | undefined {
  return [c.numeric ? 'num' : '', c.priority ? `col-p${c.priority}` : ''].join(' ').trim() || undefined
}

/** A row's value in words: yes/no, a dash for nothing, dates and numbers in the person's locale. */
export function cell(row: ReferredBusinessRow, key: Key): string {
  const v = row[key]
  if (typeof v === 'boolean') return v ? 'Yes' : 'No'
  if (v === null || v === undefined || v === '') return '—'
  if (key === 'subscription_expires_at') return formatDateTime(String(v))
  if (typeof v === 'number') return formatNumber(v)
  return String(v)
}
