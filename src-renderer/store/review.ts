/**
 * The Review screen's list (issue 32): the records Bookdrop created, newest first, fetched in pages
 * by offset as the virtual list scrolls; the counts for the navigation ("Review 5") and the filters;
 * the record selected. Main answers every figure (review.list); the `review` event brings new
 * counts and says which records changed, and the loaded pages are asked for again.
 */
import { bookdrop } from '../lib/bridge'
import { callEarlyOr } from '../lib/early'
import { errorText, settle } from '../lib/result'
import type { Req } from '../lib/types'
import type { ReviewCounts, ReviewDetail, ReviewEvent, ReviewFilter, ReviewItem } from '../../contract/review'
import type { SliceCreator } from './types'

/** Items per request: a window's worth several times over, small enough to answer at once. */
export const REVIEW_PAGE = 100

export interface ReviewSlice {
  reviewFilter: ReviewFilter
  reviewCounts: ReviewCounts | null
  /** Items matching the filter; null until the first answer. */
  reviewTotal: number | null
  /** Loaded pages by page index. */
  reviewPages: Record<number, ReviewItem[]>
  reviewLoading: Record<number, true>
  /** Bumped on every new query (filter, profile): late answers to an old one are dropped. */
  reviewGen: number
  reviewError: string | null
  /** The record shown beside the list (its uuid), or null. */
  reviewSelected: string | null
  setReviewFilter(filter: ReviewFilter): void
  /** Asks for the counts (the navigation's "Review 5"). */
  loadReviewCounts(): Promise<void>
  /** Makes sure the pages holding items first..last are loaded or loading. */
  ensureReviewItems(first: number, last: number): void
  /** Asks for every loaded page again (the event said records changed). */
  refreshReview(): void
  selectReview(uuid: string | null): void
  /** Opens a record on the Review screen (from History, Capture or the Overview). */
  openReview(uuid: string | null, filter?: ReviewFilter): void
  applyReviewEvent(e: ReviewEvent): void
  /** A record as Save or Mark reviewed answered it: the list shows it at once. */
  applyReviewDetail(d: ReviewDetail): void
  /** Another profile: nothing loaded, nothing selected. */
  resetReview(): void
}

/** The item at `index` of the loaded pages, if loaded. */
/**
 * The request for a page of the list. Opened at `#review`, start-early.ts asks for the first page
 * of the first filter ('to_review') before boot answers; the store takes that answer (callEarlyOr).
 */
export function reviewPageRequest(filter: ReviewFilter, page: number): Req<'review.list'> {
  return { filter, offset: page * REVIEW_PAGE, limit: REVIEW_PAGE }
}

export function reviewItemAt(pages: Record<number, ReviewItem[]>, index: number): ReviewItem | undefined {
  return pages[Math.floor(index / REVIEW_PAGE)]?.[index % REVIEW_PAGE]
}

/** The filter the screen opens with (start-early.ts asks for its first page). */
export const FIRST_REVIEW_FILTER: ReviewFilter = 'to_review'

export const createReviewSlice: SliceCreator<ReviewSlice> = (set, get) => {
  const loadPage = async (page: number, gen: number): Promise<void> => {
    set((s) => ({ reviewLoading: { ...s.reviewLoading, [page]: true } }))
    const filter = get().reviewFilter
    const r = await settle(callEarlyOr('review.list', reviewPageRequest(filter, page)))
    if (gen !== get().reviewGen) return
    set((s) => {
      const loading = { ...s.reviewLoading }
      delete loading[page]
      if (!r.ok) return { reviewLoading: loading, reviewError: errorText(r.error) }
      return {
        reviewLoading: loading,
        reviewError: null,
        reviewTotal: r.value.total,
        reviewCounts: r.value.counts,
        reviewPages: { ...s.reviewPages, [page]: r.value.items },
      }
    })
  }

  return {
    reviewFilter: FIRST_REVIEW_FILTER,
    reviewCounts: null,
    reviewTotal: null,
    reviewPages: {},
    reviewLoading: {},
    reviewGen: 0,
    reviewError: null,
    reviewSelected: null,

    setReviewFilter: (filter) => {
      const gen = get().reviewGen + 1
      set({ reviewFilter: filter, reviewGen: gen, reviewPages: {}, reviewLoading: {}, reviewTotal: null, reviewError: null })
      void loadPage(0, gen)
    },

    loadReviewCounts: async () => {
      const r = await settle(bookdrop['review.list']({ filter: 'to_review', offset: 0, limit: 1 }))
      if (r.ok) set({ reviewCounts: r.value.counts })
    },

    ensureReviewItems: (first, last) => {
      const s = get()
      for (let p = Math.floor(first / REVIEW_PAGE); p <= Math.floor(last / REVIEW_PAGE); p++) {
        if (!s.reviewPages[p] && !s.reviewLoading[p]) void loadPage(p, s.reviewGen)
      }
    },

    refreshReview: () => {
      const s = get()
      const pages = Object.keys(s.reviewPages).map(Number)
      if (s.reviewTotal === null && pages.length === 0) return
      for (const p of pages.length ? pages : [0]) if (!s.reviewLoading[p]) void loadPage(p, s.reviewGen)
    },

    selectReview: (uuid) => set({ reviewSelected: uuid }),

    openReview: (uuid, filter) => {
      const s = get()
      // A record opened from elsewhere is found under "All" (it may be reviewed already).
      const want = filter ?? (uuid ? 'all' : s.reviewFilter)
      set({ reviewSelected: uuid })
      if (want !== s.reviewFilter || s.reviewTotal === null) s.setReviewFilter(want)
      s.setScreen('review')
    },

    applyReviewEvent: (e) => {
      set({ reviewCounts: e.counts })
      if (e.uuids.length > 0 || e.uploadIds.length > 0) get().refreshReview()
    },

    resetReview: () =>
      set((s) => ({
        reviewGen: s.reviewGen + 1,
        reviewCounts: null,
        reviewTotal: null,
        reviewPages: {},
        reviewLoading: {},
        reviewError: null,
        reviewSelected: null,
      })),

    applyReviewDetail: (d) => {
      const uuid = d.item.record.uuid
      set((s) => {
        const pages: Record<number, ReviewItem[]> = {}
        for (const [k, items] of Object.entries(s.reviewPages)) {
          pages[Number(k)] = items.map((i) => (i.record.uuid === uuid ? d.item : i))
        }
        return { reviewPages: pages }
      })
    },
  }
}
