/**
 * The one source of truth for every payload of the bookkeeping API (api-spec.md Parts 2 to 8).
 *
 * Used by the typed client (requests are checked before they leave the machine), by the emulator
 * (requests are checked on arrival, responses are built from these types) and by the renderer's
 * forms (the same messages the server would give). Never write a payload shape twice.
 *
 * Where the spec says "not shown", the choice is made in ./assumptions.ts and listed in README.
 */
import { z } from 'zod'
import { BANK_UPLOAD_KINDS, fileKind } from './routes'
import { LIMITS } from './assumptions'

// ---------------------------------------------------------------------------------------------
// Primitives
// ---------------------------------------------------------------------------------------------

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/

/** True when `s` is a real calendar date written YYYY-MM-DD (2023-02-29 is not). */
export function isCalendarDate(s: string): boolean {
  const m = DATE_RE.exec(s)
  if (!m) return false
  const y = Number(m[1])
  const mo = Number(m[2])
  const d = Number(m[3])
  if (mo < 1 || mo > 12 || d < 1) return false
  const dim = new Date(Date.UTC(y, mo, 0)).getUTCDate()
  return d <= dim
}

export const calendarDate = z
  .string({ error: 'must be a date written YYYY-MM-DD' })
  .refine(isCalendarDate, { error: 'must be a real calendar date written YYYY-MM-DD' })

/** IANA-style zone name ("Africa/Lagos", "UTC"), as the runtime's time zone database knows it. */
export function isIanaTimeZone(tz: string): boolean {
  if (!tz || (tz !== 'UTC' && !tz.includes('/'))) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

export const currencyCode = z
  .string({ error: 'must be a three-letter ISO 4217 currency code such as NGN or USD' })
  .regex(/^[A-Z]{3}$/, { error: 'must be a three-letter ISO 4217 currency code such as NGN or USD' })

export const countryCode = z
  .string({ error: 'must be a two-letter ISO 3166 country code such as NG or US' })
  .regex(/^[A-Z]{2}$/, { error: 'must be a two-letter ISO 3166 country code such as NG or US' })

const nonEmpty = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(1, { error: `${what} must not be empty` })

const percentage = (what: string) =>
  z
    .number({ error: `${what} must be a number (a percentage: 7.5 means 7.5%)` })
    .min(0, { error: `${what} must be 0 or more (a percentage: 7.5 means 7.5%)` })
    .max(100, { error: `${what} must be 100 or less (a percentage: 7.5 means 7.5%)` })

// ---------------------------------------------------------------------------------------------
// 2.1 Envelopes
// ---------------------------------------------------------------------------------------------

export const metaSchema = z.record(z.string(), z.unknown())

function buildSuccessEnvelope<T extends z.ZodType>(data: T) {
  return z.object({
    status: z.literal('success'),
    message: z.string(),
    data,
    meta: metaSchema.optional(),
  })
}

const envelopes = new WeakMap<z.ZodType, z.ZodType>()

/** The success envelope around `data`; built once per data schema (building zod objects is not free). */
export function successEnvelope<T extends z.ZodType>(data: T): ReturnType<typeof buildSuccessEnvelope<T>> {
  let e = envelopes.get(data)
  if (!e) {
    e = buildSuccessEnvelope(data)
    envelopes.set(data, e)
  }
  return e as ReturnType<typeof buildSuccessEnvelope<T>>
}

/** A success envelope with no `data` (DELETE bank transaction). */
export const emptySuccessEnvelope = z.object({
  status: z.literal('success'),
  message: z.string(),
  meta: metaSchema.optional(),
})

export const failureEnvelope = z.object({
  status: z.literal('failed'),
  message: z.string(),
  error_code: z.string().optional(),
})
export type FailureEnvelope = z.infer<typeof failureEnvelope>

export const pageMeta = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
})
export type PageMeta = z.infer<typeof pageMeta>

// ---------------------------------------------------------------------------------------------
// 2.3 Line item (aliases: name → item_name, price → selling_price)
// ---------------------------------------------------------------------------------------------

export const DISCOUNT_TYPES = ['percent', 'amount', 'fixed'] as const

