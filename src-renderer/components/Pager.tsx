import { formatNumber } from '../lib/format'

interface Props {
  page: number
  limit: number
  /** Rows across all pages; null when the server does not say (2.1: list meta is optional). */
  total: number | null
  /** Rows on this page: with no total, the pager speaks of them and offers Next after a full page. */
  count?: number
  loading?: boolean
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

/** Previous / next for server-paged lists, with where we are said in words. */
export function Pager({ page, limit, total, count = 0, loading, onPage, label }: Props) {
  const hasNext = total === null ? count >= limit : page < Math.max(1, Math.ceil(total / limit))
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <button
        type="button"
        className="btn btn--small"
        disabled={page <= 1 || loading}
        onClick={() => onPage(page - 1)}
      >
        ← Previous
      </button>
      <span className="pager__where" aria-live="polite">
        {pagerText(page, limit, total, count)}
      </span>
      <button
        type="button"
        className="btn btn--small"
        disabled={!hasNext || loading}
        onClick={() => onPage(page + 1)}
      >
        Next →
      </button>
    </nav>
  )
}
