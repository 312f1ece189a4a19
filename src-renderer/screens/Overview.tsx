import { type ReactNode, useEffect, useState } from 'react'
import type { ReferredBusinessRow } from '../../contract/api'
import { Screen } from '../components/Screen'
import { formatCompactDateTime, formatMonth, formatNumber, formatWholeDateTime, plural } from '../lib/format'
import { columnWidth } from '../lib/measure'
import { useCutFocus } from '../components/RowMenu'
import { useApp } from '../store'
import type { Overview as OverviewData } from '../store/overview'
import { activeProfile, isPartner } from '../store/session'
import { AddSeatsButton, AddSeatsDialog } from './partner/Businesses'
import { DayChart } from './overview/DayChart'
import { MonthMoney } from './overview/Money'
import { ACTIONS, EmptyRow, TableHead, numeric } from '../components/TableHead'

type BusinessData = Extract<OverviewData, { kind: 'business' }>
type PartnerData = Extract<OverviewData, { kind: 'partner' }>

function parseMonth(m: string): Date {
  const [y, mo] = m.split('-').map(Number)
  return new Date(y ?? 1970, (mo ?? 1) - 1, 1)
}

function shiftMonth(m: string, by: number): string {
  const d = parseMonth(m)
  d.setMonth(d.getMonth() + by)
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`
}

function currentMonth(): string {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`
}

/** The month at a glance: a business's uploads, or a partner's grants and businesses. */
export function Overview() {
  const partner = useApp(isPartner)
  const profile = useApp(activeProfile)
  const overview = useApp((s) => s.overview)
  const load = useApp((s) => s.loadOverview)
  const counts = useApp((s) => s.session?.counts)

  useEffect(() => {
    const s = useApp.getState()
    if (!s.overview.data && !s.overview.loading) void load()
  }, [load])

  // While this month is shown, the figures follow the uploads (at most one reload a second and a half).
  const watching = !partner && (overview.month === null || overview.month === currentMonth())
  useEffect(() => {
    if (!watching || !useApp.getState().overview.data) return
    const t = setTimeout(() => void useApp.getState().loadOverview(), 1_500)
    return () => clearTimeout(t)
  }, [counts, watching])

  const month = overview.data?.month ?? overview.month ?? currentMonth()
  const isCurrent = month === currentMonth()
  const who = profile?.business?.name ?? profile?.name ?? ''

  return (
    <Screen
      title="Overview"
      intro={`${formatMonth(parseMonth(month))}${who ? ` · ${who}` : ''}`}
      actions={
        <nav className="month-nav" aria-label="Month">
          <button
            type="button"
            className="btn btn--small"
            onClick={() => void load(shiftMonth(month, -1))}
            aria-label={`Previous month (${formatMonth(parseMonth(shiftMonth(month, -1)))})`}
          >
            ← Previous
          </button>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => void load(null)}
            disabled={isCurrent}
          >
            This month
          </button>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => void load(shiftMonth(month, 1))}
            disabled={isCurrent}
            aria-label={`Next month (${formatMonth(parseMonth(shiftMonth(month, 1)))})`}
          >
            Next →
          </button>
        </nav>
      }
    >
      {overview.error ? (
        <p className="form-error" role="alert">
          The overview could not be loaded: {overview.error}{' '}
          <button type="button" className="linklike" onClick={() => void load()}>
            Try again
          </button>
        </p>
      ) : null}
      <div aria-busy={overview.loading}>
        {!overview.data ? (
          overview.loading ? (
            <p role="status">Loading the overview…</p>
          ) : null
        ) : overview.data.kind === 'business' ? (
          <BusinessOverview data={overview.data} current={isCurrent} />
        ) : (
          <PartnerOverview data={overview.data} />
        )}
      </div>
    </Screen>
  )
}

function Kpi({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <div className="kpi">
      <dt className="kpi__label">{label}</dt>
      <dd className="kpi__value">{value}</dd>
      {note ? <dd className="kpi__note">{note}</dd> : null}
    </div>
  )
}

function BusinessOverview({ data, current }: { data: BusinessData; current: boolean }) {
  const setScreen = useApp((s) => s.setScreen)
  const name = formatMonth(parseMonth(data.month))
  return (
    <>
      <dl className="kpis" aria-label={`Figures for ${name}`}>
        <Kpi
          label="Files sent"
          value={formatNumber(data.filesSent)}
          note={data.filesAdded > data.filesSent ? `of ${plural(data.filesAdded, 'file')} added` : undefined}
        />
        <Kpi
          label="Records created"
          value={formatNumber(data.recordsCreated)}
          note={
            data.failed ? <span className="text-bad">{plural(data.failed, 'file')} failed</span> : undefined
          }
        />
        <Kpi
          label="Need attention"
          value={formatNumber(data.needsAttention)}
          note={
            data.needsAttention > 0 ? (
              <button type="button" className="linklike" onClick={() => setScreen('capture')}>
                Review them
              </button>
            ) : (
              'Nothing to look at'
            )
          }
        />
        <Kpi
          label="AI credits used"
          value={formatNumber(data.creditsUsed)}
          note={`${plural(data.creditsPerCreate, 'credit')} per file sent`}
        />
      </dl>
      {current ? <MonthMoney /> : null}
      <section className="card" aria-labelledby="per-day-title">
        <h2 id="per-day-title" className="h3">
          Uploads per day
        </h2>
        {data.filesAdded === 0 ? (
          <div className="empty">
            <p>Nothing was sent in {name}.</p>
            {current ? (
              <button type="button" className="btn btn--primary" onClick={() => setScreen('capture')}>
                Drop receipts
              </button>
            ) : null}
          </div>
        ) : (
          <DayChart days={data.days} month={name} />
        )}
      </section>
    </>
  )
}

