/**
 * The overview screen's figures: one call (getOverview) answered from main's SQLite; the renderer
 * never counts history rows itself. A late answer (another month or profile asked for since) is
 * dropped.
 */
import { bookdrop } from '../lib/bridge'
import { settle } from '../lib/result'
import type { Res } from '../lib/types'
import type { SliceCreator } from './types'

export type Overview = Res<'getOverview'>

export interface OverviewSlice {
  overview: {
    /** The month asked for (YYYY-MM), or null for the current one. */
    month: string | null
    data: Overview | null
    loading: boolean
    error: string | null
  }
  /** Loads a month's figures (`undefined`: the month shown now; null: the current month). */
  loadOverview(month?: string | null): Promise<void>
  resetOverview(): void
}

const empty = (): OverviewSlice['overview'] => ({ month: null, data: null, loading: false, error: null })

export const createOverviewSlice: SliceCreator<OverviewSlice> = (set, get) => {
  let seq = 0
  return {
    overview: empty(),

    loadOverview: async (month) => {
      const want = month === undefined ? get().overview.month : month
      const profileId = get().activeId
      const mine = ++seq
      set((s) => ({ overview: { ...s.overview, month: want, loading: true, error: null } }))
      const r = await settle(bookdrop.getOverview(want ? { month: want } : {}))
      if (mine !== seq || get().activeId !== profileId) return
      if (r.ok) {
        set({ overview: { month: want, data: r.value, loading: false, error: null } })
        // The holding is remembered in main: the referred businesses screen can say it at once.
        const holding = r.value.kind === 'partner' ? r.value.holding : null
        if (holding && get().holdingBalance === null) set({ holdingBalance: holding.balance })
      } else {
        set((s) => ({ overview: { ...s.overview, loading: false, error: r.error.message } }))
      }
    },

    resetOverview: () => {
      seq++
      set({ overview: empty() })
    },
  }
}
