/**
 * Review's list (issue 32): a listbox of the records of the filter, newest first, virtual (only the
 * options in view are in the DOM, so 10,000 records paint as fast as 10). With the list focused,
 * ArrowDown/ArrowUp and J/K move the selection (the detail follows), Page Up/Down, Home and End
 * jump; the selected option is the list's active descendant, so focus stays on the list.
 */
import { useVirtualRows } from '../../lib/useVirtualRows'
import { useEffect, useMemo } from 'react'
import { defineMessages } from 'react-intl'
import type { ReviewItem } from '../../../contract/review'
import { formatDate } from '../../lib/format'
import { useI18n } from '../../lib/i18n'
import { useApp } from '../../store'
import { REVIEW_PAGE, reviewItemAt } from '../../store/review'
import { loadDocument } from './documents'
import { totalText } from './words'
import messages from './ReviewList.messages.json' with { type: 'json' }

export const OPTION_HEIGHT = 56

const m = defineMessages(messages.m)

function Option({ item, index, start, selected }: { item: ReviewItem | undefined; index: number; start: number; selected: boolean }) {
  const intl = useI18n()
  const select = useApp((s) => s.selectReview)
  const style = { transform: `translateY(${start}px)`, height: OPTION_HEIGHT }
  if (!item) {
    return (
      <div role="option" aria-selected={false} id={`review-opt-${index}`} className="review-opt review-opt--loading" style={style}>
        {intl.formatMessage(m.loadingItem)}
      </div>
    )
  }
  const r = item.record
  const main = r.vendor?.trim() || item.name
  const details = [r.vendor?.trim() ? item.name : null, r.date ? formatDate(r.date) : null, totalText(r) || null].filter(
    (x): x is string => x !== null,
  )
  return (
    <div
      role="option"
      aria-selected={selected}
      id={`review-opt-${index}`}
      data-uuid={r.uuid}
      className="review-opt"
      style={style}
      onMouseDown={(e) => e.preventDefault()}
      onClick={(e) => {
        select(r.uuid)
        // Focus stays on the list (its active descendant is this option).
        ;(e.currentTarget.closest('[role="listbox"]') as HTMLElement | null)?.focus()
      }}
    >
      <span className="review-opt__main" dir="auto" title={main}>
        {main}
      </span>
      <span className="review-opt__meta">
        <span className="review-opt__details" dir="auto" title={details.join(' · ')}>
          {details.join(' · ')}
        </span>
        {r.deletedOnServer ? (
          <span className="badge badge--bad">{intl.formatMessage(m.deleted)}</span>
        ) : item.flags.length > 0 ? (
          <span className="badge badge--warn">{intl.formatMessage(m.flags, { count: item.flags.length })}</span>
        ) : r.reviewedAt !== null ? (
          <span className="badge badge--good">{intl.formatMessage(m.reviewed)}</span>
        ) : null}
      </span>
    </div>
  )
}

/** J and K move as ArrowDown and ArrowUp do. */
const LETTER_KEYS: Record<string, string> = { j: 'ArrowDown', J: 'ArrowDown', k: 'ArrowUp', K: 'ArrowUp' }

/** The list; keys it does not use (R) bubble to the screen. */
export function ReviewList() {
  const intl = useI18n()
  const total = useApp((s) => s.reviewTotal) ?? 0
  const pages = useApp((s) => s.reviewPages)
  const gen = useApp((s) => s.reviewGen)
  const selected = useApp((s) => s.reviewSelected)
  const ensure = useApp((s) => s.ensureReviewItems)
  const select = useApp((s) => s.selectReview)
  const { scrollRef, virtualizer, items, first, last, keyMove } = useVirtualRows({
    count: total,
    rowHeight: OPTION_HEIGHT,
    overscan: 8,
    gen,
    ensure,
  })

  // The selected record's index among the loaded pages (-1: not loaded or not in this filter).
  const index = useMemo(() => {
    if (!selected) return -1
    for (const [p, list] of Object.entries(pages)) {
      const i = list.findIndex((it) => it.record.uuid === selected)
      if (i >= 0) return Number(p) * REVIEW_PAGE + i
    }
    return -1
  }, [pages, selected])

  // Nothing selected yet: the newest record, once the list has painted. Its detail (the form, the
  // document's request) renders in a task of its own after that frame, so the list shows first.
  const firstItem = reviewItemAt(pages, 0)
  useEffect(() => {
    if (selected || !firstItem) return
    let task: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => {
      task = setTimeout(() => {
        if (useApp.getState().reviewSelected === null) select(firstItem.record.uuid)
      }, 0)
    })
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(task)
    }
  }, [selected, firstItem, select])

  // The next record's document is asked for while this one is read.
  useEffect(() => {
    const next = index >= 0 ? reviewItemAt(pages, index + 1) : undefined
    if (next) void loadDocument(next.uploadId)
  }, [index, pages])

  const moveTo = (to: number) => {
    if (total === 0) return
    const i = Math.max(0, Math.min(total - 1, to))
    virtualizer.scrollToIndex(i, { align: 'auto' })
    const it = reviewItemAt(pages, i)
    if (it) select(it.record.uuid)
    else ensure(i, i)
  }

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return
    const to = keyMove(LETTER_KEYS[e.key] ?? e.key, index)
    if (to === undefined) return
    e.preventDefault()
    moveTo(to)
  }

  return (
    <div
      ref={scrollRef}
      className="review-list"
      role="listbox"
      tabIndex={0}
      aria-label={intl.formatMessage(m.label)}
      aria-activedescendant={index >= 0 && index >= first && index <= last ? `review-opt-${index}` : undefined}
      aria-keyshortcuts="ArrowDown ArrowUp J K"
      onKeyDown={onKeyDown}
    >
      <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {items.map((v) => {
          const item = reviewItemAt(pages, v.index)
          return (
            <Option
              key={v.index}
              item={item}
              index={v.index}
              start={v.start}
              selected={item !== undefined && item.record.uuid === selected}
            />
          )
        })}
      </div>
    </div>
  )
}
