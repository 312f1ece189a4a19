/**
 * Upload history for a virtualized table: rows are fetched in pages of 100 by offset as the table
 * scrolls; only a bounded number of pages is kept. Events update loaded rows in place, and count
 * new matching rows without refetching (the table offers "show N new").
 */
import { callEarlyOr } from '../lib/early'
import { dayBound } from '../lib/format'
import { settle } from '../lib/result'
import type { AiTarget, HistoryFilterInput, Upload, UploadSource, UploadStatus } from '../lib/types'
import type { AppState, SliceCreator } from './types'

export const HISTORY_PAGE = 100
/** Pages kept in memory (80 × 100 = 8,000 rows); the farthest from view are dropped first. */
const MAX_PAGES = 80

export interface HistoryFilterState {
  statuses: UploadStatus[]
  target: AiTarget | ''
  /** Where the files came from (folder, drop, command line, mail, phone); '' for all. */
  source: UploadSource | ''
  /** YYYY-MM-DD, local days, inclusive. */
  from: string
  to: string
  search: string
  allProfiles: boolean
}

export interface HistorySlice {
  historyFilter: HistoryFilterState
  /** Bumped on every new query, so late answers to an old one are dropped. */
  historyGen: number
  historyTotal: number | null
  historyPages: Record<number, Upload[]>
  /**
   * The pages are the previous query's, kept on screen until the new one's first answer replaces
   * them all at once (no flash of empty rows on every keystroke).
   */
  historyStale: boolean
  historyLoading: Record<number, true>
  /** upload id → page index, for updating a row in place. */
  historyIndex: Record<number, number>
  /** Rows created since the query that match it (shown as "N new"). */
  historyNew: number
  historyError: string | null
  setHistoryFilter(patch: Partial<HistoryFilterState>): void
  reloadHistory(): void
  resetHistory(): void
  /** Makes sure the pages holding rows first..last are loaded or loading. */
  ensureHistoryRows(first: number, last: number): void
  historyRequest(): HistoryFilterInput
}

export const emptyHistoryFilter = (): HistoryFilterState => ({
  statuses: [],
  target: '',
  source: '',
  from: '',
  to: '',
  search: '',
  allProfiles: false,
})

/** The bridge request for the filter (without offset and limit). */
/** The request for one page of the history: the same object (and key) wherever it is built. */
export function historyPageRequest(
  f: HistoryFilterState,
  profileId: string | null,
  page: number,
): HistoryFilterInput {
  return { ...historyRequestOf(f, profileId), offset: page * HISTORY_PAGE, limit: HISTORY_PAGE }
}

export function historyRequestOf(f: HistoryFilterState, profileId: string | null): HistoryFilterInput {
  const req: HistoryFilterInput = { order: 'desc' }
  if (f.statuses.length) req.statuses = f.statuses
  if (f.target) req.targets = [f.target]
  if (f.source) req.sources = [f.source]
  if (!f.allProfiles && profileId) req.profileId = profileId
  const search = f.search.trim()
  if (search) req.search = search
  const from = dayBound(f.from)
  const to = dayBound(f.to, true)
  if (from !== undefined) req.from = from
  if (to !== undefined) req.to = to
  return req
}

/** True when `u` would be listed by the query (mirrors the engine's WHERE clause). */
export function matchesHistory(u: Upload, req: HistoryFilterInput): boolean {
  if (req.statuses?.length && !req.statuses.includes(u.status)) return false
  if (req.targets?.length && !req.targets.includes(u.target)) return false
  if (req.sources?.length && !req.sources.includes(u.source)) return false
  if (req.profileId && u.profileId !== req.profileId) return false
  if (req.search && !u.name.toLowerCase().includes(req.search.toLowerCase())) return false
  if (req.from !== undefined && u.createdAt < req.from) return false
  if (req.to !== undefined && u.createdAt > req.to) return false
  return true
}

/** The history part of applying upload events: rows replaced in place, new matches counted. */
export function historyAfterUploads(
  s: AppState,
  events: readonly { upload: Upload; previous: UploadStatus | null }[],
): Partial<AppState> | null {
  if (s.historyTotal === null) return null
  let pages: Record<number, Upload[]> | null = null
  let fresh = 0
  const req = s.historyRequest()
  for (const { upload, previous } of events) {
    const page = s.historyIndex[upload.id]
    if (page !== undefined) {
      const rows = (pages ?? s.historyPages)[page]
      const i = rows ? rows.findIndex((r) => r.id === upload.id) : -1
      if (rows && i >= 0) {
        pages ??= { ...s.historyPages }
        const next = rows.slice()
        next[i] = upload
        pages[page] = next
      }
    } else if (previous === null && matchesHistory(upload, req)) {
      fresh++
    }
  }
  if (!pages && fresh === 0) return null
  return { ...(pages ? { historyPages: pages } : {}), ...(fresh ? { historyNew: s.historyNew + fresh } : {}) }
}

