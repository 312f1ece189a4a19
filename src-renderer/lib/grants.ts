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
import messages from './grants.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

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
