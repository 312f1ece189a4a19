/**
 * The records the API keeps: the list resources, a record built by an AI create, its updates (2.10),
 * an invoice (2.9) and a bank transaction.
 */
import { z } from 'zod'
import { calendarDate, currencyCode, nonEmpty } from './primitives'

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
