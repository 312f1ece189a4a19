/**
 * Readers of records (fields not shown by the spec: every one but uuid optional): generic records
 * and their update answers, invoices (2.9), bank transactions and purchase orders, and the reader of
 * each list resource and of each direct AI create.
 */
import type { z } from 'zod'
import { FIELD_ALIASES } from '../assumptions'
import { roundMoney } from '../api/primitives'
import type { ListResource } from '../api/records'
import type { AiTarget } from '../routes'
import { type Obj, ident, num, objects, pick, pickNum, pickText, text, withUuid } from './primitives'

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
  /** The invoice's number as the server writes it (INV-1003), when it sends one (not shown by 2.9). */
  document_number: string | null
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


export function readInvoice(o: Obj, uuid: string): InvoiceRead {
  const total = num(o.total_amount) ?? num(o.amount)
  const paid = num(o.amount_paid)
  const balance = num(o.balance) ?? (total !== null && paid !== null ? roundMoney(total - paid) : null)
  return {
    uuid,
    document_number: text(o.document_number) ?? text(o.invoice_number),
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
