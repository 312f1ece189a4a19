/**
 * The emulator's fixtures: partners, businesses, records, accounts, OAuth tokens, the rate limit and
 * the job delay a run starts with (`startSandbox({ fixtures })`, `npm run sandbox -- --fixtures`).
 */
import { z } from 'zod'
import { DEFAULT_RATE_LIMIT } from '../schemas'

/**
 * AI credits of a fixture business that does not say (emulator-only): plenty, so tests and
 * benchmarks are not limited by credits. A registered business starts with 0.
 */
export const DEFAULT_FIXTURE_CREDITS = 100_000

/** Classes of chart-of-accounts accounts: an account's `schema` for the list filter. */
export const ACCOUNT_CLASSES = ['asset', 'liability', 'equity', 'income', 'expense'] as const

/** A fixture list: an array of objects of this shape, empty when not given. */
const listOf = <S extends z.ZodRawShape>(shape: S) => z.array(z.object(shape)).default([])

/** What a fixture record, account or line starts with: its uuid (made up when missing), source_uuid and business. */
const owned = {
  uuid: z.string().optional(),
  source_uuid: z.string().nullable().default(null),
  business: z.string(),
}

/** The ledger account a line or record is posted to (uuid, name or code): makes that account "in use". */
const postedTo = z.string().nullable().default(null)

export const fixturesSchema = z.object({
  partners: listOf({
    name: z.string().default('Partner'),
    key: z.string().startsWith('svc_partner_sk_', {
      error: 'must be a partner secret key starting with svc_partner_sk_',
    }),
    holding_credits: z.number().min(0).default(0),
    /** The partner's own subscription; once past, grants fail (add-seats' sixth failure). */
    subscription_expires_at: z
      .string()
      .refine((t) => !Number.isNaN(Date.parse(t)), { error: 'must be an ISO 8601 time' })
      .nullable()
      .default(null),
  }),
  businesses: listOf({
    uuid: z.string().optional(),
    name: z.string().default('Business'),
    email: z.string().optional(),
    key: z.string().startsWith('svc_sk_', { error: 'must be a business secret key starting with svc_sk_' }),
    public_key: z
      .string()
      .startsWith('svc_pk_', { error: 'must be a business public key starting with svc_pk_' })
      .optional(),
    currency: z.string().default('NGN'),
    country: z.string().default('NG'),
    timezone: z.string().default('Africa/Lagos'),
    developer_api: z.boolean().default(true),
    plus_subscription: z.boolean().default(false),
    credit_from_referral_partner: z.boolean().default(false),
    referred_by: z.string().nullable().default(null),
    credit_balance: z.number().default(DEFAULT_FIXTURE_CREDITS),
  }),
  invoices: listOf({
    ...owned,
    date: z.string(),
    due_date: z.string().optional(),
    narration: z.string().default(''),
    total_amount: z.number().default(0),
    amount_paid: z.number().default(0),
    currency: z.string().optional(),
  }),
  bank_transactions: listOf({
    ...owned,
    date: z.string(),
    amount: z.number(),
    narration: z.string().default(''),
    /** The bank account (an account uuid or name) the line belongs to: the `bank` list filter. */
    bank: z.string().nullable().default(null),
    account: postedTo,
  }),
  /** Other records (expenses, bills, journals, income, contacts), e.g. to give them a source_uuid. */
  records: listOf({
    resource: z.enum(['expenses', 'bills', 'journals', 'income', 'contacts']),
    ...owned,
    date: z.string(),
    narration: z.string().default(''),
    amount: z.number().default(0),
    contact: z.string().nullable().default(null),
    account: postedTo,
  }),
  /** Chart of accounts (Part 7 rule 1: a default or cashbook account cannot be deleted). */
  accounts: listOf({
    ...owned,
    name: z.string(),
    code: z.string().nullable().default(null),
    class: z.enum(ACCOUNT_CLASSES).default('expense'),
    default: z.boolean().default(false),
    cashbook: z.boolean().default(false),
  }),
  /** OAuth: a bearer token acting for a business when sent with an app key (steps not shown). */
  oauth_tokens: listOf({
    token: z.string(),
    app_key: z
      .string()
      .startsWith('svc_sk_', { error: "must be the app's business secret key (svc_sk_...)" }),
    business: z.string(),
  }),
  rate_limit: z
    .object({ limit: z.number().int().positive(), window_seconds: z.number().positive() })
    .default({ ...DEFAULT_RATE_LIMIT }),
  job_delay_ms: z.number().min(0).default(300),
})
export type Fixtures = z.input<typeof fixturesSchema>
export type AccountClass = (typeof ACCOUNT_CLASSES)[number]
export type ParsedFixtures = z.output<typeof fixturesSchema>
