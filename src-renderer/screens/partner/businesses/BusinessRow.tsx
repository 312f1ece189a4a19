import { Fragment } from 'react'
import type { ReferredBusinessRow } from '../../../../contract/api'
import { RowMenu, Truncate } from '../../../components/RowMenu'
import { formatDateTime } from '../../../lib/format'
import type { BillingEntry } from '../../../store/partner'
import { AddSeatsButton } from './AddSeatsDialog'
import { COLUMNS, DETAIL_KEYS, cell, columnClass } from './columns'

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
              label={`More for ${r.name}`}
              items={[
                {
                  label: open ? 'Hide details and billing' : 'Details and billing',
                  onSelect: onToggle,
                },
                { label: 'Add credits…', onSelect: onAddCredits },
              ]}
            />
          </span>
        </td>
      </tr>
      {open ? (
        <tr className="row-below">
          <td colSpan={COLUMNS.length + 1}>
            <dl className="facts facts--inline" aria-label={`Details of ${r.name}`}>
              {DETAIL_KEYS.map((d) => (
                <div key={d.key}>
                  <dt>{d.label}</dt>
                  <dd className={d.key === 'uuid' ? 'mono small' : undefined}>{cell(r, d.key)}</dd>
                </div>
              ))}
            </dl>
            {b?.loading ? <span role="status">Fetching the billing status…</span> : null}
            {b?.error ? <span className="form-error">{b.error}</span> : null}
            {b?.data ? (
              <dl className="facts facts--inline" aria-label={`Billing status of ${r.name}`}>
                {Object.entries(b.data).map(([k, v]) => (
                  <div key={k}>
                    <dt>{k}</dt>
                    <dd>{typeof v === 'boolean' ? (v ? 'true' : 'false') : v === null ? '—' : String(v)}</dd>
                  </div>
                ))}
                <div>
                  <dt>fetched</dt>
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
