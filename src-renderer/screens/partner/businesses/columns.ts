import { type MessageDescriptor, defineMessages } from 'react-intl'
import type { ReferredBusinessRow } from '../../../../contract/api'
import { formatDateTime, formatNumber } from '../../../lib/format'
import { getIntl } from '../../../lib/i18n'
import { statusWords } from '../../../components/RecordTable'
import messages from './columns.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** API words of a business's billing in the person's language (plans, gateways); others plainly. */
const WORDS: Record<string, MessageDescriptor> = {
  plus: m.plus,
  free: m.free,
  direct: m.direct,
  referral_partner: m.referral,
}

/** A billing value (a plan, a status, a gateway, yes/no) in words. */
export function billingWords(v: unknown): string {
  if (typeof v === 'boolean') return getIntl().formatMessage(v ? m.yes : m.no)
  if (v === null || v === undefined || v === '') return '—'
  if (typeof v !== 'string') return String(v)
  const d = WORDS[v.toLowerCase()]
  return d ? getIntl().formatMessage(d) : statusWords(v)
}

/** The referred-businesses table's columns, the fields of a row's details, and how a value reads. */

export type Key = keyof ReferredBusinessRow
/**
 * The table's columns, by priority (2: hidden under 600 px of table, 3: under 760 px); every other
 * field of the row is in its details row ("Details and billing").
 */
export const COLUMNS: {
  key: Key
  label: MessageDescriptor
  numeric?: boolean
  width?: string
  priority?: 2 | 3
}[] = [
  { key: 'name', label: m.name },
  { key: 'email', label: m.email, priority: 2 },
  { key: 'subscription_plan', label: m.plan, width: '64px', priority: 3 },
  { key: 'subscription_status', label: m.status, width: '84px' },
  { key: 'available_seats', label: m.seats, numeric: true, width: '64px' },
  { key: 'subscription_expires_at', label: m.expires, width: '150px', priority: 3 },
  { key: 'credit_balance', label: m.credits, numeric: true, width: '84px' },
]
/** Fields shown in a row's details, beside its billing status. */
export const DETAIL_KEYS: { key: Key; label: MessageDescriptor }[] = [
  { key: 'uuid', label: m.id },
  { key: 'email', label: m.email },
  { key: 'currency', label: m.currency },
  { key: 'country', label: m.country },
  { key: 'subscription_plan', label: m.plan },
  { key: 'subscription_expires_at', label: m.expires },
  { key: 'is_subscribed_to_svc', label: m.subscribed },
  { key: 'gateway', label: m.gateway },
  { key: 'billing_currency', label: m.billingCurrency },
  { key: 'credit_from_referral_partner', label: m.paidByYou },
]

/** The billing status's fields, by their API names, in words (a field not known here: its name plainly). */
const BILLING: Record<string, MessageDescriptor> = {
  credit_from_referral_partner: m.paidByYou,
  is_subscribed_to_svc: m.subscribed,
  billing_currency: m.billingCurrency,
  subscription_status: m.status,
  available_seats: m.seats,
  subscription_plan: m.plan,
  credit_balance: m.credits,
  subscription_expires_at: m.expires,
  gateway: m.gateway,
}

export function billingLabel(field: string): string {
  const d = BILLING[field]
  return d ? getIntl().formatMessage(d) : field.replace(/_/g, ' ')
}

/** A column's classes: numbers right-aligned, and the width at which it gives way. */
export function columnClass(c: (typeof COLUMNS)[number]): string | undefined {
  return [c.numeric ? 'num' : '', c.priority ? `col-p${c.priority}` : ''].join(' ').trim() || undefined
}

/** A row's value in words: yes/no, a dash for nothing, dates and numbers in the person's locale. */
export function cell(row: ReferredBusinessRow, key: Key): string {
  const v = row[key]
  if (typeof v === 'boolean' || v === null || v === undefined || v === '') return billingWords(v)
  if (key === 'subscription_expires_at') return formatDateTime(String(v))
  if (typeof v === 'number') return formatNumber(v)
  if (key === 'subscription_plan' || key === 'subscription_status' || key === 'gateway') return billingWords(v)
  return String(v)
}
