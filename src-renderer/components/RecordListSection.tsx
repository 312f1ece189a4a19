import type { ReactNode } from 'react'
import { defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { useRecordList } from '../lib/useRecordList'
import type { ListKey } from '../store/records'
import { CONNECTION_STATES } from '../lib/labels'
import { useApp } from '../store'
import { BusyButton } from './Field'
import { Pager } from './Pager'
import { RecordTable, type RecordTableProps } from './RecordTable'
import { Section } from './Section'
import messages from './RecordListSection.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

interface Props extends Omit<RecordTableProps, 'rows' | 'loading'> {
  /** The list of the store this section shows (loaded on first show). */
  listKey: ListKey
  /** The section's heading (no heading without a title). */
  title?: string
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
  className = 'section',
  pagerLabel,
  before,
  after,
  ...table
}: Props) {
  const { list, load } = useRecordList(listKey)
  const intl = useI18n()
  const body = (
    <>
      {before}
      <ListError what={table.caption} list={list} onRetry={() => void load(listKey)} />
      <RecordTable
        {...table}
        rows={list.rows}
        loading={list.loading}
        empty={list.error ? intl.formatMessage(NOT_LOADED) : table.empty}
      />
      <Pager
        label={pagerLabel ?? table.caption}
        page={list.page}
        limit={list.limit}
        total={list.total}
        count={list.rows.length}
        loading={list.loading}
        failed={list.error !== null}
        onPage={(page) => void load(listKey, { page })}
      />
      {after}
    </>
  )
  return title ? (
    <Section className={className} title={title}>
      {body}
    </Section>
  ) : (
    <section className={className}>{body}</section>
  )
}

/** What an empty table says when its list failed to load: never "No … yet" under an error. */
export const NOT_LOADED = m.notLoaded

/**
 * A list that could not be loaded: why, a Try again (busy while it asks, focus kept), and, when the
 * server cannot be reached, that the list reloads by itself once it answers again.
 */
export function ListError({
  what,
  list: { error, loading },
  onRetry,
}: {
  what: string
  /** The list's state: why it did not load, and whether it is loading again. */
  list: { error: string | null; loading: boolean }
  onRetry: () => void
}) {
  const state = useApp((s) => s.session?.state ?? 'active')
  const intl = useI18n()
  if (!error) return null
  return (
    <div className="form-error list-error" role="alert">
      <p>{intl.formatMessage(m.failed, { what, error })}</p>
      <p>
        {CONNECTION_STATES.includes(state) ? `${intl.formatMessage(m.reloadsByItself)} ` : null}
        <BusyButton
          className="btn btn--small"
          busy={loading}
          busyLabel={intl.formatMessage(m.tryingAgain)}
          onClick={onRetry}
        >
          {intl.formatMessage(m.tryAgain)}
        </BusyButton>
      </p>
    </div>
  )
}
