/**
 * The partner API: business registration (2.6, with its password rule), referred businesses and
 * their billing (2.7), seats and credits (2.8).
 */
import { z } from 'zod'
import { LIMITS } from '../assumptions'
import { authValidateData } from './auth'
import { countryCode, currencyCode, isIanaTimeZone, nonEmpty } from './primitives'

// ---------------------------------------------------------------------------------------------
// 2.6 Business registration
// ---------------------------------------------------------------------------------------------

export const GRANT_ACCESS = ['admin', 'viewer', 'editor'] as const

/** The password rule of 2.6, one check per part so a form can tick each as the user types. */
export const PASSWORD_RULES = [
  { id: 'length', text: 'at least 8 characters', test: (p: string) => p.length >= 8 },
  { id: 'letter', text: 'a letter', test: (p: string) => /\p{L}/u.test(p) },
  { id: 'number', text: 'a number', test: (p: string) => /\p{N}/u.test(p) },
  {
    id: 'special',
    text: 'a special character (such as ! @ # $ %)',
    test: (p: string) => /[^\p{L}\p{N}\s]/u.test(p),
  },
] as const

export function passwordProblems(p: string): string[] {
  return PASSWORD_RULES.filter((r) => !r.test(p)).map((r) => r.text)
}

export const passwordSchema = z.string({ error: 'password is required' }).superRefine((p, ctx) => {
  const missing = passwordProblems(p)
  if (missing.length > 0) {
    ctx.addIssue({ code: 'custom', message: `password needs ${missing.join(', ')}` })
  }
})

export const registerBusinessSchema = z.object({
  email: z.email({ error: 'email must be a valid email address' }),
  firstname: nonEmpty('firstname'),
  lastname: nonEmpty('lastname'),
  business_name: nonEmpty('business_name'),
  password: passwordSchema,
  country: countryCode,
  currency: currencyCode,
  timezone: z
    .string({ error: 'timezone is required: an IANA zone name such as Africa/Lagos' })
    .refine(isIanaTimeZone, { error: 'timezone must be an IANA zone name such as Africa/Lagos or UTC' }),
  grant_access: z.enum(GRANT_ACCESS, { error: 'grant_access must be one of admin, viewer, editor' }),
  credit_from_referral_partner: z
    .boolean({ error: 'credit_from_referral_partner must be true or false' })
    .optional()
    .default(false),
})
export type RegisterBusinessInput = z.input<typeof registerBusinessSchema>

/** The new business as auth/validate describes one, plus its keys when the answer carries them. */
export const registeredBusinessData = authValidateData.extend({
  api_public_key: z.string().startsWith('svc_pk_').optional(),
  api_secret_key: z.string().startsWith('svc_sk_').optional(),
})
export type RegisteredBusiness = z.infer<typeof registeredBusinessData>

// ---------------------------------------------------------------------------------------------
// 2.7 Referred businesses
// ---------------------------------------------------------------------------------------------

/** ISO 8601 UTC with microseconds and Z: 2026-01-05T10:20:30.123456Z */
export const MICRO_TIMESTAMP_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

export const billingStatusSchema = z.object({
  credit_from_referral_partner: z.boolean(),
  is_subscribed_to_svc: z.boolean(),
  billing_currency: z.string(),
  subscription_status: z.string(),
  available_seats: z.number().int(),
  subscription_plan: z.string(),
  credit_balance: z.number(),
  subscription_expires_at: z.string().regex(MICRO_TIMESTAMP_RE).nullable(),
  gateway: z.string(),
})
export type BillingStatus = z.infer<typeof billingStatusSchema>

export const referredBusinessRow = z
  .object({
    uuid: z.string(),
    name: z.string(),
    email: z.string(),
    currency: z.string(),
    country: z.string(),
  })
  .extend(billingStatusSchema.shape)
export type ReferredBusinessRow = z.infer<typeof referredBusinessRow>

export const referredBusinessPage = z.object({
  current_page: z.number().int(),
  data: z.array(referredBusinessRow),
  per_page: z.number().int(),
  total: z.number().int(),
})
export type ReferredBusinessPage = z.infer<typeof referredBusinessPage>

// ---------------------------------------------------------------------------------------------
// 2.8 Seats and credits
// ---------------------------------------------------------------------------------------------

export const addSeatsSchema = z.object({
  seats: z
    .number({ error: 'seats must be a whole number' })
    .int({ error: 'seats must be a whole number' })
    .min(1, { error: 'seats must be 1 or more' })
    .max(LIMITS.maxSeatsPerGrant, { error: `seats must be ${LIMITS.maxSeatsPerGrant} or less` }),
  months: z
    .number({ error: 'months must be a whole number' })
    .int({ error: 'months must be a whole number' })
    .min(1, { error: 'months must be 1 or more' })
    .max(LIMITS.maxMonthsPerGrant, { error: `months must be ${LIMITS.maxMonthsPerGrant} or less` }),
})
export type AddSeatsInput = z.infer<typeof addSeatsSchema>

export const seatAllocationSchema = z.object({
  uuid: z.string(),
  allocation_type: z.enum(['seats', 'credits']),
  quantity: z.number(),
  seats: z.number().int(),
  months: z.number().int(),
  prorated: z.boolean(),
  resulting_seats: z.number().int(),
  subscription_reference: z.string(),
  subscription_expires_at: z.string(),
  meta: z.object({ holding_credits_charged: z.number(), credits_granted: z.number() }),
})

export const addSeatsData = z.object({
  allocation: seatAllocationSchema,
  holding_credits_charged: z.number(),
  partner_holding_balance: z.number(),
  subscription_expires_at: z.string(),
  transaction_credits_granted: z.number(),
})
export type AddSeatsResult = z.infer<typeof addSeatsData>

export const addCreditsSchema = z.object({
  credits: z
    .number({ error: 'credits must be a number greater than 0' })
    .positive({ error: 'credits must be greater than 0' })
    .max(LIMITS.maxCreditsPerGrant, { error: `credits must be ${LIMITS.maxCreditsPerGrant} or less` }),
})
export type AddCreditsInput = z.infer<typeof addCreditsSchema>

export const addCreditsData = z.object({
  credits_granted: z.number(),
  partner_holding_balance: z.number(),
  credit_balance: z.number(),
})
export type AddCreditsResult = z.infer<typeof addCreditsData>
