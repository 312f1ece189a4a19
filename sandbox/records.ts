/**
 * Records of the emulator's AI-created resources: building them from extraction drafts, the shapes
 * single reads and lists answer with, updates, and the paging of lists (design.md §3).
 */
import { randomUUID } from 'node:crypto'
import {
  type ApiRecord,
  type Invoice,
  type PurchaseOrderRecord,
  type RecordPatch,
  type RecordPut,
  type listQuerySchema,
  roundMoney,
} from '../schemas'
import type { z } from 'zod'
import type { Draft } from './extract'
import {
  INITIAL_STATUS,
  RECORD_RESOURCE_TYPES,
  type Business,
  type RecordResource,
  type StoredPurchaseOrder,
  type StoredRecord,
  isoSeconds,
} from './state'

/** `resource_type` of each resource's records, as the seeded ones already use. */
export const RESOURCE_TYPES = RECORD_RESOURCE_TYPES

/** An AI-created invoice is due this many days after its date (not shown: our choice). */
export const INVOICE_DUE_DAYS = 30

export function addDays(date: string, days: number): string {
  const t = Date.parse(`${date}T00:00:00Z`) + days * 86_400_000
  return new Date(t).toISOString().slice(0, 10)
}

export function buildRecord(
  resource: RecordResource,
  business: Business,
  draft: Draft,
  attachmentName: string | null,
  now: number,
): StoredRecord {
  const rec: StoredRecord = {
    uuid: randomUUID(),
    source_uuid: null,
    business: business.uuid,
    resource_type: RESOURCE_TYPES[resource],
    date: draft.date,
    narration: draft.narration,
    amount: draft.amount,
    currency: draft.currency ?? business.currency,
    contact: draft.contact,
    memo: null,
    attachment_name: attachmentName,
    status: INITIAL_STATUS[resource],
    created_at: now,
    updated_at: now,
  }
  if (resource === 'invoices') {
    rec.due_date = addDays(draft.date, INVOICE_DUE_DAYS)
    rec.amount_paid = 0
    rec.record_items = [
      {
        item_name: draft.narration,
        quantity: 1,
        selling_price: draft.amount,
        tax: null,
        amount: draft.amount,
      },
    ]
    rec.payments = []
  }
  return rec
}

// ---------------------------------------------------------------------------------------------
// Read shapes
// ---------------------------------------------------------------------------------------------

export function recordData(rec: StoredRecord): ApiRecord {
  return {
    uuid: rec.uuid,
    source_uuid: rec.source_uuid,
    resource_type: rec.resource_type,
    date: rec.date,
    narration: rec.narration,
    amount: rec.amount,
    currency: rec.currency,
    contact: rec.contact,
    memo: rec.memo,
    attachment_name: rec.attachment_name,
    status: rec.status,
    created_at: isoSeconds(rec.created_at),
    updated_at: isoSeconds(rec.updated_at),
  }
}

/** The invoice of 2.9, plus the common record fields (status, contact, timestamps...). */
export type InvoiceData = Invoice & Omit<ApiRecord, 'amount'>

export function invoiceData(rec: StoredRecord): InvoiceData {
  const { amount, ...common } = recordData(rec)
  const paid = rec.amount_paid ?? 0
  return {
    ...common,
    due_date: rec.due_date ?? rec.date,
    total_amount: amount,
    amount_paid: paid,
    balance: roundMoney(amount - paid),
    record_items: (rec.record_items ?? []).map((i) => ({ ...i })),
    payments: (rec.payments ?? []).map((p) => ({ ...p })),
  }
}

/** The shape of a single read, a list element and a direct-mode create of `resource`. */
export function readData(resource: RecordResource, rec: StoredRecord): ApiRecord | InvoiceData {
  return resource === 'invoices' ? invoiceData(rec) : recordData(rec)
}

export function purchaseOrderView(po: StoredPurchaseOrder): PurchaseOrderRecord {
  const { business: _business, ...view } = po
  return view
}

// ---------------------------------------------------------------------------------------------
// Updates (2.10; field names are our choice, see recordPatchSchema / recordPutSchema)
// ---------------------------------------------------------------------------------------------

export function applyPatch(rec: StoredRecord, patch: RecordPatch, now: number): void {
  for (const [field, value] of Object.entries(patch) as [keyof RecordPatch, unknown][]) {
    if (value !== undefined) Object.assign(rec, { [field]: value })
  }
  rec.updated_at = now
}

/** PUT replaces the editable fields: an omitted memo or contact is cleared; amount and currency are kept. */
export function applyPut(rec: StoredRecord, put: RecordPut, now: number): void {
  rec.narration = put.narration
  rec.date = put.date
  rec.memo = put.memo ?? null
  rec.contact = put.contact ?? null
  if (put.amount !== undefined) rec.amount = put.amount
  if (put.currency !== undefined) rec.currency = put.currency
  rec.updated_at = now
}

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

export type ListQueryParsed = z.output<typeof listQuerySchema>

/**
 * How a list reads its rows: the date to order by, a tie-breaker, the searchable texts, the status,
 * the bank account (null when the row belongs to none) and the schema of the `schema` filter.
 */
export interface ListView<T> {
  date(row: T): string
  createdMs(row: T): number
  texts(row: T): (string | null | undefined)[]
  status(row: T): string
  bank(row: T): string | null
  schema(row: T): string
}

/**
 * A record's schema for the `schema` list filter (not shown; our choice): a bank transaction is
 * money_in (amount ≥ 0) or money_out; an account is its class; anything else its resource_type.
 */
export function schemaOf(rec: StoredRecord): string {
  if (rec.resource_type === 'bank_transaction') return rec.amount < 0 ? 'money_out' : 'money_in'
  return rec.chart?.class ?? rec.resource_type
}

export const recordListView: ListView<StoredRecord> = {
  date: (r) => r.date,
  createdMs: (r) => r.created_at,
  texts: (r) => [r.narration, r.contact],
  status: (r) => r.status,
  bank: (r) => r.bank ?? null,
  schema: schemaOf,
}

export const purchaseOrderListView: ListView<StoredPurchaseOrder> = {
  date: (p) => p.date,
  createdMs: (p) => Date.parse(p.created_at),
  texts: (p) => [p.narration, p.customer, p.document_number],
  status: (p) => p.status,
  bank: () => null,
  schema: (p) => p.transaction_type,
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase()

/**
 * Filters by `search` (narration, contact, document number; case-insensitive substring), `status`,
 * `bank` and `schema` (each equal, ignoring case), orders, pages.
 */
export function pageOf<T>(rows: T[], q: ListQueryParsed, view: ListView<T>): { rows: T[]; total: number } {
  const needle = q.search?.trim().toLowerCase()
  const sign = q.date_order === 'asc' ? 1 : -1
  // A blank filter is no filter.
  const given = (v: string | undefined) => (v === undefined || v.trim() === '' ? undefined : v)
  const status = given(q.status)
  const bank = given(q.bank)
  const schema = given(q.schema)
  const matching = rows
    .filter((r) => !needle || view.texts(r).some((t) => t?.toLowerCase().includes(needle)))
    .filter((r) => status === undefined || same(view.status(r), status))
    .filter((r) => {
      if (bank === undefined) return true
      const own = view.bank(r)
      return own !== null && same(own, bank)
    })
    .filter((r) => schema === undefined || same(view.schema(r), schema))
    .sort(
      (a, b) => sign * (view.date(a).localeCompare(view.date(b)) || view.createdMs(a) - view.createdMs(b)),
    )
  const start = (q.page - 1) * q.limit
  return { rows: matching.slice(start, start + q.limit), total: matching.length }
}
