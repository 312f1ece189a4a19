import type { ReactNode } from 'react'
import { useRecordList } from '../lib/useRecordList'
import type { ListKey } from '../store/records'
import { Pager } from './Pager'
import { RecordTable, type RecordTableProps } from './RecordTable'

interface Props extends Omit<RecordTableProps, 'rows' | 'loading'> {
  /** The list of the store this section shows (loaded on first show). */
  listKey: ListKey
  /** The section's heading and its id (no heading without a title). */
  title?: string
  titleId?: string
  className?: string
  /** The pager's name ("Invoices pages"); the table's caption by default. */
  pagerLabel?: string
  /** Above the table (a search form); below the pager (a dialog). */
  before?: ReactNode
  after?: ReactNode
}

/**
 * Every list screen's section: heading, the list's error, the table of its rows and the pager,
 * over one list of the store.
 */
export function RecordListSection({
  listKey,
  title,
  titleId,
  className = 'section',
  pagerLabel,
  before,
  after,
  ...table
}: Props) {
  const { list, load } = useRecordList(listKey)
  return (
    <section className={className} aria-labelledby={title ? titleId : undefined}>
      {title ? (
        <h2 id={titleId} className="h3">
          {title}
        </h2>
      ) : null}
      {before}
      {list.error ? (
        <p className="form-error" role="alert">
          {list.error}
        </p>
      ) : null}
      <RecordTable {...table} rows={list.rows} loading={list.loading} />
      <Pager
        label={pagerLabel ?? table.caption}
        page={list.page}
        limit={list.limit}
        total={list.total}
        count={list.rows.length}
        loading={list.loading}
        onPage={(page) => void load(listKey, { page })}
      />
      {after}
    </section>
  )
}