/** A history with nothing loaded: no total, no pages, nothing loading, new or failed. */
function nothingLoaded(): Pick<
  HistorySlice,
  | 'historyTotal'
  | 'historyPages'
  | 'historyStale'
  | 'historyLoading'
  | 'historyIndex'
  | 'historyNew'
  | 'historyError'
> {
  return {
    historyTotal: null,
    historyPages: {},
    historyStale: false,
    historyLoading: {},
    historyIndex: {},
    historyNew: 0,
    historyError: null,
  }
}

export const createHistorySlice: SliceCreator<HistorySlice> = (set, get) => {
  const loadPage = async (page: number, gen: number) => {
    set((s) => ({ historyLoading: { ...s.historyLoading, [page]: true } }))
    const r = await settle(
      callEarlyOr('history', historyPageRequest(get().historyFilter, get().activeId, page)),
    )
    if (get().historyGen !== gen) return
    set((s) => {
      const { [page]: _done, ...loading } = s.historyLoading
      const stale = s.historyStale
      if (!r.ok) {
        const cleared = stale ? { historyPages: {}, historyIndex: {}, historyStale: false } : {}
        return { historyLoading: loading, historyError: r.error.message, ...cleared }
      }
      const index = stale ? {} : { ...s.historyIndex }
      for (const row of r.value.rows) index[row.id] = page
      return {
        historyLoading: loading,
        historyPages: stale ? { [page]: r.value.rows } : { ...s.historyPages, [page]: r.value.rows },
        historyStale: false,
        historyIndex: index,
        historyTotal: r.value.total,
        historyError: null,
      }
    })
  }

  return {
    historyFilter: emptyHistoryFilter(),
    historyGen: 0,
    ...nothingLoaded(),

    historyRequest: () => historyRequestOf(get().historyFilter, get().activeId),

    setHistoryFilter: (patch) => {
      set((s) => ({ historyFilter: { ...s.historyFilter, ...patch } }))
      get().reloadHistory()
    },

    reloadHistory: () => {
      const gen = get().historyGen + 1
      // The rows on screen stay until the new query's first answer replaces them (historyStale).
      set((s) => ({
        historyGen: gen,
        historyStale: Object.keys(s.historyPages).length > 0,
        historyLoading: {},
        historyNew: 0,
        historyError: null,
      }))
      void loadPage(0, gen)
    },

    resetHistory: () => set((s) => ({ historyGen: s.historyGen + 1, ...nothingLoaded() })),

    ensureHistoryRows: (first, last) => {
      const s = get()
      if (s.historyTotal === null && Object.keys(s.historyLoading).length === 0 && !s.historyPages[0]) {
        get().reloadHistory()
        return
      }
      const maxRow = Math.max(0, (s.historyTotal ?? 0) - 1)
      const p0 = Math.floor(Math.max(0, first) / HISTORY_PAGE)
      const p1 = Math.floor(Math.min(last, maxRow) / HISTORY_PAGE)
      for (let p = p0; p <= p1; p++) {
        if ((!s.historyPages[p] || s.historyStale) && !s.historyLoading[p]) void loadPage(p, s.historyGen)
      }
      // Keep memory bounded: drop the pages farthest from what is on screen.
      const loaded = Object.keys(s.historyPages).map(Number)
      if (loaded.length > MAX_PAGES) {
        const mid = (p0 + p1) / 2
        const drop = loaded
          .sort((a, b) => Math.abs(b - mid) - Math.abs(a - mid))
          .slice(0, loaded.length - MAX_PAGES)
        set((st) => {
          const pages = { ...st.historyPages }
          const index = { ...st.historyIndex }
          for (const p of drop) {
            for (const row of pages[p] ?? []) delete index[row.id]
            delete pages[p]
          }
          return { historyPages: pages, historyIndex: index }
        })
      }
    },
  }
}

/** The row at a table index, if its page is loaded. */
export function historyRowAt(pages: Record<number, Upload[]>, index: number): Upload | undefined {
  return pages[Math.floor(index / HISTORY_PAGE)]?.[index % HISTORY_PAGE]
}
