/**
 * Partner reads: add-credits (body and response not shown), and 2.7's billing status and referred
 * businesses (2.7 names every field and its type: required). The one loosening: a timestamp is read
 * as any text, not only with the microseconds 2.7 shows.
 */
import { z } from 'zod'
import { FIELD_ALIASES } from '../assumptions'
import { billingStatusSchema, referredBusinessPage, referredBusinessRow } from '../api/partner'
import { isObject, pickNum } from './primitives'

export interface AddCreditsRead {
  credits_granted: number | null
  partner_holding_balance: number | null
  credit_balance: number | null
}

export function readAddCredits(data: unknown): AddCreditsRead {
  const o = isObject(data) ? data : {}
  return {
    credits_granted: pickNum(o, FIELD_ALIASES.creditsGranted),
    partner_holding_balance: pickNum(o, FIELD_ALIASES.holdingBalance),
    credit_balance: pickNum(o, FIELD_ALIASES.creditBalance),
  }
}

const anyTimestamp = z.string().nullable()
export const billingStatusRead = billingStatusSchema.extend({ subscription_expires_at: anyTimestamp })
export const referredBusinessPageRead = referredBusinessPage.extend({
  data: z.array(referredBusinessRow.extend({ subscription_expires_at: anyTimestamp })),
})
