import { formatNumber } from '../lib/format'

interface Props {
  page: number
  limit: number
  total: number
  loading?: boolean
  onPage: (page: number) => void
  label: string
}

/** Previous / next for server-paged lists, with where we are said in words. */
export function Pager({ page, limit, total, loading, onPage, label }: Props) {
  const pages = Math.max(1, Math.ceil(total / limit))
  const from = total === 0 ? 0 : (page - 1) * limit + 1
  const to = Math.min(total, page * limit)
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
        {total === 0 ? 'Nothing yet' : `${formatNumber(from)}–${formatNumber(to)} of ${formatNumber(total)}`}{' '}
        · page {page} of {formatNumber(pages)}
      </span>
      <button
        type="button"
        className="btn btn--small"
        disabled={page >= pages || loading}
        onClick={() => onPage(page + 1)}
      >
        Next →
      </button>
    </nav>
  )
}
