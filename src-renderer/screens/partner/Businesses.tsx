import { useEffect, useMemo, useState } from 'react'
import { defineMessages } from 'react-intl'
import type { ReferredBusinessRow } from '../../../contract/api'
import { ListError, NOT_LOADED } from '../../components/RecordListSection'
import { BusyButton, Field, Options, SearchField } from '../../components/Field'
import { Pager } from '../../components/Pager'
import { Screen } from '../../components/Screen'
import { useI18n } from '../../lib/i18n'
import { useApp } from '../../store'
import { EmptyRow } from '../../components/TableHead'
import { useShallow } from 'zustand/react/shallow'
import { AddCreditsDialog } from './businesses/AddCreditsDialog'
import { AddSeatsDialog } from './businesses/AddSeatsDialog'
import { BusinessRow } from './businesses/BusinessRow'
import { g } from './businesses/GrantParts'
import { COLUMNS, type Key, columnClass } from './businesses/columns'
import messages from './Businesses.messages.json' with { type: 'json' }

// The partner's overview offers the seats dialog too (from this module: it travels in this chunk).
export { AddSeatsButton, AddSeatsDialog } from './businesses/AddSeatsDialog'

const PAGE_SIZES = [1, 5, 10, 20, 50, 100]

const m = defineMessages(messages.m)

/** The partner's referred businesses: a server page of them, searched and sorted here, and grants. */
export function Businesses() {
  const [referred, load] = useApp(useShallow((s) => [s.referred, s.loadReferred] as const))
  const [billing, loadBilling] = useApp(useShallow((s) => [s.billing, s.loadBilling] as const))
  const holding = useApp((s) => s.holdingBalance)
  const [search, setSearch] = useState('')
  const [sort, setSort] = useState<{ key: Key; dir: 'asc' | 'desc' } | null>(null)
  const [openBilling, setOpenBilling] = useState<Record<string, boolean>>({})
  const [seatsFor, setSeatsFor] = useState<ReferredBusinessRow | null>(null)
  const [creditsFor, setCreditsFor] = useState<ReferredBusinessRow | null>(null)
  const intl = useI18n()
  const title = intl.formatMessage(m.title)

  useEffect(() => {
    if (!useApp.getState().referred.loaded) void load()
  }, [load])

  const rows = useMemo(() => {
    const q = search.trim().toLowerCase()
    let out = q
      ? referred.rows.filter((r) =>
          [r.name, r.email, r.uuid, r.country, r.currency, r.subscription_status, r.subscription_plan].some(
            (v) => v.toLowerCase().includes(q),
          ),
        )
      : referred.rows
    if (sort) {
      const { key, dir } = sort
      out = [...out].sort((a, b) => {
        const x = a[key]
        const y = b[key]
        const c =
          typeof x === 'number' && typeof y === 'number'
            ? x - y
            : String(x ?? '').localeCompare(String(y ?? ''))
        return dir === 'asc' ? c : -c
      })
    }
    return out
  }, [referred.rows, search, sort])

  const sortBy = (key: Key) =>
    setSort((s) => (s?.key === key ? (s.dir === 'asc' ? { key, dir: 'desc' } : null) : { key, dir: 'asc' }))

  return (
    <Screen
      title={title}
      intro={intl.formatMessage(m.intro)}
      actions={
        <span className="muted" aria-live="polite">
          {intl.formatMessage(m.holding, {
            credits:
              holding === null
                ? intl.formatMessage(m.holdingUnknown)
                : intl.formatMessage(g.credits, { count: holding }),
          })}
        </span>
      }
    >
      <div className="filters">
        <SearchField
          label={intl.formatMessage(m.search)}
          value={search}
          onChange={setSearch}
          placeholder={intl.formatMessage(m.searchPlaceholder)}
        />
        <Field label={intl.formatMessage(m.rows)}>
          {(p) => (
            <select
              {...p}
              value={referred.limit}
              onChange={(e) => void load({ limit: Number(e.target.value), page: 1 })}
            >
              <Options values={PAGE_SIZES} />
            </select>
          )}
        </Field>
        <BusyButton
          onClick={() => void load()}
          busy={referred.loading}
          busyLabel={intl.formatMessage(m.loading)}
        >
          {intl.formatMessage(m.reload)}
        </BusyButton>
      </div>
      <ListError what={title} list={referred} onRetry={() => void load()} />
      <div className="table-wrap">
        <table className="table table--fit" aria-busy={referred.loading}>
          <caption className="sr-only">{intl.formatMessage(m.caption, { page: referred.page })}</caption>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={columnClass(c)}
                  style={c.width ? { width: c.width } : undefined}
                  aria-sort={
                    sort?.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined
                  }
                >
                  <button type="button" className="th-sort" onClick={() => sortBy(c.key)}>
                    {intl.formatMessage(c.label)}
                    <span aria-hidden="true">
                      {sort?.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                    </span>
                  </button>
                </th>
              ))}
              <th scope="col" className="actions-cell" style={{ width: '136px' }}>
                <span className="sr-only">{intl.formatMessage(m.actions)}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <EmptyRow span={COLUMNS.length + 1}>
                {intl.formatMessage(
                  referred.loading
                    ? m.loading
                    : referred.error
                      ? NOT_LOADED
                      : search
                        ? m.noMatch
                        : m.empty,
                )}
              </EmptyRow>
            ) : (
              rows.map((r) => (
                <BusinessRow
                  key={r.uuid}
                  row={r}
                  billing={billing[r.uuid]}
                  open={Boolean(openBilling[r.uuid])}
                  onToggle={() => {
                    const open = !openBilling[r.uuid]
                    setOpenBilling((o) => ({ ...o, [r.uuid]: open }))
                    if (open) void loadBilling(r.uuid)
                  }}
                  onAddSeats={() => setSeatsFor(r)}
                  onAddCredits={() => setCreditsFor(r)}
                />
              ))
            )}
          </tbody>
        </table>
      </div>
      <Pager
        label={title}
        page={referred.page}
        limit={referred.limit}
        total={referred.total}
        loading={referred.loading}
        failed={referred.error !== null}
        onPage={(page) => void load({ page })}
      />
      {seatsFor ? <AddSeatsDialog row={seatsFor} onClose={() => setSeatsFor(null)} /> : null}
      {creditsFor ? <AddCreditsDialog row={creditsFor} onClose={() => setCreditsFor(null)} /> : null}
    </Screen>
  )
}
