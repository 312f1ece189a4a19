import { useVirtualizer } from '@tanstack/react-virtual'
import { memo, useEffect, useRef, useState } from 'react'
import { StatusBadge } from '../components/Badge'
import { BusyButton, Check, DateField, Field, SearchField, TargetOptions } from '../components/Field'
import { RowMenu, type RowMenuItem } from '../components/RowMenu'
import { Screen } from '../components/Screen'
import { uploadReason } from '../components/UploadRow'
import { bookdrop } from '../lib/bridge'
import {
  formatCompactDateTime,
  formatNumber,
  formatWholeDateTime,
  isoOf,
  plural,
  uploadSize,
  uploadSizeTitle,
} from '../lib/format'
import { columnWidth } from '../lib/measure'
import {
  CANCELLABLE,
  RETRYABLE,
  SOURCE_LABELS,
  STATUS_LABELS,
  TARGET_LABELS,
  UPLOAD_SOURCE_LIST,
  UPLOAD_STATUS_LIST,
  retryLabel,
} from '../lib/labels'
import { settle } from '../lib/result'
import { useThrottled } from '../lib/useThrottled'
import type { AiTarget, Upload, UploadSource } from '../lib/types'
import { useApp } from '../store'
import { historyRowAt } from '../store/history'
import { useShallow } from 'zustand/react/shallow'

export const ROW_HEIGHT = 40
/**
 * The columns and their priority: 2 hides under 600 px of table, 3 under 760 px (app.css, container
 * queries on .vtable). What hides is shown for the focused row under the table, and the record's
 * action is in the row's menu too.
 */
const COLUMNS = [
  { label: 'Added', priority: 1 },
  { label: 'File', priority: 1 },
  { label: 'Source', priority: 3 },
  { label: 'Target', priority: 3 },
  { label: 'Status', priority: 1 },
  { label: 'Details', priority: 2 },
  { label: 'Record', priority: 3 },
  { label: 'Actions', priority: 1 },
] as const
const colClass = (priority: number) => `vtable__cell${priority > 1 ? ` col-p${priority}` : ''}`

let addedWidth: string | null = null
/**
 * The "Added" column's width: the widest short date and time this locale writes (two-digit days,
 * months and hours, morning and afternoon), so no row's date is ever cut (issue 26).
 */
function addedColumnWidth(): string {
  if (addedWidth === null) {
    const samples: string[] = []
    for (const month of [0, 4, 8, 9, 10, 11])
      for (const hour of [10, 22])
        samples.push(formatCompactDateTime(new Date(2026, month, 28, hour, 58).getTime()))
    addedWidth = columnWidth('Added', samples)
  }
  return addedWidth
}

