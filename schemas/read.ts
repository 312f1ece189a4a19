/**
 * Tolerant readers of API responses (design.md §1: strict writer, tolerant reader; issue #11).
 *
 * The client writes requests exactly as the spec says (./api.ts checks them). What it reads is
 * required to carry only what the spec names for it; every field that is our own guess (design.md
 * §3) is optional: found under our name or one of FIELD_ALIASES (./assumptions.ts), else null, and
 * shown as "—". Unknown fields are dropped. A response fails only where the spec leaves no doubt:
 * an identifier that is missing, or `data` of a list that is not a list.
 *
 * The emulator answers with the strict shapes of ./api.ts; these readers accept those and the
 * spec-minimal variant (`startSandbox({ variant: 'spec-minimal' })`) and any server in between.
 */
import { z } from 'zod'
import { FIELD_ALIASES, JOB_STATUS_ALIASES } from './assumptions'
import {
  billingStatusSchema,
  referredBusinessPage,
  referredBusinessRow,
  type AiTarget,
  type JobStatus,
  type ListResource,
} from './api'

// ---------------------------------------------------------------------------------------------
// Primitives
// ---------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>

export function isObject(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** Text: a string as is, a finite number written out; anything else is null. */
export function text(v: unknown): string | null {
  if (typeof v === 'string') return v
  if (typeof v === 'number' && Number.isFinite(v)) return String(v)
  return null
}

/** A non-empty identifier (a string, or a whole number written out); anything else is null. */
export function ident(v: unknown): string | null {
  const t = typeof v === 'number' && !Number.isInteger(v) ? null : text(v)
  return t !== null && t.trim() !== '' ? t.trim() : null
}

const NUMERIC = /^[-+]?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/

/** A number: a finite number, or text that is exactly one ("12.50"); anything else is null. */
export function num(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null
  if (typeof v === 'string' && NUMERIC.test(v.trim())) {
    const n = Number(v.trim())
    return Number.isFinite(n) ? n : null
  }
  return null
}

/** The first of `names` that `o` carries with a value (not undefined, not null). */
export function pick(o: Obj, names: readonly string[]): unknown {
  for (const n of names) {
    const v = o[n]
    if (v !== undefined && v !== null) return v
  }
  return undefined
}

const pickText = (o: Obj, names: readonly string[]) => text(pick(o, names))
const pickNum = (o: Obj, names: readonly string[]) => num(pick(o, names))

/** The required identifier of a read, under `uuid` (or `id`), as text. */
const idField = z.union([z.string().trim().min(1), z.number().int()], {
  error: 'must be the identifier of the record (text)',
})

/** An object whose `uuid` (or, failing that, `id`) is present; every other field is read by `read`. */
function withUuid<T>(read: (o: Obj, uuid: string) => T) {
  return z.preprocess(
    (v) => (isObject(v) && v.uuid === undefined && v.id !== undefined ? { ...v, uuid: v.id } : v),
    z
      .looseObject({ uuid: idField }, { error: 'must be an object (a record)' })
      .transform((o) => read(o, String(o.uuid).trim())),
  )
}

// ---------------------------------------------------------------------------------------------
// Records (fields not shown by the spec: every one but uuid optional)
// ---------------------------------------------------------------------------------------------

export interface RecordRead {
  uuid: string
  source_uuid: string | null
  resource_type: string | null
  date: string | null
  narration: string | null
  amount: number | null
  currency: string | null
  contact: string | null
  memo: string | null
  attachment_name: string | null
  status: string | null
  created_at: string | null
  updated_at: string | null
}

export function readRecord(o: Obj, uuid: string): RecordRead {
  return {
    uuid,
    source_uuid: ident(o.source_uuid),
    resource_type: text(o.resource_type),
    date: text(o.date),
    narration: text(o.narration),
    amount: num(o.amount),
    currency: pickText(o, FIELD_ALIASES.currency),
    contact: text(o.contact),
    memo: text(o.memo),
    attachment_name: text(o.attachment_name),
    status: text(o.status),
    created_at: text(o.created_at),
    updated_at: text(o.updated_at),
  }
}

export const recordRead = withUuid(readRecord)

/**
 * An update answer (2.10: "at least uuid and narration"): those two, plus only the other record
 * fields the server sent, so a caller can merge it into the row it shows without blanking anything.
 */
export type UpdatedRecordRead = Partial<RecordRead> & { uuid: string; narration: string | null }

export const updatedRecordRead = withUuid((o, uuid): UpdatedRecordRead => {
  const full = readRecord(o, uuid)
  const out: UpdatedRecordRead = { uuid, narration: full.narration }
  for (const [k, v] of Object.entries(full) as [keyof RecordRead, unknown][]) {
    if (v !== null && k !== 'uuid') Object.assign(out, { [k]: v })
  }
  return out
})

// ---------------------------------------------------------------------------------------------
// 2.9 Invoice: the single read names ten fields; list elements and the element fields: not shown
// ---------------------------------------------------------------------------------------------

export interface InvoiceItemRead {
  item_name: string | null
  quantity: number | null
  selling_price: number | null
  tax: number | null
  amount: number | null
}

export interface PaymentRead {
  uuid: string | null
  date: string | null
  amount: number | null
  method: string | null
}

export interface InvoiceRead {
  uuid: string
  source_uuid: string | null
  date: string | null
  due_date: string | null
  narration: string | null
  total_amount: number | null
  amount_paid: number | null
  /** The server's balance; without one, total − paid when both are known. */
  balance: number | null
  currency: string | null
  status: string | null
  contact: string | null
  record_items: InvoiceItemRead[]
  payments: PaymentRead[]
}

function readItem(o: Obj): InvoiceItemRead {
  return {
    item_name: pickText(o, FIELD_ALIASES.itemName),
    quantity: pickNum(o, FIELD_ALIASES.quantity),
    selling_price: pickNum(o, FIELD_ALIASES.unitPrice),
    tax: pickNum(o, FIELD_ALIASES.taxRate),
    amount: pickNum(o, FIELD_ALIASES.lineAmount),
  }
}

function readPayment(o: Obj): PaymentRead {
  return {
    uuid: ident(pick(o, FIELD_ALIASES.paymentId)),
    date: pickText(o, FIELD_ALIASES.paymentDate),
    amount: pickNum(o, FIELD_ALIASES.paymentAmount),
    method: pickText(o, FIELD_ALIASES.paymentMethod),
  }
}

/** The objects of a list field; anything else (absent, not a list, non-object elements) is dropped. */
function objects(v: unknown): Obj[] {
  return Array.isArray(v) ? v.filter(isObject) : []
}

function roundCents(n: number): number {
  return Math.round((n + Number.EPSILON) * 100) / 100
}

export function readInvoice(o: Obj, uuid: string): InvoiceRead {
  const total = num(o.total_amount) ?? num(o.amount)
  const paid = num(o.amount_paid)
  const balance = num(o.balance) ?? (total !== null && paid !== null ? roundCents(total - paid) : null)
  return {
    uuid,
    source_uuid: ident(o.source_uuid),
    date: text(o.date),
    due_date: text(o.due_date),
    narration: text(o.narration),
    total_amount: total,
    amount_paid: paid,
    balance,
    currency: pickText(o, FIELD_ALIASES.currency),
    status: text(o.status),
    contact: text(o.contact) ?? text(o.customer),
    record_items: objects(o.record_items).map(readItem),
    payments: objects(o.payments).map(readPayment),
  }
}

export const invoiceRead = withUuid(readInvoice)

// ---------------------------------------------------------------------------------------------
// Bank transactions and purchase orders (list and single reads: not shown)
// ---------------------------------------------------------------------------------------------

export interface BankTransactionRead {
  uuid: string
  source_uuid: string | null
  date: string | null
  amount: number | null
  narration: string | null
  currency: string | null
  bank: string | null
  created_at: string | null
}

export const bankTransactionRead = withUuid((o, uuid): BankTransactionRead => ({
  uuid,
  source_uuid: ident(o.source_uuid),
  date: text(o.date),
  amount: num(o.amount),
  narration: text(o.narration),
  currency: pickText(o, FIELD_ALIASES.currency),
  bank: text(o.bank),
  created_at: text(o.created_at),
}))

export interface LineItemRead extends InvoiceItemRead {
  description: string | null
  category: string | null
}

export interface PurchaseOrderRead {
  uuid: string
  transaction_type: string | null
  status: string | null
  document_number: string | null
  narration: string | null
  amount: number | null
  currency: string | null
  date: string | null
  delivery_date: string | null
  customer: string | null
  memo: string | null
  exchange_rate: number | null
  branch_uuid: string | null
  department_uuid: string | null
  project_uuid: string | null
  items: LineItemRead[]
  created_at: string | null
}

export const purchaseOrderRead = withUuid((o, uuid): PurchaseOrderRead => ({
  uuid,
  transaction_type: text(o.transaction_type),
  status: text(o.status),
  document_number: text(o.document_number),
  narration: text(o.narration),
  amount: num(o.amount),
  currency: pickText(o, FIELD_ALIASES.currency),
  date: text(o.date),
  delivery_date: text(o.delivery_date),
  customer: text(o.customer) ?? text(o.vendor),
  memo: text(o.memo),
  exchange_rate: num(o.exchange_rate),
  branch_uuid: ident(o.branch_uuid),
  department_uuid: ident(o.department_uuid),
  project_uuid: ident(o.project_uuid),
  items: objects(o.items).map((i) => ({
    ...readItem(i),
    description: text(i.description),
    category: text(i.category),
  })),
  created_at: text(o.created_at),
}))

/** The reader of each list resource's rows and single reads. */
export const RESOURCE_READERS = {
  'purchase-orders': purchaseOrderRead,
  invoices: invoiceRead,
  expenses: recordRead,
  bills: recordRead,
  income: recordRead,
  journals: recordRead,
  contacts: recordRead,
  'bank-transactions': bankTransactionRead,
} as const satisfies Record<ListResource, z.ZodType>
export type ResourceRead<R extends ListResource> = z.output<(typeof RESOURCE_READERS)[R]>

const { 'purchase-orders': _purchaseOrders, ...RECORD_READERS } = RESOURCE_READERS

/**
 * What a direct AI create's resource is read as, per target: as its list rows are (chart of
 * accounts, which has no list: a generic record).
 */
export const DIRECT_READERS = {
  ...RECORD_READERS,
  accounts: recordRead,
} as const satisfies Record<AiTarget, z.ZodType>
export type DirectRead<T extends AiTarget> = z.output<(typeof DIRECT_READERS)[T]>

// ---------------------------------------------------------------------------------------------
// Lists: `data` must be a list (2.1); `meta` is optional
// ---------------------------------------------------------------------------------------------

export interface PageMetaRead {
  page: number
  limit: number
  /** null when the server sends no total: screens then speak of the page's own length. */
  total: number | null
}

/** Page meta from an optional `meta`: what it says when it says it, else the page and limit asked for. */
export function readPageMeta(meta: unknown, asked: { page: number; limit: number }): PageMetaRead {
  const m = isObject(meta) ? meta : {}
  const whole = (v: number | null, min: number) => (v !== null && Number.isInteger(v) && v >= min ? v : null)
  return {
    page: whole(pickNum(m, FIELD_ALIASES.pageNumber), 1) ?? asked.page,
    limit: whole(pickNum(m, FIELD_ALIASES.pageLimit), 1) ?? asked.limit,
    total: whole(pickNum(m, FIELD_ALIASES.pageTotal), 0),
  }
}

// ---------------------------------------------------------------------------------------------
// auth/validate (response fields not shown): a 200 means the key works
// ---------------------------------------------------------------------------------------------

export interface AuthValidateRead {
  business_uuid: string | null
  name: string | null
  currency: string | null
  country: string | null
}

/** The business of the key when recognisable, at the top of `data` or in `data.business`. */
export function readAuthValidate(data: unknown): AuthValidateRead {
  const top = isObject(data) ? data : {}
  const nested = isObject(top.business) ? top.business : {}
  const nonEmpty = (v: string | null) => (v !== null && v.trim() !== '' ? v.trim() : null)
  return {
    business_uuid:
      ident(pick(top, FIELD_ALIASES.businessUuid)) ?? ident(pick(nested, FIELD_ALIASES.businessUuidNested)),
    name: nonEmpty(pickText(top, FIELD_ALIASES.businessName) ?? pickText(nested, FIELD_ALIASES.businessName)),
    currency: nonEmpty(pickText(top, FIELD_ALIASES.currency) ?? pickText(nested, FIELD_ALIASES.currency)),
    country: nonEmpty(pickText(top, FIELD_ALIASES.country) ?? pickText(nested, FIELD_ALIASES.country)),
  }
}

// ---------------------------------------------------------------------------------------------
// Jobs (not shown) and AI create answers (2.5: async names process_type and job_reference;
// the direct shape is not shown)
// ---------------------------------------------------------------------------------------------

export interface JobRead {
  job_reference: string | null
  /** `unknown`: the server sent a status the client does not recognise, or none. */
  status: JobStatus | 'unknown'
  resource_type: string | null
  /** The (first) record the job created, when the server says. */
  resource_uuid: string | null
  resource_uuids: string[]
  /** Null, or the reason a job failed. */
  message: string | null
  created_at: string | null
  updated_at: string | null
}

function jobStatus(v: unknown): JobStatus | 'unknown' {
  const s =
    typeof v === 'string'
      ? v
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_')
      : ''
  return (JOB_STATUS_ALIASES as Record<string, JobStatus>)[s] ?? 'unknown'
}

function messageOf(v: unknown): string | null {
  if (isObject(v)) return text(v.message)
  return text(v)
}

/**
 * True when `data` can be a job's answer: an object naming the job's status, its reference, or its
 * record(s) under our names or an alias. A success envelope without any of them (a maintenance
 * notice in JSON) is not the API's answer about a job.
 */
export function looksLikeJob(data: unknown): boolean {
  if (!isObject(data)) return false
  return [
    FIELD_ALIASES.jobStatus,
    FIELD_ALIASES.jobReference,
    FIELD_ALIASES.jobRecordUuid,
    FIELD_ALIASES.jobRecordUuids,
  ].some((names) => pick(data, names) !== undefined) || [data.resource, data.record, data.result].some(isObject)
}

export function readJob(data: unknown): JobRead {
  const o = isObject(data) ? data : {}
  const nested = [o.resource, o.record, o.result].find(isObject)
  const listed = pick(o, FIELD_ALIASES.jobRecordUuids)
  const uuids = (Array.isArray(listed) ? listed : []).map(ident).filter((u): u is string => u !== null)
  const first =
    ident(pick(o, FIELD_ALIASES.jobRecordUuid)) ??
    (nested ? ident(nested.uuid ?? nested.id) : null) ??
    uuids[0] ??
    null
  if (first !== null && !uuids.includes(first)) uuids.unshift(first)
  let status = jobStatus(pick(o, FIELD_ALIASES.jobStatus))
  // No status at all, but a created record named: the job is done.
  if (status === 'unknown' && pick(o, FIELD_ALIASES.jobStatus) === undefined && first !== null)
    status = 'completed'
  return {
    job_reference: ident(pick(o, FIELD_ALIASES.jobReference)),
    status,
    resource_type: text(o.resource_type) ?? (nested ? text(nested.resource_type) : null),
    resource_uuid: first,
    resource_uuids: uuids,
    message: status === 'completed' ? null : messageOf(pick(o, FIELD_ALIASES.jobMessage)),
    created_at: text(o.created_at),
    updated_at: text(o.updated_at),
  }
}

export type AiCreateRead<T extends AiTarget> =
  | { process_type: 'async'; job_reference: string }
  | { process_type: 'direct'; record: DirectRead<T> }
  /** The server accepted the create but said nothing the client can follow: no job, no record. */
  | { process_type: 'untracked' }

function jobReferenceOf(o: Obj): string | null {
  const direct = ident(pick(o, FIELD_ALIASES.jobReference))
  if (direct !== null) return direct
  const job = o.job
  if (isObject(job)) return ident(pick(job, FIELD_ALIASES.jobReferenceNested))
  return ident(job)
}

/** How a record may sit in a direct answer: `data` itself, wrapped, or first of a list. */
function recordCandidates(data: unknown): Obj[] {
  if (Array.isArray(data)) return data.filter(isObject).slice(0, 1)
  if (!isObject(data)) return []
  const out: Obj[] = [data]
  for (const k of FIELD_ALIASES.directRecord) {
    const v = data[k]
    if (isObject(v)) out.push(v)
    else if (Array.isArray(v) && isObject(v[0])) out.push(v[0])
  }
  const listed = pick(data, FIELD_ALIASES.jobRecordUuids)
  const one =
    ident(pick(data, FIELD_ALIASES.jobRecordUuid)) ?? (Array.isArray(listed) ? ident(listed[0]) : null)
  if (one !== null) out.push({ uuid: one })
  return out
}

/**
 * An AI create's `data`: an async job when it names a job reference (unless it says direct and
 * carries a record), a direct record when a record can be found, else `untracked`.
 */
export function readAiCreate<T extends AiTarget>(target: T, data: unknown): AiCreateRead<T> {
  const o = isObject(data) ? data : {}
  const ref = jobReferenceOf(o)
  const reader = DIRECT_READERS[target] as unknown as z.ZodType<DirectRead<T>>
  const record = () => {
    for (const c of recordCandidates(data)) {
      const r = reader.safeParse(c)
      if (r.success) return r.data
    }
    return null
  }
  if (ref !== null && o.process_type !== 'direct') return { process_type: 'async', job_reference: ref }
  const rec = record()
  if (rec !== null) return { process_type: 'direct', record: rec }
  if (ref !== null) return { process_type: 'async', job_reference: ref }
  return { process_type: 'untracked' }
}

// ---------------------------------------------------------------------------------------------
// add-credits (body and response not shown)
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Partner reads (2.7 names every field and its type: required). The one loosening: a timestamp
// is read as any text, not only with the microseconds 2.7 shows.
// ---------------------------------------------------------------------------------------------

const anyTimestamp = z.string().nullable()
export const billingStatusRead = billingStatusSchema.extend({ subscription_expires_at: anyTimestamp })
export const referredBusinessPageRead = referredBusinessPage.extend({
  data: z.array(referredBusinessRow.extend({ subscription_expires_at: anyTimestamp })),
})
