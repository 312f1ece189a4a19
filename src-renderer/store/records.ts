/**
 * Records of the active business: paged lists (purchase orders, invoices, expenses, bills, bank
 * transactions), the invoice view, and the edits. Pages come from the server (limit ≤ 100).
 */
import { bookdrop } from '../lib/bridge'
import { settle } from '../lib/result'
import type { BridgeError, ListPage, RecordRow, Req, Res, Result } from '../lib/types'
import type { SliceCreator } from './types'

export type ListKey = 'purchaseOrders' | 'invoices' | 'expenses' | 'bills' | 'bank'

export interface ListState {
  page: number
  limit: number
  search: string
  rows: RecordRow[]
  /** null when the server sends no total (2.1: list meta is optional). */
  total: number | null
  loading: boolean
  loaded: boolean
  error: string | null
}

/** An invoice as read: only uuid is sure; other fields may be null (shown as "—"). */
export type Invoice = Res<'getInvoice'>

export interface InvoiceView {
  id: string
  loading: boolean
  data: Invoice | null
  error: BridgeError | null
}

export interface RecordsSlice {
  lists: Record<ListKey, ListState>
  invoice: InvoiceView | null
  loadList(key: ListKey, patch?: Partial<Pick<ListState, 'page' | 'limit' | 'search'>>): Promise<void>
  openInvoice(id: string): Promise<void>
  closeInvoice(): void
  createPurchaseOrder(order: Record<string, unknown>): Promise<Result<Res<'createPurchaseOrder'>>>
  createInvoiceFromPrompt(prompt: string): Promise<Result<Res<'createInvoiceFromPrompt'>>>
  updateNarration(key: 'expenses' | 'bills', id: string, narration: string): Promise<Result<RecordRow>>
  replaceBill(id: string, body: Req<'replaceBill'>['body']): Promise<Result<RecordRow>>
  deleteBankTransaction(id: string): Promise<Result<Res<'deleteBankTransaction'>>>
  uploadBankStatement(req: Req<'uploadBankStatement'>): Promise<Result<Res<'uploadBankStatement'>>>
  resetRecords(): void
}

const emptyList = (): ListState => ({
  page: 1,
  limit: 20,
  search: '',
  rows: [],
  total: 0,
  loading: false,
  loaded: false,
  error: null,
})

const emptyLists = (): Record<ListKey, ListState> => ({
  purchaseOrders: emptyList(),
  invoices: emptyList(),
  expenses: emptyList(),
  bills: emptyList(),
  bank: emptyList(),
})

type PageReq = Req<'listInvoices'>
const LISTERS: Record<ListKey, (req: PageReq) => Promise<Result<ListPage<RecordRow>>>> = {
  purchaseOrders: (r) => bookdrop.listPurchaseOrders(r),
  invoices: (r) => bookdrop.listInvoices(r),
  expenses: (r) => bookdrop.listExpenses(r),
  bills: (r) => bookdrop.listBills(r),
  bank: (r) => bookdrop.listBankTransactions(r),
}

export const createRecordsSlice: SliceCreator<RecordsSlice> = (set, get) => {
  const patchList = (key: ListKey, patch: Partial<ListState>) =>
    set((s) => ({ lists: { ...s.lists, [key]: { ...s.lists[key], ...patch } } }))
  const seq: Record<ListKey, number> = { purchaseOrders: 0, invoices: 0, expenses: 0, bills: 0, bank: 0 }

  return {
    lists: emptyLists(),
    invoice: null,

    loadList: async (key, patch = {}) => {
      const cur = { ...get().lists[key], ...patch }
      // A list in error keeps its message while it is asked again (its Try again stays, busy).
      patchList(key, { ...patch, loading: true })
      const mine = ++seq[key]
      const r = await settle(
        LISTERS[key]({
          page: cur.page,
          limit: cur.limit,
          date_order: 'desc',
          ...(cur.search.trim() ? { search: cur.search.trim() } : {}),
        }),
      )
      if (mine !== seq[key]) return
      if (r.ok) {
        patchList(key, {
          rows: r.value.data,
          total: r.value.meta.total,
          loading: false,
          loaded: true,
          error: null,
        })
      } else {
        // Not loaded: the screen says why, offers Try again, asks again on its next visit, and the
        // list is asked again by itself once the server answers (afterReconnect).
        patchList(key, { loading: false, loaded: false, error: r.error.message })
      }
    },

    openInvoice: async (id) => {
      const ref = id.trim()
      if (!ref) return
      set({ invoice: { id: ref, loading: true, data: null, error: null } })
      const r = await settle(bookdrop.getInvoice({ id: ref }))
      if (get().invoice?.id !== ref) return
      set({ invoice: { id: ref, loading: false, data: r.ok ? r.value : null, error: r.ok ? null : r.error } })
    },

    closeInvoice: () => set({ invoice: null }),

    createPurchaseOrder: async (order) => {
      const r = await settle(bookdrop.createPurchaseOrder({ order }))
      if (r.ok) void get().loadList('purchaseOrders', { page: 1 })
      return r
    },

    createInvoiceFromPrompt: async (prompt) => {
      const r = await settle(bookdrop.createInvoiceFromPrompt({ prompt }))
      if (r.ok && r.value.recordUuid) void get().loadList('invoices', { page: 1 })
      return r
    },

    updateNarration: async (key, id, narration) => {
      const r =
        key === 'expenses'
          ? await settle(bookdrop.updateExpense({ id, patch: { narration } }))
          : await settle(bookdrop.updateBill({ id, patch: { narration } }))
      if (r.ok) replaceRow(key, id, r.value)
      return r
    },

    replaceBill: async (id, body) => {
      const r = await settle(bookdrop.replaceBill({ id, body }))
      if (r.ok) replaceRow('bills', id, r.value)
      return r
    },

    deleteBankTransaction: async (id) => {
      const r = await settle(bookdrop.deleteBankTransaction({ id }))
      if (r.ok) {
        set((s) => {
          const l = s.lists.bank
          return {
            lists: {
              ...s.lists,
              bank: {
                ...l,
                rows: l.rows.filter((x) => x.uuid !== id && x.source_uuid !== id),
                total: l.total === null ? null : Math.max(0, l.total - 1),
              },
            },
          }
        })
      }
      return r
    },

    uploadBankStatement: async (req) => {
      const r = await settle(bookdrop.uploadBankStatement(req))
      if (r.ok)
        get().applyUploads(
          r.value.flatMap((o) => (o.kind === 'ignored' ? [] : [{ upload: o.upload, previous: null }])),
        )
      return r
    },

    resetRecords: () => set({ lists: emptyLists(), invoice: null }),
  }

  function replaceRow(key: ListKey, id: string, row: RecordRow) {
    set((s) => {
      const l = s.lists[key]
      return {
        lists: {
          ...s.lists,
          [key]: {
            ...l,
            rows: l.rows.map((x) => (x.uuid === id || x.uuid === row.uuid ? { ...x, ...row } : x)),
          },
        },
      }
    })
  }
}
