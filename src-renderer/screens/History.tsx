import { defineMessages } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { useEffect, useRef, useState } from 'react'
import { Screen } from '../components/Screen'
import { useVirtualRows } from '../lib/useVirtualRows'
import { useApp } from '../store'
import { historyRowAt } from '../store/history'
import { useShallow } from 'zustand/react/shallow'
import { COLUMNS, ROW_HEIGHT, addedColumnWidth, colClass } from './history/columns'
import { ExportButton } from './history/ExportButton'
import { HistoryFilters } from './history/Filters'
import { FocusedRowDetails, HistoryRow } from './history/HistoryRow'
import messages from './History.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

export { ROW_HEIGHT }

/** The upload history: its filters, and every upload in a virtual table moved through by keyboard. */
export function History() {
  const total = useApp((s) => s.historyTotal)
  const [pages, gen] = useApp(useShallow((s) => [s.historyPages, s.historyGen] as const))
  const [newRows, error] = useApp(useShallow((s) => [s.historyNew, s.historyError] as const))
  const reload = useApp((s) => s.reloadHistory)
  const intl = useI18n()
  const ensure = useApp((s) => s.ensureHistoryRows)
  useEffect(() => {
    const s = useApp.getState()
    // Once per screen visit (StrictMode's second effect run finds the first query under way).
    if (s.historyTotal === null && Object.keys(s.historyLoading).length === 0) reload()
  }, [reload])

  const count = total ?? 0
  const { scrollRef, virtualizer, items, first, last, keyMove } = useVirtualRows({
    count,
    rowHeight: ROW_HEIGHT,
    overscan: 12,
    gen,
    ensure,
  })

  // Keyboard: one row is in the tab order; arrows, Page Up/Down, Home and End move it.
  const [active, setActive] = useState(0)
  const [focused, setFocused] = useState(false)

  // A new query starts at the top (useVirtualRows scrolls there).
  useEffect(() => {
    setActive(0)
  }, [gen])
  const focusPending = useRef(false)
  useEffect(() => {
    if (!focusPending.current) return
    focusPending.current = false
    scrollRef.current?.querySelector<HTMLElement>(`[data-row="${active}"]`)?.focus()
  }, [active, first, last])

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (count === 0 || !(e.target instanceof HTMLElement) || e.target.getAttribute('role') !== 'row') return
    const to = keyMove(e.key, active)
    if (to === undefined) return
    e.preventDefault()
    focusPending.current = true
    setActive(to)
    virtualizer.scrollToIndex(to, { align: 'auto' })
  }

  return (
    <Screen
      title={intl.formatMessage(m.title)}
      intro={intl.formatMessage(m.intro)}
      actions={<ExportButton />}
    >
      <HistoryFilters />

      <div className="history__bar">
        <span aria-live="polite" className="muted">
          {total === null
            ? error
              ? intl.formatMessage(m.notLoaded)
              : intl.formatMessage(m.loading)
            : total === 0
              ? error
                ? ''
                : intl.formatMessage(m.noMatch)
              : intl.formatMessage(m.count, { count: total })}
        </span>
        {newRows > 0 ? (
          <button type="button" className="btn btn--small" onClick={reload}>
            {intl.formatMessage(m.showNew, { count: newRows })}
          </button>
        ) : null}
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}{' '}
          <button type="button" className="linklike" onClick={reload}>
            {intl.formatMessage(m.tryAgain)}
          </button>
        </p>
      ) : null}

      <div
        className="vtable"
        role="table"
        aria-label={intl.formatMessage(m.title)}
        aria-rowcount={count + 1}
        style={{ '--added-w': addedColumnWidth() } as React.CSSProperties}
      >
        <div role="rowgroup" className="vtable__head">
          <div role="row" aria-rowindex={1} className="vtable__row vtable__row--head">
            {COLUMNS.map((c) => (
              <div
                key={c.key}
                role="columnheader"
                className={colClass(c.priority)}
                title={intl.formatMessage(c.label)}
              >
                {intl.formatMessage(c.label)}
              </div>
            ))}
          </div>
        </div>
        <div
          ref={scrollRef}
          className="vtable__scroll"
          role="rowgroup"
          onKeyDown={onKeyDown}
          onFocus={() => setFocused(true)}
          onBlur={(e) => {
            if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false)
          }}
        >
          <div role="presentation" style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
            {items.map((item) => (
              <HistoryRow
                key={item.index}
                index={item.index}
                start={item.start}
                row={historyRowAt(pages, item.index)}
                tabbable={item.index === active}
                onFocusRow={setActive}
              />
            ))}
          </div>
        </div>
      </div>
      <FocusedRowDetails row={focused ? historyRowAt(pages, active) : undefined} />
    </Screen>
  )
}
