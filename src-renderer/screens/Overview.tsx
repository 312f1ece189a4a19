import type { IntlShape } from 'react-intl'
import { useI18n } from '../lib/i18n'
import { type ReactNode, useEffect, useState } from 'react'
import type { ReferredBusinessRow } from '../../contract/api'
import { Screen } from '../components/Screen'
import { formatCompactDateTime, formatMonth, formatNumber, formatWholeDateTime } from '../lib/format'
import { columnWidth } from '../lib/measure'
import { useCutFocus } from '../components/RowMenu'
import { useApp } from '../store'
import type { Overview as OverviewData } from '../store/overview'
import { activeProfile, isPartner } from '../store/session'
import { AddSeatsButton, AddSeatsDialog } from './partner/Businesses'
import { billingWords } from './partner/businesses/columns'
import { DayChart } from './overview/DayChart'
import { HeldCount } from './overview/HeldCount'
import { overviewMessages as m } from './overview/messages'
import { MonthMoney } from './overview/Money'
import { ACTIONS, EmptyRow, Table, numeric } from '../components/TableHead'
import { Section } from '../components/Section'

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
  const intl = useI18n()

  return (
    <Screen
      title={intl.formatMessage(m.title)}
      intro={`${formatMonth(parseMonth(month))}${who ? ` · ${who}` : ''}`}
      actions={
        <nav className="month-nav" aria-label={intl.formatMessage(m.month)}>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => void load(shiftMonth(month, -1))}
            aria-label={intl.formatMessage(m.previousMonth, {
              month: formatMonth(parseMonth(shiftMonth(month, -1))),
            })}
          >
            {intl.formatMessage(m.previous)}
          </button>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => void load(null)}
            disabled={isCurrent}
          >
            {intl.formatMessage(m.thisMonth)}
          </button>
          <button
            type="button"
            className="btn btn--small"
            onClick={() => void load(shiftMonth(month, 1))}
            disabled={isCurrent}
            aria-label={intl.formatMessage(m.nextMonth, {
              month: formatMonth(parseMonth(shiftMonth(month, 1))),
            })}
          >
            {intl.formatMessage(m.next)}
          </button>
        </nav>
      }
    >
      {overview.error ? (
        <p className="form-error" role="alert">
          {intl.formatMessage(m.notLoaded, { message: overview.error })}{' '}
          <button type="button" className="linklike" onClick={() => void load()}>
            {intl.formatMessage(m.tryAgain)}
          </button>
        </p>
      ) : null}
      <div aria-busy={overview.loading}>
        {!overview.data ? (
          overview.loading ? (
            <p role="status">{intl.formatMessage(m.loading)}</p>
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
  const intl = useI18n()
  const name = formatMonth(parseMonth(data.month))
  return (
    <>
      <HeldCount />
      <dl className="kpis" aria-label={intl.formatMessage(m.figuresFor, { month: name })}>
        <Kpi
          label={intl.formatMessage(m.filesSent)}
          value={formatNumber(data.filesSent)}
          note={
            data.filesAdded > data.filesSent
              ? intl.formatMessage(m.ofFilesAdded, { count: data.filesAdded })
              : undefined
          }
        />
        <Kpi
          label={intl.formatMessage(m.recordsCreated)}
          value={formatNumber(data.recordsCreated)}
          note={
            data.failed ? (
              <span className="text-bad">{intl.formatMessage(m.filesFailed, { count: data.failed })}</span>
            ) : undefined
          }
        />
        <Kpi
          label={intl.formatMessage(m.needAttention)}
          value={formatNumber(data.needsAttention)}
          note={
            data.needsAttention > 0 ? (
              <button type="button" className="linklike" onClick={() => setScreen('capture')}>
                {intl.formatMessage(m.reviewThem)}
              </button>
            ) : (
              intl.formatMessage(m.nothingToLook)
            )
          }
        />
        <Kpi
          label={intl.formatMessage(m.creditsUsed)}
          value={formatNumber(data.creditsUsed)}
          note={intl.formatMessage(m.creditsPerFile, { count: data.creditsPerCreate })}
        />
      </dl>
      {current ? <MonthMoney /> : null}
      <Section className="card" title={intl.formatMessage(m.perDay)}>
        {data.filesAdded === 0 ? (
          <div className="empty">
            <p>{intl.formatMessage(m.nothingSent, { month: name })}</p>
            {current ? (
              <button type="button" className="btn btn--primary" onClick={() => setScreen('capture')}>
                {intl.formatMessage(m.dropReceipts)}
              </button>
            ) : null}
          </div>
        ) : (
          <DayChart days={data.days} month={name} />
        )}
      </Section>
    </>
  )
}

// ---------------------------------------------------------------------------------------------

type Grant = PartnerData['grants'][number]

function grantText(intl: IntlShape, g: Grant): string {
  return g.kind === 'seats'
    ? g.prorated
      ? intl.formatMessage(m.grantSeatsProrated, { seats: g.seats })
      : intl.formatMessage(m.grantSeats, { seats: g.seats, months: g.months })
    : intl.formatMessage(m.grantCredits, { credits: g.credits })
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
  const intl = useI18n()
  const name = formatMonth(parseMonth(data.month))
  return (
    <>
      <dl className="kpis" aria-label={intl.formatMessage(m.figuresFor, { month: name })}>
        <Kpi
          label={intl.formatMessage(m.holding)}
          value={data.holding ? `${formatNumber(data.holding.balance)}` : '—'}
          note={
            data.holding
              ? intl.formatMessage(m.holdingNote, { at: formatCompactDateTime(data.holding.at) })
              : intl.formatMessage(m.holdingUnknown)
          }
        />
        <Kpi
          label={intl.formatMessage(m.creditsGranted)}
          value={formatNumber(data.creditsGranted)}
          note={intl.formatMessage(m.grants, { count: data.creditGrants })}
        />
        <Kpi
          label={intl.formatMessage(m.seatsGranted)}
          value={formatNumber(data.seatsGranted)}
          note={intl.formatMessage(m.grants, { count: data.seatGrants })}
        />
        <Kpi
          label={intl.formatMessage(m.withoutSeats)}
          value={data.withoutSeats ? formatNumber(data.withoutSeats.length) : '—'}
          note={
            data.businesses === null
              ? intl.formatMessage(m.notKnown)
              : intl.formatMessage(m.ofBusinesses, { count: data.businesses })
          }
        />
      </dl>
      {data.error ? (
        <p className="note note--warn" role="alert">
          {data.error}
        </p>
      ) : null}

      <Section
        title={intl.formatMessage(m.withoutSeats)}
        actions={
          <button type="button" className="btn btn--small" onClick={() => setScreen('partnerBusinesses')}>
            {intl.formatMessage(m.allReferred)}
          </button>
        }
      >
        {data.withoutSeats ? (
          <Table
            className="table overview-table"
            caption={intl.formatMessage(m.withoutSeats)}
            cells={[
              intl.formatMessage(m.colBusiness),
              { label: intl.formatMessage(m.colEmail), className: 'overview-table__wide' },
              { label: intl.formatMessage(m.colPlan), className: 'overview-table__plan' },
              { label: ACTIONS, className: 'overview-table__action' },
            ]}
          >
            {data.withoutSeats.length === 0 ? (
              <EmptyRow span={4}>{intl.formatMessage(m.allHaveSeats)}</EmptyRow>
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
                    <Cut
                      text={`${billingWords(r.subscription_plan)} · ${billingWords(r.subscription_status)}`}
                    />
                  </td>
                  <td className="actions-cell">
                    {r.credit_from_referral_partner ? (
                      <span className="muted small" title={intl.formatMessage(m.aiPaidTitle)}>
                        {intl.formatMessage(m.aiPaid)}
                      </span>
                    ) : (
                      <AddSeatsButton row={r} onClick={() => setSeatsFor(r)} />
                    )}
                  </td>
                </tr>
              ))
            )}
          </Table>
        ) : null}
      </Section>

      <Section title={intl.formatMessage(m.grantsIn, { month: name })}>
        <Table
          className="table overview-table"
          caption={intl.formatMessage(m.grantsCaption, { month: name })}
          cells={[
            {
              label: intl.formatMessage(m.colWhen),
              className: 'nowrap',
              width: columnWidth(
                intl.formatMessage(m.colWhen),
                data.grants.map((g) => formatCompactDateTime(g.at)),
              ),
            },
            intl.formatMessage(m.colBusiness),
            intl.formatMessage(m.colGrant),
            numeric(intl.formatMessage(m.colCharged), 'overview-table__num'),
            numeric(intl.formatMessage(m.colHoldingAfter), 'overview-table__num overview-table__wide'),
          ]}
        >
          {data.grants.length === 0 ? (
            <EmptyRow span={5}>{intl.formatMessage(m.noGrants, { month: name })}</EmptyRow>
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
                  <Cut text={grantText(intl, g)} />
                </td>
                <td className="num">{formatNumber(g.holdingCharged)}</td>
                <td className="num overview-table__wide">{formatNumber(g.holdingAfter)}</td>
              </tr>
            ))
          )}
        </Table>
        <p className="muted small">{intl.formatMessage(m.grantsNote)}</p>
      </Section>
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
