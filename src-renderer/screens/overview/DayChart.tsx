import { defineMessages } from 'react-intl'
import { useI18n } from '../../lib/i18n'
import { formatDay, formatNumber } from '../../lib/format'
import { TableHead, numeric } from '../../components/TableHead'
import type { Overview as OverviewData } from '../../store/overview'
import messages from './DayChart.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

type DayFigures = Extract<OverviewData, { kind: 'business' }>['days'][number]

/** A column chart of the files sent each day (records, failures and the rest stacked), in plain SVG. */
export function DayChart({ days, month }: { days: DayFigures[]; month: string }) {
  const intl = useI18n()
  const W = 640
  const H = 170
  const pad = { l: 30, r: 6, t: 10, b: 22 }
  const plotW = W - pad.l - pad.r
  const plotH = H - pad.t - pad.b
  // A day's column: records made, files still on the way, failures (a failure may not have been sent).
  const parts = days.map((d) => ({
    done: d.completed,
    other: Math.max(0, d.sent - d.completed - d.failed),
    failed: d.failed,
  }))
  const max = niceCeil(Math.max(1, ...parts.map((p) => p.done + p.other + p.failed)))
  const step = plotW / days.length
  const barW = Math.max(2, step * 0.7)
  const y = (v: number) => pad.t + plotH - (v / max) * plotH
  const total = days.reduce((n, d) => n + d.sent, 0)
  const busiest = days.reduce<DayFigures | null>((b, d) => (!b || d.sent > b.sent ? d : b), null)
  const summary =
    busiest && busiest.sent > 0
      ? intl.formatMessage(m.summaryBusiest, {
          month,
          count: total,
          day: formatDay(new Date(`${busiest.day}T12:00:00`)),
          most: busiest.sent,
        })
      : intl.formatMessage(m.summary, { month, count: total })
  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} className="chart__svg">
        {[0, max / 2, max].map((v) => (
          <g key={v} className="chart__grid">
            <line x1={pad.l} x2={W - pad.r} y1={y(v)} y2={y(v)} />
            <text x={pad.l - 6} y={y(v) + 4} textAnchor="end">
              {formatNumber(v)}
            </text>
          </g>
        ))}
        {days.map((d, i) => {
          const x = pad.l + i * step + (step - barW) / 2
          const { done, other, failed } = parts[i]!
          const label = intl.formatMessage(failed ? m.dayFailed : m.day, {
            day: formatDay(new Date(`${d.day}T12:00:00`)),
            sent: d.sent,
            records: done,
            failed,
          })
          let at = 0
          const seg = (v: number, cls: string) => {
            if (v <= 0) return null
            const r = (
              <rect key={cls} x={x} width={barW} y={y(at + v)} height={y(at) - y(at + v)} className={cls} />
            )
            at += v
            return r
          }
          return (
            <g key={d.day}>
              <title>{label}</title>
              {seg(done, 'chart__bar chart__bar--done')}
              {seg(other, 'chart__bar chart__bar--busy')}
              {seg(failed, 'chart__bar chart__bar--failed')}
              {(i + 1) % 5 === 0 || i === 0 ? (
                <text x={x + barW / 2} y={H - 6} textAnchor="middle" className="chart__axis">
                  {i + 1}
                </text>
              ) : null}
            </g>
          )
        })}
      </svg>
      <figcaption className="chart__legend">
        <span>
          <i className="chart__key chart__bar--done" aria-hidden="true" /> {intl.formatMessage(m.records)}
        </span>
        <span>
          <i className="chart__key chart__bar--busy" aria-hidden="true" /> {intl.formatMessage(m.onTheWay)}
        </span>
        <span>
          <i className="chart__key chart__bar--failed" aria-hidden="true" /> {intl.formatMessage(m.failed)}
        </span>
      </figcaption>
      <details className="chart__table">
        <summary>{intl.formatMessage(m.asTable)}</summary>
        <table className="table">
          <caption className="sr-only">{intl.formatMessage(m.caption, { month })}</caption>
          <TableHead
            cells={[
              intl.formatMessage(m.colDay),
              numeric(intl.formatMessage(m.colSent)),
              numeric(intl.formatMessage(m.colRecords)),
              numeric(intl.formatMessage(m.failed)),
            ]}
          />
          <tbody>
            {days
              .filter((d) => d.sent > 0 || d.failed > 0)
              .map((d) => (
                <tr key={d.day}>
                  <td>{formatDay(new Date(`${d.day}T12:00:00`))}</td>
                  <td className="num">{formatNumber(d.sent)}</td>
                  <td className="num">{formatNumber(d.completed)}</td>
                  <td className="num">{formatNumber(d.failed)}</td>
                </tr>
              ))}
          </tbody>
        </table>
      </details>
    </figure>
  )
}

/** 1, 2, 5 × 10^n at or above v. */
function niceCeil(v: number): number {
  const p = 10 ** Math.floor(Math.log10(Math.max(1, v)))
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p
  return 10 * p
}
