/**
 * The month's money on the Overview (issue 32): "Spent this month" in the business's currency (the
 * expenses and bills Bookdrop's uploads created this month; other currencies left out and counted
 * apart), the top vendors, and the records waiting for review, each leading to its list on Review.
 */
import { useEffect, useState } from 'react'
import { defineMessages } from 'react-intl'
import type { ReviewMoney } from '../../../contract/review'
import { bookdrop } from '../../lib/bridge'
import { formatMoney } from '../../lib/format'
import { useI18n } from '../../lib/i18n'
import { settle } from '../../lib/result'
import { useApp } from '../../store'
import messages from './Money.messages.json' with { type: 'json' }
import { Section } from '../../components/Section'

const m = defineMessages(messages.m)

export function MonthMoney() {
  const intl = useI18n()
  const openReview = useApp((s) => s.openReview)
  // The figures follow the records (a `review` event brings new counts).
  const counts = useApp((s) => s.reviewCounts)
  const [money, setMoney] = useState<ReviewMoney | null>(null)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    let current = true
    void settle(bookdrop['review.money']({})).then((r) => {
      if (!current) return
      if (r.ok) {
        setMoney(r.value)
        setError(null)
      } else setError(r.error.message)
    })
    return () => {
      current = false
    }
  }, [counts])

  if (error && !money) return <p className="form-error">{intl.formatMessage(m.failed, { reason: error })}</p>
  if (!money) return null
  const amount = (s: string) => formatMoney(Number(s), money.currency)
  return (
    <Section className="card" title={intl.formatMessage(m.title)}>
      <dl className="money__figures">
        <div className="kpi">
          <dt className="kpi__label">{intl.formatMessage(m.spent)}</dt>
          <dd className="kpi__value">{amount(money.spentThisMonth)}</dd>
          <dd className="kpi__note">
            {money.currency === null ? (
              intl.formatMessage(m.noCurrency)
            ) : money.otherCurrencies > 0 ? (
              intl.formatMessage(m.otherCurrencies, { count: money.otherCurrencies })
            ) : (
              <button type="button" className="linklike" onClick={() => openReview(null, 'all')}>
                {intl.formatMessage(m.seeRecords)}
              </button>
            )}
          </dd>
        </div>
        <div className="kpi">
          <dt className="kpi__label">{intl.formatMessage(m.waiting)}</dt>
          <dd className="kpi__value">{intl.formatNumber(money.toReview)}</dd>
          <dd className="kpi__note">
            {money.toReview > 0 ? (
              <button type="button" className="linklike" onClick={() => openReview(null, 'to_review')}>
                {intl.formatMessage(m.reviewThem)}
              </button>
            ) : (
              intl.formatMessage(m.allReviewed)
            )}
          </dd>
        </div>
      </dl>
      <h3 className="h4">{intl.formatMessage(m.vendors)}</h3>
      {money.topVendors.length === 0 ? (
        <p className="muted">{intl.formatMessage(m.noVendors)}</p>
      ) : (
        <ol className="money__vendors">
          {money.topVendors.map((v) => (
            <li key={v.vendor}>
              <button
                type="button"
                className="linklike"
                aria-label={intl.formatMessage(m.openVendor, { vendor: v.vendor, total: amount(v.total) })}
                onClick={() => openReview(null, 'all')}
              >
                <bdi>{v.vendor}</bdi>
              </button>
              <span className="num">{amount(v.total)}</span>
            </li>
          ))}
        </ol>
      )}
    </Section>
  )
}