/** Copies an alias into its canonical field when the canonical one is absent; drops the alias. */
function foldAliases(aliases: Record<string, string>) {
  return (input: unknown): unknown => {
    if (!input || typeof input !== 'object' || Array.isArray(input)) return input
    const out: Record<string, unknown> = { ...(input as Record<string, unknown>) }
    for (const [alias, canonical] of Object.entries(aliases)) {
      if (out[canonical] === undefined && out[alias] !== undefined) out[canonical] = out[alias]
      delete out[alias]
    }
    return out
  }
}

const lineItemCore = z
  .object({
    item_name: nonEmpty('item_name (alias: name)'),
    quantity: z
      .number({ error: 'quantity must be a number' })
      .positive({ error: 'quantity must be greater than 0' }),
    selling_price: z
      .number({ error: 'selling_price (alias: price) must be a number' })
      .min(0, { error: 'selling_price (alias: price) must be 0 or more' }),
    category: z.string().optional(),
    description: z.string().optional(),
    tax: percentage('tax').optional(),
    tax_uuid: z.string().optional(),
    withholding_tax: percentage('withholding_tax').optional(),
    withholding_tax_uuid: z.string().optional(),
    discount: z
      .number({ error: 'discount must be a number' })
      .min(0, { error: 'discount must be 0 or more' })
      .optional(),
    discount_type: z
      .enum(DISCOUNT_TYPES, { error: 'discount_type must be one of percent, amount, fixed' })
      .optional(),
    is_inventory: z.boolean({ error: 'is_inventory must be true or false' }).optional(),
    uuid: z.string().optional(),
  })
  .superRefine((item, ctx) => {
    if (item.discount !== undefined && item.discount > 0 && item.discount_type === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['discount_type'],
        message: 'discount_type is required with a discount: percent, amount or fixed',
      })
    }
    if (item.discount_type === 'percent' && (item.discount ?? 0) > 100) {
      ctx.addIssue({ code: 'custom', path: ['discount'], message: 'a percent discount must be 100 or less' })
    }
    if (item.is_inventory === true && !item.uuid) {
      ctx.addIssue({
        code: 'custom',
        path: ['uuid'],
        message: 'uuid of the inventory item is required when is_inventory is true',
      })
    }
  })

export const lineItemSchema = z.preprocess(
  foldAliases({ name: 'item_name', price: 'selling_price' }),
  lineItemCore,
)
export type LineItem = z.infer<typeof lineItemCore>
/** What a caller may write: canonical names or their aliases. */
export type LineItemInput = Omit<LineItem, 'item_name' | 'selling_price'> &
  ({ item_name: string } | { name: string }) &
  ({ selling_price: number } | { price: number })

/** Amounts of one line: gross = quantity × price; less discount; plus tax; withholding shown apart. */
export function lineAmounts(item: LineItem): { gross: number; discount: number; tax: number; net: number } {
  const gross = item.quantity * item.selling_price
  const d = item.discount ?? 0
  const discount = item.discount_type === 'percent' ? (gross * d) / 100 : Math.min(d, gross)
  const taxable = gross - discount
  const tax = (taxable * (item.tax ?? 0)) / 100
  return { gross, discount, tax, net: taxable + tax }
}

/** Rounds a currency amount to cents, avoiding binary noise (0.1 + 0.2). */
export function roundMoney(n: number): number {
  return Math.round((n + Number.EPSILON) * 100) / 100
}

export function documentAmount(items: LineItem[]): number {
  return roundMoney(items.reduce((sum, it) => sum + lineAmounts(it).net, 0))
}

// ---------------------------------------------------------------------------------------------
// 2.2 Purchase order (alias: vendor → customer)
// ---------------------------------------------------------------------------------------------

const dimension = (what: string) =>
  z
    .string({ error: `${what} must be text or null` })
    .nullable()
    .optional()

