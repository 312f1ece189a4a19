/**
 * Seat and credit grants, in words: the cost preview (the same rules as the emulator, design.md §3)
 * and an explanation for every failure.
 */
import type { BillingStatus } from '../../contract/api'
import { ERROR_CODES, firstGrantCost, proratedGrantCost } from '../../contract/assumptions'
import { shortfallFromMessage } from '../store/partner'
import { formatDateTime, formatNumber } from './format'
import type { BridgeError } from './types'

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
      formula: `150 × ${formatNumber(seats)} seat${seats === 1 ? '' : 's'} × ${formatNumber(months)} month${months === 1 ? '' : 's'}`,
    }
  }
  const remainingMs = expiry - now
  const days = remainingMs / 86_400_000
  return {
    kind: 'later',
    cost: proratedGrantCost(seats, remainingMs),
    remainingDays: days,
    expiresAt: expiry,
    formula: `⌈150 × ${formatNumber(seats)} seat${seats === 1 ? '' : 's'} × ${days.toFixed(2)} remaining days ÷ 30⌉`,
  }
}

/** What went wrong with a grant, for a person: what it means and what to do. */
export function explainGrantError(
  e: BridgeError,
  ctx: { cost?: number | null; holding?: number | null } = {},
): string {
  switch (e.code) {
    case ERROR_CODES.insufficientHolding: {
      const told = shortfallFromMessage(e.message)
      const needed = told?.needed ?? ctx.cost ?? null
      const held = told?.held ?? ctx.holding ?? null
      if (needed !== null && held !== null) {
        return `Your partner credit holding is too small: this grant needs ${formatNumber(needed)} credits and the holding has ${formatNumber(held)}, so ${formatNumber(Math.max(0, needed - held))} credits are missing. Top up the holding, or grant fewer seats or months.`
      }
      return `Your partner credit holding cannot cover this grant. Top up the holding, or grant less. (${e.message})`
    }
    case ERROR_CODES.ownPlusSubscription:
      return 'This business pays for its own Plus subscription, so partner seats cannot be added to it. Nothing was charged.'
    case ERROR_CODES.partnerPaidCredits:
      return 'This business was registered with its AI credit use charged to your partner credit (credit_from_referral_partner), and such a business cannot receive partner seats. Nothing was charged.'
    case ERROR_CODES.businessNotReferred:
      return 'This business is not among the businesses you referred (or it no longer exists). Reload the list.'
    case ERROR_CODES.invalidSeatRequest:
    case ERROR_CODES.validation:
      return `The request was not valid: ${e.message}`
    case ERROR_CODES.wrongKeyKind:
      return `The active profile's key is not a partner key: ${e.message}`
    case ERROR_CODES.invalidKey:
      return 'The server refused your partner key (401). Rotate the key in Settings.'
    case ERROR_CODES.rateLimited:
      return 'Too many requests right now: wait a moment and try again. Nothing was charged.'
    case ERROR_CODES.serverError:
      return `The server had a problem (${e.message}). Try again; the same grant is never charged twice.`
    default:
      return e.status ? `${e.message} (HTTP ${e.status})` : e.message
  }
}

export function expiryText(ms: number | string | null): string {
  return ms === null ? '—' : formatDateTime(ms)
}
