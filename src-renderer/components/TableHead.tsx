import type { ReactNode, Ref } from 'react'
import { defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import messages from './TableHead.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** "Actions", in the language in use (a component, so it follows a switch of language). */
function ActionsWords() {
  return <span className="sr-only">{useI18n().formatMessage(m.actions)}</span>
}

/** One column header: its words, and its class and width where it has them. */
export interface HeadCell {
  label: ReactNode
  className?: string
  width?: string
}

/** A header over numbers (aligned right), with more classes where given. */
export function numeric(label: ReactNode, className?: string): HeadCell {
  return { label, className: className ? `num ${className}` : 'num' }
}

/** The words of an actions column: read out, not shown. */
export const ACTIONS = <ActionsWords />

/** A table's head: one row of column headers (a string is a plain header). */
export function TableHead({ cells }: { cells: readonly (string | HeadCell)[] }) {
  return (
    <thead>
      <tr>
        {cells.map((c, i) => {
          const cell = typeof c === 'string' ? { label: c } : c
          return (
            <th
              key={i}
              scope="col"
              className={cell.className}
              style={cell.width ? { width: cell.width } : undefined}
            >
              {cell.label}
            </th>
          )
        })}
      </tr>
    </thead>
  )
}

/**
 * A table in its frame (which scrolls sideways when the table is wider): its caption (read out, not
 * shown), its head of `cells`, and its rows.
 */
export function Table({
  caption,
  cells,
  className = 'table table--fit',
  busy,
  frameRef,
  children,
}: {
  caption: ReactNode
  cells: readonly (string | HeadCell)[]
  className?: string
  /** Its rows are loading (aria-busy). */
  busy?: boolean
  /** The frame, for a table that measures the room it has. */
  frameRef?: Ref<HTMLDivElement>
  children: ReactNode
}) {
  return (
    <div className="table-wrap" ref={frameRef}>
      <table className={className} aria-busy={busy}>
        <caption className="sr-only">{caption}</caption>
        <TableHead cells={cells} />
        <tbody>{children}</tbody>
      </table>
    </div>
  )
}

/** A table's one row when it has nothing to list: its words across every column. */
export function EmptyRow({
  span,
  className = 'muted empty-cell',
  children,
}: {
  span: number
  className?: string
  children: ReactNode
}) {
  return (
    <tr>
      <td colSpan={span} className={className}>
        {children}
      </td>
    </tr>
  )
}
