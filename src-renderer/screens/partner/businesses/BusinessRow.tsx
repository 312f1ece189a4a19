import { Fragment } from 'react'
import { defineMessages } from 'react-intl'
import type { ReferredBusinessRow } from '../../../../contract/api'
import { RowMenu, Truncate } from '../../../components/RowMenu'
import { formatDateTime, formatNumber } from '../../../lib/format'
import { useI18n } from '../../../lib/i18n'
import type { BillingEntry } from '../../../store/partner'
import { AddSeatsButton } from './AddSeatsDialog'
import { COLUMNS, DETAIL_KEYS, billingLabel, billingWords, cell, columnClass } from './columns'
import messages from './BusinessRow.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** A referred business's row, and below it (when open) its details and billing status. */
export function BusinessRow({
  row: r,
  billing: b,
  open,
  onToggle,
  onAddSeats,
  onAddCredits,
}: {
  row: ReferredBusinessRow
  billing: BillingEntry | undefined
  open: boolean
  onToggle: () => void
  onAddSeats: () => void
  onAddCredits: () => void
}) {
  const intl = useI18n()
  return (
    <Fragment>
      <tr>
        {COLUMNS.map((c) => (
          <td key={c.key} className={columnClass(c)}>
            {c.numeric ? cell(r, c.key) : <Truncate text={cell(r, c.key)} focusable={c.key === 'name'} />}
          </td>
        ))}
        <td className="actions-cell">
          <span className="row-actions">
            <AddSeatsButton row={r} onClick={onAddSeats} />
            <RowMenu
              label={intl.formatMessage(m.more, { name: r.name })}
              items={[
                {
                  label: intl.formatMessage(open ? m.hideDetails : m.details),
                  onSelect: onToggle,
                },
                { label: intl.formatMessage(m.addCredits), onSelect: onAddCredits },
              ]}
            />
          </span>
        </td>
      </tr>
      {open ? (
        <tr className="row-below">
          <td colSpan={COLUMNS.length + 1}>
            <dl className="facts facts--inline" aria-label={intl.formatMessage(m.detailsOf, { name: r.name })}>
              {DETAIL_KEYS.map((d) => (
                <div key={d.key}>
                  <dt>{intl.formatMessage(d.label)}</dt>
                  <dd className={d.key === 'uuid' ? 'mono small' : undefined}>{cell(r, d.key)}</dd>
                </div>
              ))}
            </dl>
            {b?.loading ? <span role="status">{intl.formatMessage(m.fetching)}</span> : null}
            {b?.error ? <span className="form-error">{b.error}</span> : null}
            {b?.data ? (
              <dl className="facts facts--inline" aria-label={intl.formatMessage(m.billingOf, { name: r.name })}>
                {Object.entries(b.data).map(([k, v]) => (
                  <div key={k}>
                    <dt>{billingLabel(k)}</dt>
                    <dd>
                      {k === 'subscription_expires_at' && typeof v === 'string'
                        ? formatDateTime(v)
                        : typeof v === 'number'
                          ? formatNumber(v)
                          : billingWords(v)}
                    </dd>
                  </div>
                ))}
                <div>
                  <dt>{intl.formatMessage(m.fetched)}</dt>
                  <dd>{formatDateTime(b.at)}</dd>
                </div>
              </dl>
            ) : null}
          </td>
        </tr>
      ) : null}
    </Fragment>
  )
}
