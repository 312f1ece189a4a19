/** The calls of the Review screen (issue 32): the records Bookdrop created, their flags, edits, the month's money. */
import { z } from 'zod'
import type { ProfileView } from '../views'
import type { ReviewDetail, ReviewList, ReviewMoney } from '../review'

const uuid = z.string().min(1).max(200)

/** ISO 4217 codes this runtime knows (Intl), with a plain three-letter check where it lists none. */
const KNOWN_CURRENCIES: ReadonlySet<string> | null = (() => {
  const list = (Intl as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf
  try {
    return list ? new Set(list('currency')) : null
  } catch {
    return null
  }
})()

/** An ISO 4217 currency code ("NGN", "EUR"); lower case is accepted and upper-cased. */
export const currencyCode = z
  .string()
  .trim()
  .transform((s) => s.toUpperCase())
  .refine((s) => /^[A-Z]{3}$/.test(s) && (KNOWN_CURRENCIES === null || KNOWN_CURRENCIES.has(s)), {
    error: 'give a currency as its three-letter ISO 4217 code, e.g. NGN, EUR or USD',
  })

/**
 * The edit a person saves: each field given is sent, each left out is kept. `total` is a plain
 * decimal with a dot ("12.50"): the renderer reads the person's own format ("12,50") before
 * sending. Null clears a text field.
 */
export const reviewEditSchema = z
  .object({
    uuid,
    vendor: z.string().trim().max(200, { error: 'a vendor name can be at most 200 characters' }).nullable().optional(),
    date: z
      .string()
      .regex(/^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/, { error: 'write the date as YYYY-MM-DD, e.g. 2026-03-03' })
      .optional(),
    total: z
      .string()
      .trim()
      .regex(/^\d{1,13}(\.\d{1,4})?$/, { error: 'give the total as a number, e.g. 12400.00' })
      .optional(),
    currency: currencyCode.optional(),
    narration: z.string().max(2000, { error: 'a narration can be at most 2000 characters' }).nullable().optional(),
  })
  .strict()

export const REVIEW_CALLS = {
  /** Records newest first; `flagged` has at least one flag, `to_review` is not yet marked reviewed. */
  'review.list': z
    .object({
      filter: z.enum(['to_review', 'flagged', 'all']).default('to_review'),
      offset: z.number().int().min(0).max(1_000_000).default(0),
      limit: z.number().int().min(1).max(500).default(100),
    })
    .strict(),
  /** One record with its upload, flags and fields; reads the summary from the server if it has none yet. */
  'review.get': z.object({ uuid }).strict(),
  /** Sends the edit (PATCH /expenses/{uuid} or /bills/{uuid}); answers with the server's record. */
  'review.save': reviewEditSchema,
  'review.setReviewed': z.object({ uuid, reviewed: z.boolean() }).strict(),
  /** This month's money (local time) for the Overview. */
  'review.money': z.object({}).strict(),
  /**
   * The currency the business works in, for a profile whose server does not say it (/auth/validate):
   * flags and the month's money use it. Null clears it. Default profile: the active one.
   */
  'review.setCurrency': z.object({ profileId: z.string().min(1).max(200).optional(), currency: currencyCode.nullable() }).strict(),
} as const

export interface ReviewCalls {
  'review.list': ReviewList
  'review.get': ReviewDetail
  /**
   * The record as the server answered; a record the server no longer has comes back with
   * `deletedOnServer` true (not an error). Errors: `offline` (no answer: the edit is not sent, keep
   * it in the form), `invalid_request` (fields), `not_editable` (another kind), the API's refusals.
   */
  'review.save': ReviewDetail
  'review.setReviewed': ReviewDetail
  'review.money': ReviewMoney
  'review.setCurrency': ProfileView
}
