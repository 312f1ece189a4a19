/**
 * The partner console: referred businesses (one server page at a time), billing snapshots fetched
 * on demand, seat and credit grants, registrations, and client health. The partner's holding
 * balance is only known from grant answers, so it is remembered here once seen.
 */
import type { BillingStatus, ReferredBusinessRow } from '../../contract/api'
import { bookdrop } from '../lib/bridge'
import { settle } from '../lib/result'
import type { ClientHealth, Req, Res, Result } from '../lib/types'
import type { SliceCreator } from './types'

export interface BillingEntry {
  loading: boolean
  data: BillingStatus | null
  error: string | null
  at: number | null
}

export interface PartnerSlice {
  referred: {
    page: number
    limit: number
    rows: ReferredBusinessRow[]
    total: number
    loading: boolean
    loaded: boolean
    error: string | null
  }
  billing: Record<string, BillingEntry>
  /** Last holding balance a grant answer told us (null: not known yet in this session). */
  holdingBalance: number | null
  health: { rows: ClientHealth[]; loading: boolean; loaded: boolean; error: string | null }
  loadReferred(patch?: { page?: number; limit?: number }): Promise<void>
  loadBilling(businessUuid: string): Promise<void>
  addSeats(businessUuid: string, grant: Req<'addSeats'>['grant']): Promise<Result<Res<'addSeats'>>>
  addCredits(businessUuid: string, grant: Req<'addCredits'>['grant']): Promise<Result<Res<'addCredits'>>>
  registerBusiness(input: Req<'registerBusiness'>['input']): Promise<Result<Res<'registerBusiness'>>>
  saveRegisteredBusiness(req: Req<'saveRegisteredBusiness'>): Promise<Result<Res<'saveRegisteredBusiness'>>>
  loadHealth(): Promise<void>
  resetPartner(): void
}

const emptyReferred = (): PartnerSlice['referred'] => ({
  page: 1,
  limit: 20,
  rows: [],
  total: 0,
  loading: false,
  loaded: false,
  error: null,
})
const emptyHealth = (): PartnerSlice['health'] => ({ rows: [], loading: false, loaded: false, error: null })

export const createPartnerSlice: SliceCreator<PartnerSlice> = (set, get) => {
  let seq = 0
  return {
    referred: emptyReferred(),
    billing: {},
    holdingBalance: null,
    health: emptyHealth(),

    loadReferred: async (patch = {}) => {
      const cur = { ...get().referred, ...patch }
      set({ referred: { ...cur, loading: true } })
      const mine = ++seq
      const r = await settle(bookdrop.listReferredBusinesses({ page: cur.page, limit: cur.limit }))
      if (mine !== seq) return
      set((s) => ({
        referred: r.ok
          ? {
              ...s.referred,
              rows: r.value.data,
              total: r.value.total,
              loading: false,
              loaded: true,
              error: null,
            }
          : { ...s.referred, loading: false, loaded: false, error: r.error.message },
      }))
    },

    loadBilling: async (uuid) => {
      set((s) => ({
        billing: {
          ...s.billing,
          [uuid]: { data: null, at: null, ...s.billing[uuid], loading: true, error: null },
        },
      }))
      const r = await settle(bookdrop.getBillingStatus({ businessUuid: uuid }))
      set((s) => {
        const billing = {
          ...s.billing,
          [uuid]: r.ok
            ? { loading: false, data: r.value, error: null, at: Date.now() }
            : { ...(s.billing[uuid] ?? { data: null, at: null }), loading: false, error: r.error.message },
        }
        // The row's billing fields are the same snapshot: keep the table current.
        const rows = r.ok
          ? s.referred.rows.map((row) => (row.uuid === uuid ? { ...row, ...r.value } : row))
          : s.referred.rows
        return { billing, referred: { ...s.referred, rows } }
      })
    },

    addSeats: async (uuid, grant) => {
      const r = await settle(bookdrop.addSeats({ businessUuid: uuid, grant }))
      if (r.ok) {
        set({ holdingBalance: r.value.partner_holding_balance })
        void get().loadBilling(uuid)
      } else {
        const known = holdingFromMessage(r.error.message)
        if (known !== null) set({ holdingBalance: known })
      }
      return r
    },

    addCredits: async (uuid, grant) => {
      const r = await settle(bookdrop.addCredits({ businessUuid: uuid, grant }))
      if (r.ok) {
        // The answer of add-credits is not shown by the spec: what it leaves out is read again.
        const { credit_balance: balance, partner_holding_balance: holding } = r.value
        set((s) => ({
          holdingBalance: holding ?? s.holdingBalance,
          referred: {
            ...s.referred,
            rows: s.referred.rows.map((row) =>
              row.uuid === uuid && balance !== null ? { ...row, credit_balance: balance } : row,
            ),
          },
        }))
        if (balance === null) void get().loadReferred()
      } else {
        const known = holdingFromMessage(r.error.message)
        if (known !== null) set({ holdingBalance: known })
      }
      return r
    },

    registerBusiness: async (input) => {
      const r = await settle(bookdrop.registerBusiness({ input }))
      if (r.ok && get().referred.loaded) void get().loadReferred()
      return r
    },

    saveRegisteredBusiness: async (req) => {
      const r = await settle(bookdrop.saveRegisteredBusiness(req))
      if (r.ok) get().applyProfiles(r.value)
      return r
    },

    loadHealth: async () => {
      set((s) => ({ health: { ...s.health, loading: true } }))
      const r = await settle(bookdrop.getClientHealth({}))
      set({
        health: r.ok
          ? { rows: r.value, loading: false, loaded: true, error: null }
          : { rows: get().health.rows, loading: false, loaded: false, error: r.error.message },
      })
    },

    resetPartner: () =>
      set({ referred: emptyReferred(), billing: {}, health: emptyHealth(), holdingBalance: null }),
  }
}

/**
 * "… needs 4500 credits, your holding has 1200" → needed and held, when the server says them.
 * The numbers are read from the message only to explain a refusal; nothing is decided from them.
 */
export function shortfallFromMessage(message: string): { needed: number; held: number } | null {
  const m = /needs\s+([\d.,]+)\s+credits?.*?holding\s+has\s+([\d.,]+)/i.exec(message)
  if (!m) return null
  const needed = Number(m[1]!.replace(/,/g, ''))
  const held = Number(m[2]!.replace(/,/g, ''))
  return Number.isFinite(needed) && Number.isFinite(held) ? { needed, held } : null
}

function holdingFromMessage(message: string): number | null {
  return shortfallFromMessage(message)?.held ?? null
}
