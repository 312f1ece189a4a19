import { type ReactNode, useCallback, useMemo, useState } from 'react'
import { type MessageDescriptor, defineMessages } from 'react-intl'
import { formatDate, formatMoney } from '../lib/format'
import { getIntl, useI18n } from '../lib/i18n'
import { columnWidth } from '../lib/measure'
import type { RecordRow } from '../lib/types'
import { Truncate } from './RowMenu'
import { ACTIONS, EmptyRow, Table } from './TableHead'
import messages from './RecordTable.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** A record's status in words ("posted" → "Posted"); a status not known here is shown plainly. */
const STATUS = defineMessages(messages.STATUS)

/** How a payment was made, in words ("bank_transfer" → "Bank transfer"). */
const METHOD = defineMessages(messages.METHOD)

/** An API word ("partially_paid", "Bank-Transfer") as the key of the tables above. */
const key = (v: string) => v.trim().toLowerCase().replace(/[\s-]+/g, '_')
/** An API word not known here, shown as plain words: underscores become spaces. */
const plain = (v: string) => v.replace(/_/g, ' ')

/** A record's status in the person's language; "—" when the server sent none. */
export function statusWords(status: unknown): string {
  if (typeof status !== 'string' || !status) return '—'
  const d = (STATUS as Record<string, MessageDescriptor>)[key(status)]
  return d ? getIntl().formatMessage(d) : plain(status)
}

/** A payment method in the person's language; "—" when the server sent none. */
export function methodWords(method: unknown): string {
  if (typeof method !== 'string' || !method) return '—'
  const d = (METHOD as Record<string, MessageDescriptor>)[key(method)]
  return d ? getIntl().formatMessage(d) : plain(method)
}

export interface Column {
  key: string
  /** The column's header (a catalogue message). */
  label: MessageDescriptor
  render?: (row: RecordRow) => ReactNode
  numeric?: boolean
  nowrap?: boolean
  /** A fixed width (CSS length); columns without one share the rest of the table's width. */
  width?: string
  /**
   * Sized to its content: the width of its widest value on the page (money and dates are never cut,
   * issue 26); other columns give way.
   */
  fit?: boolean
  /**
   * 1 (default): always shown. 3, then 2: hidden when the table is too narrow for every column at
   * its least (useShownColumns; before the table's width is known, container queries in tables.css
   * hide 3 under 760 px and 2 under 640 px). What a row needs to be told apart and acted on stays at 1.
   */
  priority?: 1 | 2 | 3
  /**
   * The row's name: cut with an ellipsis when long, shown whole on hover and, being focusable, when
   * focused. Other text columns are cut with the whole text on hover.
   */
  primary?: boolean
}

/** The usual columns of a record list; fields the server does not send show as a dash. */
export const COMMON_COLUMNS: Column[] = [
  { key: 'date', label: m.date, fit: true, render: (r) => formatDate(r.date) },
  { key: 'document_number', label: m.number, width: '110px', priority: 3 },
  { key: 'contact', label: m.contact, render: (r) => str(r.contact ?? r.customer), priority: 2 },
  { key: 'narration', label: m.narration, primary: true },
  {
    key: 'amount',
    label: m.amount,
    numeric: true,
    fit: true,
    render: (r) => formatMoney(num(r.total_amount ?? r.amount), r.currency ?? null),
  },
  { key: 'status', label: m.status, width: '96px', priority: 3, render: (r) => statusWords(r.status) },
]

/** One of the usual columns (by its key), with what a list changes in it. */
export function commonColumn(key: string, change: Partial<Column> = {}): Column {
  const c = COMMON_COLUMNS.find((c) => c.key === key)
  if (!c) throw new Error(`no usual column ${key}`)
  return { ...c, ...change }
}

/**
 * The CSS classes of a column's cells. `measured`: the table chose its columns from its own width
 * (useShownColumns), so the container queries of the priorities (tables.css) are not used.
 */
function cellClass(c: Column, measured: boolean): string | undefined {
  return (
    [
      c.numeric ? 'num' : '',
      c.nowrap || c.fit ? 'nowrap' : '',
      c.fit ? 'fit' : '',
      !measured && c.priority && c.priority > 1 ? `col-p${c.priority}` : '',
    ]
      .join(' ')
      .trim() || undefined
  )
}

export function str(v: unknown): string {
  return v === null || v === undefined || v === '' ? '—' : String(v)
}

/** A cell's text, when it is text (what a fitted column is measured by). */
function cellText(c: Column, row: RecordRow): string {
  const v = c.render ? c.render(row) : str(row[c.key])
  return typeof v === 'string' ? v : ''
}