const purchaseOrderCore = z
  .object({
    date: calendarDate,
    delivery_date: calendarDate.optional(),
    currency: currencyCode.optional(),
    document_number: nonEmpty('document_number').optional(),
    narration: z.string().optional(),
    memo: z.string().optional(),
    customer: nonEmpty('customer (alias: vendor)').optional(),
    exchange_rate: z
      .number({ error: 'exchange_rate must be a number' })
      .positive({ error: 'exchange_rate must be greater than 0' })
      .optional(),
    status: z
      .enum(['draft'], { error: 'status can only be draft when a purchase order is created' })
      .optional(),
    branch_uuid: dimension('branch_uuid'),
    department_uuid: dimension('department_uuid'),
    project_uuid: dimension('project_uuid'),
    items: z
      .array(lineItemSchema, { error: 'items is required: a list of at least one line item' })
      .min(1, { error: 'items must have at least 1 line item' })
      .max(LIMITS.maxItems, { error: `items can have at most ${LIMITS.maxItems} line items` }),
  })
  .superRefine((po, ctx) => {
    if (po.delivery_date && po.delivery_date < po.date) {
      ctx.addIssue({
        code: 'custom',
        path: ['delivery_date'],
        message: 'delivery_date must be on or after date',
      })
    }
  })

export const purchaseOrderSchema = z.preprocess(foldAliases({ vendor: 'customer' }), purchaseOrderCore)
export type PurchaseOrder = z.infer<typeof purchaseOrderCore>
export type PurchaseOrderInput = Omit<PurchaseOrder, 'items' | 'customer'> & {
  customer?: string
  vendor?: string
  items: LineItemInput[]
}

export const purchaseOrderData = z.object({
  uuid: z.string(),
  transaction_type: z.literal('purchase_order'),
  status: z.string(),
  document_number: z.string(),
  narration: z.string(),
  amount: z.number(),
  currency: z.string(),
})
export type PurchaseOrderData = z.infer<typeof purchaseOrderData>

/** What the emulator and single reads return for a purchase order (2.2 data plus its lines). */
export const purchaseOrderRecord = purchaseOrderData.extend({
  date: z.string(),
  delivery_date: z.string().nullable(),
  customer: z.string().nullable(),
  memo: z.string().nullable(),
  exchange_rate: z.number(),
  branch_uuid: z.string().nullable(),
  department_uuid: z.string().nullable(),
  project_uuid: z.string().nullable(),
  items: z.array(lineItemCore),
  created_at: z.string(),
})
export type PurchaseOrderRecord = z.infer<typeof purchaseOrderRecord>

// ---------------------------------------------------------------------------------------------
// 2.4 Attachment and 2.5 AI create body
// ---------------------------------------------------------------------------------------------

export const ATTACHMENT_TYPES = ['base64', 'url', 'raw'] as const

export const attachmentSchema = z
  .object(
    {
      file: z
        .string({ error: 'file must be text: the content, read as type says' })
        .min(1, { error: 'file must not be empty' }),
      type: z.enum(ATTACHMENT_TYPES, {
        error: 'type is required: base64, url or raw (a bare string is never taken as Base64)',
      }),
      name: z.string().optional(),
    },
    { error: 'each attachment must be an object {file, type, name}, never a bare string or URL' },
  )
  .superRefine((a, ctx) => {
    if (a.type === 'base64') {
      if (a.file.startsWith('data:')) {
        ctx.addIssue({
          code: 'custom',
          path: ['file'],
          message: 'base64 file must be plain Base64 without a data:...;base64, prefix',
        })
      } else if (!/^[A-Za-z0-9+/]*={0,2}$/.test(a.file) || a.file.length % 4 !== 0) {
        ctx.addIssue({ code: 'custom', path: ['file'], message: 'file is not valid standard Base64' })
      }
    }
    if (a.type === 'url' && !/^https:\/\/[^\s]+$/i.test(a.file)) {
      ctx.addIssue({
        code: 'custom',
        path: ['file'],
        message: 'a url attachment must be a public https:// URL',
      })
    }
  })
export type Attachment = z.infer<typeof attachmentSchema>

export const PROCESS_TYPES = ['async', 'direct'] as const

