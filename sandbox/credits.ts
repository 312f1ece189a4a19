/**
 * AI credit usage (api-spec.md 2.6): every AI create costs AI_CREDITS_PER_CREATE credits, charged
 * to the business's own balance, or to its referral partner's holding when the business was
 * registered with `credit_from_referral_partner` true. Charged when the create is accepted (check
 * and debit with nothing in between, so concurrent creates never overspend), given back when it
 * fails; an idempotent replay never reaches the route, so it is never charged.
 */
import { AI_CREDITS_EXHAUSTED_STATUS, AI_CREDITS_PER_CREATE, ERROR_CODES, roundMoney } from '../schemas'
import { ApiFailure } from './server'
import type { Business, SandboxState } from './state'

export interface Charge {
  /** Gives the credits back (a create that failed); only the first call does anything. */
  refund(): void
}

const credits = (n: number) => `${n} credit${n === 1 ? '' : 's'}`

/** Debits one AI create, or throws the 402 `insufficient_ai_credits` failure and debits nothing. */
export function chargeAiCreate(state: SandboxState, business: Business): Charge {
  const cost = AI_CREDITS_PER_CREATE
  const payer = state.creditPayer(business)
  const account =
    payer.kind === 'partner'
      ? {
          get: () => payer.partner.holding_credits,
          set: (n: number) => (payer.partner.holding_credits = n),
        }
      : {
          get: () => payer.business.credit_balance,
          set: (n: number) => (payer.business.credit_balance = n),
        }
  const left = account.get()
  if (left < cost) {
    throw new ApiFailure(
      AI_CREDITS_EXHAUSTED_STATUS,
      payer.kind === 'partner'
        ? `insufficient AI credits: this business's AI usage is charged to its referral partner, whose credit holding has ${credits(left)} left and an AI create costs ${credits(cost)}`
        : `insufficient AI credits: an AI create costs ${credits(cost)} and this business has ${credits(left)} left`,
      ERROR_CODES.insufficientAiCredits,
    )
  }
  account.set(roundMoney(left - cost))
  let refunded = false
  return {
    refund() {
      if (refunded) return
      refunded = true
      account.set(roundMoney(account.get() + cost))
    },
  }
}
