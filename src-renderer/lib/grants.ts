/**
 * Seat and credit grants, in words: the cost preview (the same rules as the emulator, design.md §3)
 * and an explanation for every failure.
 */
import { defineMessages } from 'react-intl'
import type { BillingStatus } from '../../contract/api'
import { ERROR_CODES, firstGrantCost, proratedGrantCost } from '../../contract/assumptions'
import { shortfallFromMessage } from '../store/partner'
import { formatDateTime } from './format'
import { getIntl } from './i18n'
import type { BridgeError } from './types'

const m = defineMessages({
  firstFormula: {
    id: 'partner.grant.formula.first',
    defaultMessage:
      '150 × {seats, plural, one {# seat} other {# seats}} × {months, plural, one {# month} other {# months}}',
  },
  laterFormula: {
    id: 'partner.grant.formula.later',
    defaultMessage:
      '⌈150 × {seats, plural, one {# seat} other {# seats}} × {days, number, ::.00} remaining days ÷ 30⌉',
  },
  shortBy: {
    id: 'partner.grant.error.shortBy',
    defaultMessage:
      'Your partner credit holding is too small: this grant needs {needed, plural, one {# credit} other {# credits}} and the holding has {held, number}, so {missing, plural, one {# credit is} other {# credits are}} missing. Top up the holding, or grant fewer seats or months.',
  },
  short: {
    id: 'partner.grant.error.short',
    defaultMessage:
      'Your partner credit holding cannot cover this grant. Top up the holding, or grant less. The server said: {reason}',
  },
  ownPlus: {
    id: 'partner.grant.error.ownPlus',
    defaultMessage:
      'This business pays for its own Plus subscription, so partner seats cannot be added to it. Nothing was charged.',
  },
  partnerPaid: {
    id: 'partner.grant.error.partnerPaid',
    defaultMessage:
      'This business was registered with its AI credit use charged to your partner credit, and such a business cannot receive partner seats. Nothing was charged.',
  },
  notReferred: {
    id: 'partner.grant.error.notReferred',
    defaultMessage:
      'This business is not among the businesses you referred (or it no longer exists). Reload the list.',
  },
  invalid: { id: 'partner.grant.error.invalid', defaultMessage: 'The request was not valid. The server said: {reason}' },
  wrongKey: {
    id: 'partner.grant.error.wrongKey',
    defaultMessage: 'The active profile’s key is not a partner key. The server said: {reason}',
  },
  invalidKey: {
    id: 'partner.grant.error.invalidKey',
    defaultMessage: 'The server refused your partner key. Replace the key in Settings.',
  },
  rateLimited: {
    id: 'partner.grant.error.rateLimited',
    defaultMessage: 'Too many requests right now: wait a moment and try again. Nothing was charged.',
  },
  serverError: {
    id: 'partner.grant.error.server',
    defaultMessage:
      'The server had a problem. Try again; the same grant is never charged twice. The server said: {reason}',
  },
  other: { id: 'partner.grant.error.other', defaultMessage: '{reason} (HTTP {status, number, ::group-off})' },
})

export interface SeatQuote {
  kind: 'first' | 'later'
  cost: number
  /** Remaining days of the running grant (later grants). */
  remainingDays: number | null
  expiresAt: number | null
  /** The formula with the numbers put in. */
  formula: string
}

/** A running partner grant: Plus, active, through the referral partner, not yet expired. */
export function runningGrantExpiry(
  b: Pick<BillingStatus, 'gateway' | 'subscription_status' | 'subscription_expires_at'>,
  now: number,
): number | null {
  if (b.gateway !== 'referral_partner' || b.subscription_status !== 'active' || !b.subscription_expires_at)
    return null
  const t = Date.parse(b.subscription_expires_at)
  return Number.isFinite(t) && t > now ? t : null
}

export function quoteSeats(
  b: Pick<BillingStatus, 'gateway' | 'subscription_status' | 'subscription_expires_at'>,
  seats: number,
  months: number,
  now = Date.now(),
): SeatQuote {
  const expiry = runningGrantExpiry(b, now)
  if (expiry === null) {
    return {
      kind: 'first',
      cost: firstGrantCost(seats, months),
      remainingDays: null,
      expiresAt: null,
      formula: getIntl().formatMessage(m.firstFormula, { seats, months }),
    }
  }
  const remainingMs = expiry - now
  const days = remainingMs / 86_400_000
  return {
    kind: 'later',
    cost: proratedGrantCost(seats, remainingMs),
    remainingDays: days,
    expiresAt: expiry,
    formula: getIntl().formatMessage(m.laterFormula, { seats, days }),
  }
}

/** The errors of a grant worded by a message of their own (the API's reason where it has a place). */
const GRANT_ERROR_MESSAGES: Partial<Record<string, keyof typeof m>> = {
  [ERROR_CODES.ownPlusSubscription]: 'ownPlus',
  [ERROR_CODES.partnerPaidCredits]: 'partnerPaid',
  [ERROR_CODES.businessNotReferred]: 'notReferred',
  [ERROR_CODES.invalidSeatRequest]: 'invalid',
  [ERROR_CODES.validation]: 'invalid',
  [ERROR_CODES.wrongKeyKind]: 'wrongKey',
  [ERROR_CODES.invalidKey]: 'invalidKey',
  [ERROR_CODES.rateLimited]: 'rateLimited',
  [ERROR_CODES.serverError]: 'serverError',
}

/** What went wrong with a grant, for a person: what it means and what to do. */
export function explainGrantError(
  e: BridgeError,
  ctx: { cost?: number | null; holding?: number | null } = {},
): string {
  const intl = getIntl()
  if (e.code === ERROR_CODES.insufficientHolding) {
    const told = shortfallFromMessage(e.message)
    const needed = told?.needed ?? ctx.cost ?? null
    const held = told?.held ?? ctx.holding ?? null
    if (needed !== null && held !== null) {
      return intl.formatMessage(m.shortBy, { needed, held, missing: Math.max(0, needed - held) })
    }
    return intl.formatMessage(m.short, { reason: e.message })
  }
  // The API's reason goes in where the message has a place for it.
  const worded = GRANT_ERROR_MESSAGES[e.code]
  if (worded) return intl.formatMessage(m[worded], { reason: e.message })
  return e.status ? intl.formatMessage(m.other, { reason: e.message, status: e.status }) : e.message
}

export function expiryText(ms: number | string | null): string {
  return ms === null ? '—' : formatDateTime(ms)
}