/** The widths of the columns: given, or (fit) measured from this page's rows. */
function useWidths(columns: Column[], labels: string[], rows: RecordRow[]): (string | undefined)[] {
  return useMemo(
    () =>
      columns.map((c, i) =>
        c.fit
          ? columnWidth(
              labels[i] ?? '',
              rows.map((r) => cellText(c, r)),
            )
          : c.width,
      ),
    [columns, labels, rows],
  )
}

const px = (w: string | undefined): number => {
  const m = /^(\d+(?:\.\d+)?)px$/.exec(w ?? '')
  return m ? Number(m[1]) : 0
}

/** The least a column without a width keeps: its header whole, and room for a few words. */
const FLEX_MIN = 96

/**
 * Which columns a table shows at its width (issue 26): money and dates keep their whole width, so
 * when the table is too narrow for every column at its least, the columns of lower priority give
 * way (3 first, then 2) before anything is cut; a row's name and its money stay. Null until the
 * table's width is known (the container queries of tables.css decide until then).
 */
function useShownColumns(
  columns: Column[],
  labels: string[],
  widths: (string | undefined)[],
  actionsWidth: string | null,
): { ref: React.RefCallback<HTMLDivElement>; shown: boolean[] | null } {
  const [width, setWidth] = useState<number | null>(null)
  const ref = useCallback((el: HTMLDivElement | null) => {
    if (!el || typeof ResizeObserver === 'undefined') return
    const ro = new ResizeObserver(([e]) => {
      if (e) setWidth(Math.floor(e.contentRect.width))
    })
    ro.observe(el)
    return () => ro.disconnect()
  }, [])
  const shown = useMemo(() => {
    if (width === null || width === 0) return null
    const need = (keep: (c: Column) => boolean) =>
      columns.reduce(
        (sum, c, i) =>
          keep(c)
            ? sum + (widths[i] ? px(widths[i]) : Math.max(FLEX_MIN, px(columnWidth(labels[i] ?? '', []))))
            : sum,
        px(actionsWidth ?? undefined),
      )
    for (const limit of [3, 2, 1]) {
      const keep = (c: Column) => (c.priority ?? 1) <= limit
      if (need(keep) <= width || limit === 1) return columns.map(keep)
    }
    return null
  }, [columns, labels, widths, actionsWidth, width])
  return { ref, shown }
}

function num(v: unknown): number | null {
  return typeof v === 'number' ? v : null
}

export interface RecordTableProps {
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
  /** Width of the actions column (CSS length): enough for the row's primary action and its menu. */
  actionsWidth?: string
}

export function RecordTable({
  caption,
  columns,
  rows,
  loading,
  empty,
  actions,
  below,
  onRowClick,
  actionsWidth = '96px',
}: RecordTableProps) {
  const intl = useI18n()
  const labels = useMemo(() => columns.map((c) => intl.formatMessage(c.label)), [columns, intl])
  const allWidths = useWidths(columns, labels, rows)
  const { ref, shown } = useShownColumns(columns, labels, allWidths, actions ? actionsWidth : null)
  const measured = shown !== null
  const visible = columns.filter((_, i) => shown?.[i] ?? true)
  const visibleLabels = labels.filter((_, i) => shown?.[i] ?? true)
  const widths = allWidths.filter((_, i) => shown?.[i] ?? true)
  return (
    <Table
      frameRef={ref}
      busy={loading}
      caption={caption}
      cells={[
        ...visible.map((c, i) => ({
          label: visibleLabels[i],
          className: cellClass(c, measured),
          width: widths[i],
        })),
        ...(actions ? [{ label: ACTIONS, className: 'actions-cell', width: actionsWidth }] : []),
      ]}
    >
      {rows.length === 0 ? (
        <EmptyRow span={visible.length + (actions ? 1 : 0)}>{loading ? intl.formatMessage(m.loading) : (empty ?? intl.formatMessage(m.empty))}</EmptyRow>
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
              {visible.map((c) => {
                const content = c.render ? c.render(row) : str(row[c.key])
                return (
                  <td key={c.key} className={cellClass(c, measured)}>
                    {typeof content === 'string' && !c.numeric && !c.fit ? (
                      <Truncate text={content} focusable={c.primary === true && content !== '—'} />
                    ) : (
                      content
                    )}
                  </td>
                )
              })}
              {actions ? <td className="actions-cell">{actions(row)}</td> : null}
            </tr>,
            extra ? (
              <tr key={`${row.uuid}-below`} className="row-below">
                <td colSpan={visible.length + (actions ? 1 : 0)}>{extra}</td>
              </tr>
            ) : null,
          ]
        })
      )}
    </Table>
  )
}