const aiCreateFields = {
  prompt: nonEmpty('prompt'),
  attachments: z
    .array(attachmentSchema, { error: 'attachments must be a list of attachment objects' })
    .max(LIMITS.maxAttachments, { error: `at most ${LIMITS.maxAttachments} attachments per request` })
    .optional(),
  text_attachment: z.string({ error: 'text_attachment must be text' }).optional(),
  process_type: z.enum(PROCESS_TYPES, { error: 'process_type must be async or direct' }).optional(),
}

export const aiCreateSchema = z.object(aiCreateFields)
export type AiCreateBody = z.infer<typeof aiCreateSchema>


export const bankUploadSchema = z
  .object({
    ...aiCreateFields,
    prompt: z
      .string({ error: 'prompt is required on a bank statement upload' })
      .trim()
      .min(1, { error: 'prompt is required on a bank statement upload' }),
  })
  .superRefine((body, ctx) => {
    body.attachments?.forEach((a, i) => {
      const kind = fileKind(a.name)
      if (!(BANK_UPLOAD_KINDS as readonly string[]).includes(kind)) {
        ctx.addIssue({
          code: 'custom',
          path: ['attachments', i, 'name'],
          message: `${a.name ? `"${a.name}"` : 'an attachment without a name'} is not an accepted statement file: allowed kinds are ${BANK_UPLOAD_KINDS.join(', ')}`,
        })
      }
    })
  })

export const asyncJobData = z.object({
  process_type: z.literal('async'),
  job_reference: z.string(),
})
export type AsyncJobData = z.infer<typeof asyncJobData>

/** Resources with list and single reads (design.md §3). */
export const LIST_RESOURCES = [
  'purchase-orders',
  'invoices',
  'expenses',
  'bills',
  'income',
  'journals',
  'contacts',
  'bank-transactions',
] as const
export type ListResource = (typeof LIST_RESOURCES)[number]

// ---------------------------------------------------------------------------------------------
// Records built by AI creates ("not shown" fields: our choice, see assumptions.ts)
// ---------------------------------------------------------------------------------------------

export const recordSchema = z.object({
  uuid: z.string(),
  source_uuid: z.string().nullable(),
  resource_type: z.string(),
  date: z.string(),
  narration: z.string(),
  amount: z.number(),
  currency: z.string(),
  contact: z.string().nullable(),
  memo: z.string().nullable(),
  attachment_name: z.string().nullable(),
  status: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
})
export type ApiRecord = z.infer<typeof recordSchema>

export const JOB_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const
export type JobStatus = (typeof JOB_STATUSES)[number]

export const jobSchema = z.object({
  job_reference: z.string(),
  status: z.enum(JOB_STATUSES),
  resource_type: z.string(),
  resource_uuid: z.string().nullable(),
  message: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
})
export type Job = z.infer<typeof jobSchema>

// ---------------------------------------------------------------------------------------------
// 2.10 Expense / bill updates (field names "not shown": our choice)
// ---------------------------------------------------------------------------------------------

const updateFields = {
  narration: nonEmpty('narration'),
  date: calendarDate,
  memo: z.string({ error: 'memo must be text' }),
  amount: z.number({ error: 'amount must be a number' }).min(0, { error: 'amount must be 0 or more' }),
  currency: currencyCode,
  contact: z.string({ error: 'contact must be text' }),
}

export const recordPatchSchema = z
  .object(updateFields)
  .partial()
  .strict()
  .refine((o) => Object.keys(o).length > 0, {
    error: `send at least one field to change: ${Object.keys(updateFields).join(', ')}`,
  })
export type RecordPatch = z.infer<typeof recordPatchSchema>

export const recordPutSchema = z
  .object({ ...updateFields, memo: updateFields.memo.optional(), contact: updateFields.contact.optional() })
  .partial({ amount: true, currency: true })
  .strict()
export type RecordPut = z.infer<typeof recordPutSchema>

export const updatedRecordData = z.object({ uuid: z.string(), narration: z.string() }).loose()

// ---------------------------------------------------------------------------------------------
// 2.9 Invoice (single read); record_items and payments elements "not shown": our choice
// ---------------------------------------------------------------------------------------------

