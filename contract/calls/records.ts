/** The calls on the records of the active business: lists, purchase orders, invoices, updates, bank. */
import { z } from 'zod'
import type { InvoiceRead, PurchaseOrderData } from '../../schemas'
import { recordPatchSchema, recordPutSchema } from '../../schemas/api'
import type { IntakeOutcome, ListPage, RecordRow } from '../views'
import { fileContents, id } from './shared'

const page = z.object({
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(100).default(20),
  search: z.string().max(200).optional(),
  status: z.string().max(50).optional(),
  date_order: z.enum(['asc', 'desc']).optional(),
})

export const RECORD_CALLS = {
  listPurchaseOrders: page,
  // Checked field by field with purchaseOrderSchema by main (and by the client before sending).
  createPurchaseOrder: z.object({ order: z.record(z.string(), z.unknown()) }),
  listInvoices: page,
  getInvoice: z.object({ id }),
  createInvoiceFromPrompt: z.object({
    prompt: z.string().min(1).max(4000),
    processType: z.enum(['async', 'direct']).optional(),
  }),
  listExpenses: page,
  listBills: page,
  updateExpense: z.object({ id, patch: recordPatchSchema }),
  updateBill: z.object({ id, patch: recordPatchSchema }),
  replaceBill: z.object({ id, body: recordPutSchema }),
  listBankTransactions: page,
  deleteBankTransaction: z.object({ id }),
  /** Goes through the upload queue like any file (history, retries, job following). */
  uploadBankStatement: z.object({
    files: fileContents,
    prompt: z
      .string({ error: 'the prompt is required for a bank statement upload' })
      .trim()
      .min(1, {
        error: 'the prompt is required for a bank statement upload: say which account and period it covers',
      })
      .max(4000),
  }),
} as const

export interface RecordCalls {
  listPurchaseOrders: ListPage<RecordRow>
  createPurchaseOrder: PurchaseOrderData
  listInvoices: ListPage<RecordRow>
  getInvoice: InvoiceRead
  createInvoiceFromPrompt: { jobReference: string | null; recordUuid: string | null }
  listExpenses: ListPage<RecordRow>
  listBills: ListPage<RecordRow>
  updateExpense: RecordRow
  updateBill: RecordRow
  replaceBill: RecordRow
  listBankTransactions: ListPage<RecordRow>
  deleteBankTransaction: { message: string }
  uploadBankStatement: IntakeOutcome[]
}
