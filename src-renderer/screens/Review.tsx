/**
 * Review (issue 32): the records Bookdrop created, newest first, filtered ("To review", "Flagged",
 * "All"), and the selected one beside the list: its document next to its fields, its flags, Save
 * and Mark reviewed. Fifty receipts can be checked without the mouse: J/K or the arrows move through
 * the list, R marks the record reviewed.
 */
import { useEffect, useRef } from 'react'
import { defineMessages } from 'react-intl'
import type { ReviewDetail, ReviewFilter } from '../../contract/review'
import { Screen } from '../components/Screen'
import { useI18n } from '../lib/i18n'
import { useApp } from '../store'
import { REVIEW_PAGE, reviewItemAt } from '../store/review'
import { RecordDetail } from './review/RecordDetail'
import { ReviewList } from './review/ReviewList'
import messages from './Review.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

const FILTERS: readonly [ReviewFilter, keyof typeof m, 'toReview' | 'flagged' | 'all'][] = [
  ['to_review', 'toReview', 'toReview'],
  ['flagged', 'flagged', 'flagged'],
  ['all', 'all', 'all'],
]

function isTyping(t: EventTarget | null): boolean {
  return t instanceof HTMLElement && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))
}

export function Review() {
  const intl = useI18n()
  const filter = useApp((s) => s.reviewFilter)
  const counts = useApp((s) => s.reviewCounts)
  const total = useApp((s) => s.reviewTotal)
  const error = useApp((s) => s.reviewError)
  const selected = useApp((s) => s.reviewSelected)
  const pages = useApp((s) => s.reviewPages)
  const setFilter = useApp((s) => s.setReviewFilter)
  const markRef = useRef<(() => void) | null>(null)

  useEffect(() => {
    const s = useApp.getState()
    if (s.reviewTotal === null && Object.keys(s.reviewLoading).length === 0) s.setReviewFilter(s.reviewFilter)
  }, [])

  const selectedItem = (() => {
    if (!selected) return undefined
    for (const list of Object.values(pages)) {
      const it = list.find((i) => i.record.uuid === selected)
      if (it) return it
    }
    return undefined
  })()

  /** Marked reviewed: under "To review" it leaves the list, and the next record is selected. */
  const onMarked = (d: ReviewDetail) => {
    const s = useApp.getState()
    if (s.reviewFilter !== 'to_review' || d.item.record.reviewedAt === null) return
    let at = -1
    for (const [p, list] of Object.entries(s.reviewPages)) {
      const i = list.findIndex((it) => it.record.uuid === d.item.record.uuid)
      if (i >= 0) at = Number(p) * REVIEW_PAGE + i
    }
    const next = at >= 0 ? (reviewItemAt(s.reviewPages, at + 1) ?? reviewItemAt(s.reviewPages, at - 1)) : undefined
    const pagesWithout = Object.fromEntries(
      Object.entries(s.reviewPages).map(([p, list]) => [p, list.filter((it) => it.record.uuid !== d.item.record.uuid)]),
    )
    useApp.setState({
      reviewPages: pagesWithout,
      reviewTotal: s.reviewTotal === null ? null : Math.max(0, s.reviewTotal - 1),
      reviewCounts: s.reviewCounts ? { ...s.reviewCounts, toReview: Math.max(0, s.reviewCounts.toReview - 1) } : null,
      reviewSelected: next?.record.uuid ?? null,
    })
    s.refreshReview()
  }

  const onKeyMore = (e: React.KeyboardEvent) => {
    if ((e.key === 'r' || e.key === 'R') && !e.ctrlKey && !e.metaKey && !e.altKey && !isTyping(e.target)) {
      e.preventDefault()
      markRef.current?.()
    }
  }

  return (
    <Screen title={intl.formatMessage(m.title)} intro={intl.formatMessage(m.intro)}>
      <div className="review-filters segmented" role="group" aria-label={intl.formatMessage(m.filters)}>
        {FILTERS.map(([f, words, key]) => (
          <button
            key={f}
            type="button"
            className="segmented__item review-filter"
            aria-pressed={filter === f}
            onClick={() => setFilter(f)}
          >
            {intl.formatMessage(m[words], { count: intl.formatNumber(counts?.[key] ?? 0) })}
          </button>
        ))}
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {intl.formatMessage(m.failed, { reason: error })}{' '}
          <button type="button" className="linklike" onClick={() => setFilter(filter)}>
            {intl.formatMessage(m.retry)}
          </button>
        </p>
      ) : null}
      <div className="review" onKeyDown={onKeyMore}>
        <div className="review__list">
          {total === null ? (
            <p className="muted" role="status">
              {intl.formatMessage(m.loading)}
            </p>
          ) : total === 0 ? (
            <p className="empty">{intl.formatMessage(filter === 'all' ? m.emptyAll : m.empty)}</p>
          ) : null}
          {total ? <ReviewList /> : null}
        </div>
        {selected ? (
          <RecordDetail uuid={selected} item={selectedItem} markRef={markRef} onMarked={onMarked} />
        ) : (
          <p className="review-detail muted">{intl.formatMessage(m.pick)}</p>
        )}
      </div>
    </Screen>
  )
}