// ---------------------------------------------------------------------------------------------

type Grant = PartnerData['grants'][number]

function grantText(g: Grant): string {
  return g.kind === 'seats'
    ? `${plural(g.seats, 'seat')}${g.prorated ? ', joined the running period' : ` for ${plural(g.months, 'month')}`}`
    : `${formatNumber(g.credits)} AI credits`
}

/**
 * A cell's long text: one line, cut with an ellipsis, the whole text on hover, on focus (focusable
 * while cut) and for screen readers; its direction its own (an Arabic name is cut at its end).
 */
function Cut({ text }: { text: string }) {
  const ref = useCutFocus<HTMLSpanElement>()
  return (
    <span ref={ref} className="cut" title={text} dir="auto">
      {text}
    </span>
  )
}

function PartnerOverview({ data }: { data: PartnerData }) {
  const load = useApp((s) => s.loadOverview)
  const setScreen = useApp((s) => s.setScreen)
  const [seatsFor, setSeatsFor] = useState<ReferredBusinessRow | null>(null)
  const name = formatMonth(parseMonth(data.month))
  return (
    <>
      <dl className="kpis" aria-label={`Figures for ${name}`}>
        <Kpi
          label="Holding"
          value={data.holding ? `${formatNumber(data.holding.balance)}` : '—'}
          note={
            data.holding
              ? `credits, after the grant of ${formatCompactDateTime(data.holding.at)}`
              : 'Known after your first grant from Bookdrop'
          }
        />
        <Kpi
          label="AI credits granted"
          value={formatNumber(data.creditsGranted)}
          note={plural(data.creditGrants, 'grant')}
        />
        <Kpi
          label="Seats granted"
          value={formatNumber(data.seatsGranted)}
          note={plural(data.seatGrants, 'grant')}
        />
        <Kpi
          label="Businesses without seats"
          value={data.withoutSeats ? formatNumber(data.withoutSeats.length) : '—'}
          note={
            data.businesses === null
              ? 'Not known right now'
              : `of ${plural(data.businesses, 'business', 'businesses')}`
          }
        />
      </dl>
      {data.error ? (
        <p className="note note--warn" role="alert">
          {data.error}
        </p>
      ) : null}

      <section className="section" aria-labelledby="without-seats-title">
        <div className="section__head">
          <h2 id="without-seats-title" className="h3">
            Businesses without seats
          </h2>
          <button type="button" className="btn btn--small" onClick={() => setScreen('partnerBusinesses')}>
            All referred businesses
          </button>
        </div>
        {data.withoutSeats ? (
          <div className="table-wrap">
            <table className="table overview-table">
              <caption className="sr-only">Businesses without seats</caption>
              <TableHead
                cells={[
                  'Business',
                  { label: 'Email', className: 'overview-table__wide' },
                  { label: 'Plan', className: 'overview-table__plan' },
                  { label: ACTIONS, className: 'overview-table__action' },
                ]}
              />
              <tbody>
                {data.withoutSeats.length === 0 ? (
                  <EmptyRow span={4}>Every business you referred has seats.</EmptyRow>
                ) : (
                  data.withoutSeats.map((r) => (
                    <tr key={r.uuid}>
                      <td>
                        <Cut text={r.name} />
                      </td>
                      <td className="overview-table__wide">
                        <Cut text={r.email} />
                      </td>
                      <td>
                        <Cut text={`${r.subscription_plan || '—'} · ${r.subscription_status || '—'}`} />
                      </td>
                      <td className="actions-cell">
                        {r.credit_from_referral_partner ? (
                          <span
                            className="muted small"
                            title="Its AI use is paid from your credit: it cannot take partner seats."
                          >
                            AI paid by you
                          </span>
                        ) : (
                          <AddSeatsButton row={r} onClick={() => setSeatsFor(r)} />
                        )}
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </div>
        ) : null}
      </section>

      <section className="section" aria-labelledby="grants-title">
        <h2 id="grants-title" className="h3">
          Grants in {name}
        </h2>
        <div className="table-wrap">
          <table className="table overview-table">
            <caption className="sr-only">Grants made from Bookdrop in {name}</caption>
            <TableHead
              cells={[
                {
                  label: 'When',
                  className: 'nowrap',
                  width: columnWidth(
                    'When',
                    data.grants.map((g) => formatCompactDateTime(g.at)),
                  ),
                },
                'Business',
                'Grant',
                numeric('Charged', 'overview-table__num'),
                numeric('Holding after', 'overview-table__num overview-table__wide'),
              ]}
            />
            <tbody>
              {data.grants.length === 0 ? (
                <EmptyRow span={5}>No seats or credits were granted from Bookdrop in {name}.</EmptyRow>
              ) : (
                data.grants.map((g) => (
                  <tr key={g.id}>
                    <td className="nowrap">
                      <time dateTime={new Date(g.at).toISOString()} title={formatWholeDateTime(g.at)}>
                        {formatCompactDateTime(g.at)}
                      </time>
                    </td>
                    <td>
                      <Cut text={g.businessName ?? g.businessUuid} />
                    </td>
                    <td>
                      <Cut text={grantText(g)} />
                    </td>
                    <td className="num">{formatNumber(g.holdingCharged)}</td>
                    <td className="num overview-table__wide">{formatNumber(g.holdingAfter)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </div>
        <p className="muted small">
          The API lists no grants: these are the ones made from this computer, remembered from the server’s
          answers.
        </p>
      </section>
      {seatsFor ? (
        <AddSeatsDialog
          row={seatsFor}
          onClose={() => {
            setSeatsFor(null)
            void load()
          }}
        />
      ) : null}
    </>
  )
}