export const invoiceItemSchema = z.object({
  item_name: z.string(),
  quantity: z.number(),
  selling_price: z.number(),
  tax: z.number().nullable(),
  amount: z.number(),
})
export const paymentSchema = z.object({
  uuid: z.string(),
  date: z.string(),
  amount: z.number(),
  method: z.string().nullable(),
})

export const invoiceSchema = z.object({
  uuid: z.string(),
  source_uuid: z.string().nullable(),
  date: z.string(),
  due_date: z.string(),
  narration: z.string(),
  total_amount: z.number(),
  amount_paid: z.number(),
  balance: z.number(),
  currency: z.string(),
  record_items: z.array(invoiceItemSchema),
  payments: z.array(paymentSchema),
})
export type Invoice = z.infer<typeof invoiceSchema>

// ---------------------------------------------------------------------------------------------
// Bank transaction (fields "not shown": our choice)
// ---------------------------------------------------------------------------------------------

export const bankTransactionSchema = z.object({
  uuid: z.string(),
  source_uuid: z.string().nullable(),
  date: z.string(),
  amount: z.number(),
  narration: z.string(),
  currency: z.string(),
  created_at: z.string(),
})
export type BankTransaction = z.infer<typeof bankTransactionSchema>

// ---------------------------------------------------------------------------------------------
// Paging (Part 8 and design.md §3)
// ---------------------------------------------------------------------------------------------

/** Query-string integers arrive as text; accept "3" and 3, refuse "3.5", "", "x". */
const queryInt = (what: string, min: number, max: number, dflt: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v),
    z
      .number({ error: `${what} must be a whole number from ${min} to ${max}` })
      .int({ error: `${what} must be a whole number from ${min} to ${max}` })
      .min(min, { error: `${what} must be ${min} or more` })
      .max(max, { error: `${what} must be ${max} or less` })
      .default(dflt),
  )

export const listQuerySchema = z.object({
  page: queryInt('page', 1, Number.MAX_SAFE_INTEGER, 1),
  limit: queryInt('limit', 1, LIMITS.maxPageSize, LIMITS.defaultPageSize),
  date_order: z.enum(['asc', 'desc'], { error: 'date_order must be asc or desc' }).default('desc'),
  search: z.string().optional(),
  status: z.string().optional(),
  /** Bank transactions of one bank account (uuid); rows of no bank never match. */
  bank: z.string().optional(),
  /** Rows of one schema: money_in or money_out, an account class, or a resource type. */
  schema: z.string().optional(),
})
export type ListQuery = z.input<typeof listQuerySchema>

export const referredListQuerySchema = z.object({
  page: queryInt('page', 1, Number.MAX_SAFE_INTEGER, 1),
  limit: queryInt('limit', 1, LIMITS.maxPageSize, LIMITS.defaultPageSize),
})
export type ReferredListQuery = z.input<typeof referredListQuerySchema>

// ---------------------------------------------------------------------------------------------
// Auth validate (design.md §3)
// ---------------------------------------------------------------------------------------------

export const authValidateData = z.object({
  business_uuid: z.string(),
  name: z.string(),
  currency: z.string(),
  country: z.string(),
})
export type AuthValidateData = z.infer<typeof authValidateData>

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

// ---------------------------------------------------------------------------------------------
// Messages
// ---------------------------------------------------------------------------------------------

/** One readable sentence from a zod error: "items.0.quantity: quantity must be greater than 0; …". */
export function describeIssues(error: z.core.$ZodError): string {
  return error.issues
    .map((i) => {
      const path = i.path.map(String).join('.')
      return path ? `${path}: ${i.message}` : i.message
    })
    .join('; ')
}

/** Field path → first message, for forms. */
export function issuesByField(error: z.core.$ZodError): Record<string, string> {
  const out: Record<string, string> = {}
  for (const i of error.issues) {
    const path = i.path.map(String).join('.')
    out[path] ??= i.message
  }
  return out
}

export { AI_CREATE_ROUTES, AI_TARGETS, BANK_UPLOAD_KINDS, fileKind } from './routes'
export type { AiTarget } from './routes'
