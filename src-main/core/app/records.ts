/**
 * The records room: the active business's purchase orders, invoices, expenses, bills and bank
 * transactions, read and changed through the API (the client checks every body before sending).
 */
import type { Calls, ListPage, ParsedReq, RecordRow } from '../../../contract'
import type { BookkeepingClient } from '../api'
import type { UpdatedRecordRead as UpdatedRecord } from '../../../schemas/read'
import type { AppContext } from './context'
import type { Room } from './room'

export type RecordsRoom = Room<
  | 'listPurchaseOrders'
  | 'createPurchaseOrder'
  | 'listInvoices'
  | 'getInvoice'
  | 'createInvoiceFromPrompt'
  | 'listExpenses'
  | 'listBills'
  | 'updateExpense'
  | 'updateBill'
  | 'replaceBill'
  | 'listBankTransactions'
  | 'deleteBankTransaction'
>

type Listed = 'purchase-orders' | 'invoices' | 'expenses' | 'bills' | 'bank-transactions'

export function recordsRoom(ctx: AppContext): RecordsRoom {
  const client = () => ctx.businessClient()
  const page = async (resource: Listed, q: ParsedReq<'listInvoices'>): Promise<ListPage<RecordRow>> => {
    const res = await (await client()).list(resource, q)
    return { data: res.data.map((r): RecordRow => ({ ...r })), meta: res.meta }
  }

  /** The record Bookdrop keeps for Review and History follows the edit (issue 32). */
  const followed = <T extends UpdatedRecord>(id: string, answer: T): T => {
    try {
      ctx.engine.records.followUpdate(answer.uuid || id, answer)
    } catch {
      // The edit is on the server; the stored summary catches up when the record is next read.
    }
    return answer
  }

  return {
    listPurchaseOrders: (req) => page('purchase-orders', req),
    listInvoices: (req) => page('invoices', req),
    listExpenses: (req) => page('expenses', req),
    listBills: (req) => page('bills', req),
    listBankTransactions: (req) => page('bank-transactions', req),

    async createPurchaseOrder(req): Promise<Calls['createPurchaseOrder']> {
      // The client checks the order with purchaseOrderSchema before sending: a bad one is an ApiError with fields.
      return (await client()).createPurchaseOrder(
        req.order as unknown as Parameters<BookkeepingClient['createPurchaseOrder']>[0],
      )
    },

    async getInvoice(req): Promise<Calls['getInvoice']> {
      return (await client()).getInvoice(req.id)
    },

    async createInvoiceFromPrompt(req): Promise<Calls['createInvoiceFromPrompt']> {
      const res = await (await client()).aiCreate('invoices', { prompt: req.prompt, process_type: req.processType })
      if (res.process_type === 'direct') return { jobReference: null, recordUuid: res.record.uuid }
      if (res.process_type === 'async') return { jobReference: res.job_reference, recordUuid: null }
      return { jobReference: null, recordUuid: null }
    },

    async updateExpense(req): Promise<RecordRow> {
      return followed(req.id, await (await client()).patchExpense(req.id, req.patch))
    },

    async updateBill(req): Promise<RecordRow> {
      return followed(req.id, await (await client()).patchBill(req.id, req.patch))
    },

    async replaceBill(req): Promise<RecordRow> {
      return followed(req.id, await (await client()).putBill(req.id, req.body))
    },

    async deleteBankTransaction(req): Promise<Calls['deleteBankTransaction']> {
      return (await client()).deleteBankTransaction(req.id)
    },
  }
}