export function History() {
  const [filter, total] = useApp(useShallow((s) => [s.historyFilter, s.historyTotal] as const))
  const [pages, gen] = useApp(useShallow((s) => [s.historyPages, s.historyGen] as const))
  const [newRows, error] = useApp(useShallow((s) => [s.historyNew, s.historyError] as const))
  const [setFilter, reload] = useApp(useShallow((s) => [s.setHistoryFilter, s.reloadHistory] as const))
  const ensure = useApp((s) => s.ensureHistoryRows)

  const [search, setSearch] = useState(filter.search)
  // A keystroke is searched at once; a burst of them makes one query per 80 ms, the last with the
  // final text. Late answers to an earlier query are dropped by generation.
  const searchFor = useThrottled((v: string) => setFilter({ search: v }), 80)

  useEffect(() => {
    const s = useApp.getState()
    // Once per screen visit (StrictMode's second effect run finds the first query under way).
    if (s.historyTotal === null && Object.keys(s.historyLoading).length === 0) reload()
  }, [reload])

  const scrollRef = useRef<HTMLDivElement>(null)
  const count = total ?? 0
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Rows on the very first render (the table is at most the window's height); the real size is
    // measured right after. Without it the first render has no rows and they come one pass later.
    initialRect: { width: 0, height: window.innerHeight },
    overscan: 12,
  })
  const items = virtualizer.getVirtualItems()
  const first = items[0]?.index ?? 0
  const last = items[items.length - 1]?.index ?? -1

  useEffect(() => {
    if (total !== null && last >= first && total > 0) ensure(first, last)
  }, [first, last, total, gen, ensure])

  // Keyboard: one row is in the tab order; arrows, Page Up/Down, Home and End move it.
  const [active, setActive] = useState(0)
  const [focused, setFocused] = useState(false)

  // A new query starts at the top.
  useEffect(() => {
    if (scrollRef.current) scrollRef.current.scrollTop = 0
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
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1)
    const moves: Record<string, number> = {
      ArrowDown: active + 1,
      ArrowUp: active - 1,
      PageDown: active + page,
      PageUp: active - page,
      Home: 0,
      End: count - 1,
    }
    const next = moves[e.key]
    if (next === undefined) return
    e.preventDefault()
    const to = Math.max(0, Math.min(count - 1, next))
    focusPending.current = true
    setActive(to)
    virtualizer.scrollToIndex(to, { align: 'auto' })
  }

  const toggleStatus = (st: (typeof UPLOAD_STATUS_LIST)[number]) =>
    setFilter({
      statuses: filter.statuses.includes(st)
        ? filter.statuses.filter((x) => x !== st)
        : [...filter.statuses, st],
    })

  return (
    <Screen
      title="Upload history"
      intro="Every file Bookdrop has seen, with what happened to it."
      actions={<ExportButton />}
    >
      <div className="filters" role="search" aria-label="Filter the upload history">
        <SearchField
          label="Search file names"
          className="filters__search"
          sayShortcut
          placeholder="Search… ( / )"
          value={search}
          onChange={(text) => {
            setSearch(text)
            searchFor(text)
          }}
        />
        <Field label="Target">
          {(p) => (
            <select
              {...p}
              value={filter.target}
              onChange={(e) => setFilter({ target: e.target.value as AiTarget | '' })}
            >
              <option value="">All targets</option>
              <TargetOptions />
            </select>
          )}
        </Field>
        <Field label="Source">
          {(p) => (
            <select
              {...p}
              value={filter.source}
              onChange={(e) => setFilter({ source: e.target.value as UploadSource | '' })}
            >
              <option value="">All sources</option>
              {UPLOAD_SOURCE_LIST.map((src) => (
                <option key={src} value={src}>
                  {SOURCE_LABELS[src]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <DateField
          label="From"
          value={filter.from}
          max={filter.to}
          onChange={(from) => setFilter({ from })}
        />
        <DateField label="To" value={filter.to} min={filter.from} onChange={(to) => setFilter({ to })} />
        <Check
          label="All profiles"
          checked={filter.allProfiles}
          onChange={(c) => setFilter({ allProfiles: c })}
        />
        <fieldset className="filters__statuses">
          <legend className="field__label">Status</legend>
          {UPLOAD_STATUS_LIST.map((st) => (
            <button
              key={st}
              type="button"
              className="chip"
              aria-pressed={filter.statuses.includes(st)}
              onClick={() => toggleStatus(st)}
            >
              {STATUS_LABELS[st]}
            </button>
          ))}
          {filter.statuses.length ? (
            <button type="button" className="linklike small" onClick={() => setFilter({ statuses: [] })}>
              Any status
            </button>
          ) : null}
        </fieldset>
      </div>

      <div className="history__bar">
        <span aria-live="polite" className="muted">
          {total === null
            ? error
              ? 'Not loaded: see the message below.'
              : 'Loading…'
            : total === 0
              ? error
                ? ''
                : 'No uploads match.'
              : plural(total, 'upload')}
        </span>
        {newRows > 0 ? (
          <button type="button" className="btn btn--small" onClick={reload}>
            Show {plural(newRows, 'new upload')}
          </button>
        ) : null}
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}{' '}
          <button type="button" className="linklike" onClick={reload}>
            Try again
          </button>
        </p>
      ) : null}

      <div
        className="vtable"
        role="table"
        aria-label="Upload history"
        aria-rowcount={count + 1}
        style={{ '--added-w': addedColumnWidth() } as React.CSSProperties}
      >
        <div role="rowgroup" className="vtable__head">
          <div role="row" aria-rowindex={1} className="vtable__row vtable__row--head">
            {COLUMNS.map((c) => (
              <div key={c.label} role="columnheader" className={colClass(c.priority)}>
                {c.label}
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

/** Where the row's file is, or that its local copy in the data folder was removed (issue 31). */
const pathText = (row: Upload) => (row.localCopyRemoved ? 'local copy removed' : row.path)

/**
 * The focused row in full, under the table: its whole file name and path, and what narrower tables
 * do not show (target, details). Keyboard users get what hovering gives a mouse.
 */
function FocusedRowDetails({ row }: { row: Upload | undefined }) {
  if (!row) return <p className="history__focused muted small">&nbsp;</p>
  const reason = row.status === 'completed' ? null : uploadReason(row)
  return (
    <p className="history__focused small">
      <strong>
        <bdi>{row.name}</bdi>
      </strong>{' '}
      <span className="muted">
        <bdi>{pathText(row)}</bdi>
      </span>{' '}
      · added {formatWholeDateTime(row.createdAt)} · {sourceText(row)} · {TARGET_LABELS[row.target]} ·{' '}
      {STATUS_LABELS[row.status]}
      {reason ? ` · ${reason}` : ''}
      {row.recordUuid ? ` · record ${row.recordUuid}` : ''}
    </p>
  )
}

const HistoryRow = memo(function HistoryRow({
  index,
  start,
  row,
  tabbable,
  onFocusRow,
}: {
  index: number
  start: number
  row: Upload | undefined
  tabbable: boolean
  onFocusRow: (i: number) => void
}) {
  // A row's place in the table, whether it is loaded yet or not.
  const place = {
    role: 'row',
    'aria-rowindex': index + 2,
    style: { transform: `translateY(${start}px)`, height: ROW_HEIGHT },
    'data-row': index,
    tabIndex: tabbable ? 0 : -1,
  }
  if (!row) {
    return (
      <div {...place} className="vtable__row vtable__row--loading">
        <div role="cell" className="vtable__cell muted">
          Loading…
        </div>
      </div>
    )
  }
  const reason = row.status === 'completed' ? null : uploadReason(row)
  return (
    <div
      {...place}
      className="vtable__row"
      onFocus={(e) => {
        if (e.target === e.currentTarget) onFocusRow(index)
      }}
    >
      <div role="cell" className="vtable__cell nowrap">
        <time dateTime={isoOf(row.createdAt)} title={formatWholeDateTime(row.createdAt)}>
          {formatCompactDateTime(row.createdAt)}
        </time>
      </div>
      <div role="cell" className="vtable__cell" title={pathText(row)}>
        <span className="ellipsis" dir="auto">
          {row.name}
        </span>{' '}
        <span className="muted small nowrap" title={uploadSizeTitle(row)}>
          {uploadSize(row)}
        </span>
      </div>
      <div role="cell" className={colClass(3)} title={sourceText(row)}>
        <span className="ellipsis">
          {row.source === 'mail' && row.mailSubject !== null ? (
            <>
              <span className="muted">Mail:</span> <bdi>{row.mailSubject}</bdi>
              <span className="muted">
                {' '}
                · <bdi>{row.mailFrom}</bdi>
              </span>
            </>
          ) : (
            SOURCE_LABELS[row.source]
          )}
        </span>
      </div>
      <div role="cell" className={colClass(3)} title={TARGET_LABELS[row.target]}>
        <span className="ellipsis">{TARGET_LABELS[row.target]}</span>
      </div>
      <div role="cell" className="vtable__cell" title={reason ?? undefined}>
        <StatusBadge status={row.status} />
      </div>
      <div role="cell" className={colClass(2)} title={reason ?? undefined}>
        <span className="ellipsis muted">{reason ?? (row.movedTo ? `Moved to ${row.movedTo}` : '')}</span>
      </div>
      <div role="cell" className={colClass(3)}>
        <RecordLink row={row} />
      </div>
      <div role="cell" className="vtable__cell vtable__cell--actions">
        <RowActions row={row} />
      </div>
    </div>
  )
})

/** Where a row's file came from, in words: a mail's subject and sender, else the source's name. */
function sourceText(row: Upload): string {
  if (row.source === 'mail' && row.mailSubject !== null)
    return `Mail "${row.mailSubject}" from ${row.mailFrom ?? 'an unknown sender'}`
  return SOURCE_LABELS[row.source]
}

function RecordLink({ row }: { row: Upload }) {
  const [openInvoice, setScreen] = useApp(useShallow((s) => [s.openInvoice, s.setScreen] as const))
  const toast = useApp((s) => s.toast)
  if (!row.recordUuid) return <span className="muted">—</span>
  const uuid = row.recordUuid
  if (isInvoiceRecord(row)) {
    return (
      <button
        type="button"
        className="linklike"
        onClick={() => {
          void openInvoice(uuid)
          setScreen('invoices')
        }}
        aria-label={`Open invoice ${uuid} created from ${row.name}`}
      >
        Open invoice
      </button>
    )
  }
  return (
    <button
      type="button"
      className="linklike mono"
      title={`${row.recordType ?? 'record'} ${uuid}: click to copy`}
      aria-label={`Copy record id ${uuid.slice(0, 8)}…`}
      onClick={() => {
        void navigator.clipboard?.writeText(uuid).then(
          () => toast('info', 'Record id copied.'),
          () => toast('info', `Record id: ${uuid}`),
        )
      }}
    >
      {uuid.slice(0, 8)}…
    </button>
  )
}

function RowActions({ row }: { row: Upload }) {
  const [retry, cancel] = useApp(useShallow((s) => [s.retryUpload, s.cancelUpload] as const))
  const [openInvoice, setScreen] = useApp(useShallow((s) => [s.openInvoice, s.setScreen] as const))
  const toast = useApp((s) => s.toast)
  const show = async () => {
    const r = await settle(bookdrop.showSourceFile({ id: row.id }))
    if (!r.ok) toast('error', r.error.message)
    else if (!r.value.shown) toast('info', `The file is at ${r.value.path}`)
  }
  // One primary action as a button (the one a person most likely wants); the rest in the row's menu,
  // the record's action included (its column gives way on narrow tables).
  const items: RowMenuItem[] = []
  if (CANCELLABLE.includes(row.status)) items.push({ label: 'Cancel', onSelect: () => void cancel(row.id) })
  items.push({ label: 'Show file', onSelect: () => void show() })
  const uuid = row.recordUuid
  if (uuid) {
    if (isInvoiceRecord(row)) {
      items.push({
        label: 'Open invoice',
        onSelect: () => {
          void openInvoice(uuid)
          setScreen('invoices')
        },
      })
    } else {
      items.push({
        label: 'Copy record id',
        onSelect: () =>
          void navigator.clipboard?.writeText(uuid).then(
            () => toast('info', 'Record id copied.'),
            () => toast('info', `Record id: ${uuid}`),
          ),
      })
    }
  }
  return (
    <span className="row-actions">
      {RETRYABLE.includes(row.status) ? (
        <button
          type="button"
          className="btn btn--small btn--ghost"
          onClick={() => void retry(row.id)}
          aria-label={`${retryLabel(row.status)}: ${row.name}`}
        >
          {retryLabel(row.status)}
        </button>
      ) : null}
      <RowMenu label={`More for ${row.name}`} items={items} />
    </span>
  )
}

function isInvoiceRecord(row: Upload): boolean {
  return (
    row.recordType === 'invoice' ||
    row.recordType === 'invoices' ||
    (!row.recordType && row.target === 'invoices')
  )
}

function ExportButton() {
  const request = useApp((s) => s.historyRequest)
  const toast = useApp((s) => s.toast)
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<{
    path: string | null
    rows: number
    downloadUrl: string | null
  } | null>(null)
  const run = async () => {
    setBusy(true)
    setResult(null)
    const r = await settle(bookdrop.exportHistory({ filter: request() }))
    setBusy(false)
    if (!r.ok) toast('error', `Export failed: ${r.error.message}`)
    else {
      setResult(r.value)
      if (!r.value.downloadUrl && r.value.path)
        toast('success', `${plural(r.value.rows, 'row')} exported to ${r.value.path}`)
    }
  }
  return (
    <span className="export">
      <BusyButton onClick={() => void run()} busy={busy} busyLabel="Exporting…">
        Export CSV
      </BusyButton>
      {result?.downloadUrl ? (
        // The link works once (a single-use ticket, no token in it): gone once followed.
        <a
          className="btn btn--primary"
          href={result.downloadUrl}
          download
          onClick={() => setTimeout(() => setResult(null), 0)}
        >
          Download CSV ({formatNumber(result.rows)} rows)
        </a>
      ) : null}
    </span>
  )
}
