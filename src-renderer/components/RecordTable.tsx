import type { ReactNode } from 'react'
import { formatMoney } from '../lib/format'
import type { RecordRow } from '../lib/types'

export interface Column {
  key: string
  label: string
  render?: (row: RecordRow) => ReactNode
  numeric?: boolean
  nowrap?: boolean
}

/** The usual columns of a record list; fields the server does not send show as a dash. */
export const COMMON_COLUMNS: Column[] = [
  { key: 'date', label: 'Date', nowrap: true },
  { key: 'document_number', label: 'Number' },
  { key: 'contact', label: 'Contact', render: (r) => str(r.contact ?? r.customer) },
  { key: 'narration', label: 'Narration' },
  {
    key: 'amount',
    label: 'Amount',
    numeric: true,
    render: (r) => formatMoney(num(r.total_amount ?? r.amount), r.currency ?? null),
  },
  { key: 'status', label: 'Status' },
]

export function str(v: unknown): string {
  return v === null || v === undefined || v === '' ? '—' : String(v)
}

function num(v: unknown): number | null {
  return typeof v === 'number' ? v : null
}

interface Props {
  caption: string
  columns: Column[]
  rows: RecordRow[]
  loading?: boolean
  empty?: string
  actions?: (row: RecordRow) => ReactNode
  /** Extra content under a row (an inline editor). */
  below?: (row: RecordRow) => ReactNode
  /** Mouse convenience: clicking a row does what its first action does (the action stays a button). */
  onRowClick?: (row: RecordRow) => void
}

export function RecordTable({
  caption,
  columns,
  rows,
  loading,
  empty = 'Nothing here yet.',
  actions,
  below,
  onRowClick,
}: Props) {
  return (
    <div className="table-wrap">
      <table className="table" aria-busy={loading}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
            {actions ? (
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={columns.length + (actions ? 1 : 0)} className="muted empty-cell">
                {loading ? 'Loading…' : empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => {
              const extra = below?.(row)
              return [
                <tr
                  key={row.uuid}
                  className={onRowClick ? 'clickable' : undefined}
                  onClick={
                    onRowClick
                      ? (e) => {
                          if (!(e.target as HTMLElement).closest('button, a, input')) onRowClick(row)
                        }
                      : undefined
                  }
                >
                  {columns.map((c) => (
                    <td
                      key={c.key}
                      className={
                        [c.numeric ? 'num' : '', c.nowrap ? 'nowrap' : ''].join(' ').trim() || undefined
                      }
                    >
                      {c.render ? c.render(row) : str(row[c.key])}
                    </td>
                  ))}
                  {actions ? <td className="actions-cell">{actions(row)}</td> : null}
                </tr>,
                extra ? (
                  <tr key={`${row.uuid}-below`} className="row-below">
                    <td colSpan={columns.length + (actions ? 1 : 0)}>{extra}</td>
                  </tr>
                ) : null,
              ]
            })
          )}
        </tbody>
      </table>
    </div>
  )
}
