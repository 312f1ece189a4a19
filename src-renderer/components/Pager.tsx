import { formatNumber } from '../lib/format'

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
  const first = (page - 1) * limit + 1
  if (total === null) {
    if (count === 0) return page <= 1 ? 'Nothing yet' : `Nothing on page ${formatNumber(page)}`
    return `${formatNumber(first)}–${formatNumber(first + count - 1)} · page ${formatNumber(page)}`
  }
  const pages = Math.max(1, Math.ceil(total / limit))
  const where =
    total === 0
      ? 'Nothing yet'
      : `${formatNumber(first)}–${formatNumber(Math.min(total, page * limit))} of ${formatNumber(total)}`
  return `${where} · page ${page} of ${formatNumber(pages)}`
}

/**
 * Previous / next for server-paged lists, with where we are said in words. A button that cannot act
 * now (loading, or at either end) stays focusable with aria-disabled, so pressing Next with the
 * keyboard never drops focus to the page. `failed`: the page did not load (the list says why), so
 * the pager says nothing about what is on it.
 */
export function Pager({ page, limit, total, count = 0, loading, failed, onPage, label }: Props) {
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
    <nav className="pager" aria-label={`${label} pages`}>
      {button('← Previous', page > 1, page - 1)}
      <span className="pager__where" aria-live="polite">
        {failed ? `Page ${formatNumber(page)} not loaded` : pagerText(page, limit, total, count)}
      </span>
      {button('Next →', hasNext && !failed, page + 1)}
    </nav>
  )
}
