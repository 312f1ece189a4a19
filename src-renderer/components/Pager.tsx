import { defineMessages } from 'react-intl'
import { getIntl, useI18n } from '../lib/i18n'
import messages from './Pager.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

interface Props {
  page: number
  limit: number
  /** Rows across all pages; null when the server does not say (2.1: list meta is optional). */
  total: number | null
  /** Rows on this page: with no total, the pager speaks of them and offers Next after a full page. */
  count?: number
  loading?: boolean
  /** The page could not be loaded. */
  failed?: boolean
  onPage: (page: number) => void
  label: string
}

/** Where a page sits, in words: "21–40 of 143 · page 2 of 8", or without a total "21–40 · page 2". */
export function pagerText(page: number, limit: number, total: number | null, count: number): string {
  const intl = getIntl()
  const first = (page - 1) * limit + 1
  if (total === null) {
    if (count === 0) return page <= 1 ? intl.formatMessage(m.nothing) : intl.formatMessage(m.nothingOnPage, { page })
    return intl.formatMessage(m.rangeNoTotal, { first, last: first + count - 1, page })
  }
  const pages = Math.max(1, Math.ceil(total / limit))
  if (total === 0) return intl.formatMessage(m.emptyPages, { page, pages })
  return intl.formatMessage(m.range, { first, last: Math.min(total, page * limit), total, page, pages })
}

/**
 * Previous / next for server-paged lists, with where we are said in words. A button that cannot act
 * now (loading, or at either end) stays focusable with aria-disabled, so pressing Next with the
 * keyboard never drops focus to the page. `failed`: the page did not load (the list says why), so
 * the pager says nothing about what is on it.
 */
export function Pager({ page, limit, total, count = 0, loading, failed, onPage, label }: Props) {
  const intl = useI18n()
  const hasNext = total === null ? count >= limit : page < Math.max(1, Math.ceil(total / limit))
  const button = (words: string, can: boolean, to: number) => (
    <button
      type="button"
      className="btn btn--small"
      aria-disabled={!can || loading || undefined}
      aria-busy={loading || undefined}
      onClick={() => {
        if (can && !loading) onPage(to)
      }}
    >
      {words}
    </button>
  )
  return (
    <nav className="pager" aria-label={intl.formatMessage(m.pages, { list: label })}>
      {button(intl.formatMessage(m.previous), page > 1, page - 1)}
      <span className="pager__where" aria-live="polite">
        {failed ? intl.formatMessage(m.notLoaded, { page }) : pagerText(page, limit, total, count)}
      </span>
      {button(intl.formatMessage(m.next), hasNext && !failed, page + 1)}
    </nav>
  )
}
