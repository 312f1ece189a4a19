import { useState } from 'react'
import type { ReferredBusinessRow } from '../../../../contract/api'
import { addSeatsSchema, issuesByField } from '../../../../contract/api'
import { ActionDialog } from '../../../components/Dialog'
import { FormError, TextField } from '../../../components/Field'
import { formatDateTime, formatNumber, numberField } from '../../../lib/format'
import { explainGrantError, quoteSeats } from '../../../lib/grants'
import type { Res } from '../../../lib/types'
import { useSubmit } from '../../../lib/useSubmit'
import { useApp } from '../../../store'
import { GrantResultDialog, HoldingRows } from './GrantParts'

/** A business's row action that opens the add-seats dialog (here and on the partner's overview). */
export function AddSeatsButton({ row, onClick }: { row: { name: string }; onClick: () => void }) {
  return (
    <button
      type="button"
      className="btn btn--small"
      onClick={onClick}
      aria-label={`Add seats for ${row.name}`}
    >
      Add seats…
    </button>
  )
}

export function AddSeatsDialog({ row, onClose }: { row: ReferredBusinessRow; onClose: () => void }) {
  const addSeats = useApp((s) => s.addSeats)
  const holding = useApp((s) => s.holdingBalance)
  const fresh = useApp((s) => s.billing[row.uuid]?.data)
  const b = fresh ?? row
  const [seats, setSeats] = useState('1')
  const [months, setMonths] = useState('1')
  const { busy, error, submit: send } = useSubmit()
  const [result, setResult] = useState<Res<'addSeats'> | null>(null)

  const grant = { seats: numberField(seats), months: numberField(months) }
  const parsed = addSeatsSchema.safeParse(grant)
  const fields = parsed.success ? {} : issuesByField(parsed.error)
  const quote = parsed.success ? quoteSeats(b, parsed.data.seats, parsed.data.months) : null
  const after = quote && holding !== null ? holding - quote.cost : null
  const refusal =
    b.gateway === 'direct' && b.is_subscribed_to_svc
      ? 'This business has its own Plus subscription: the server will refuse partner seats.'
      : b.credit_from_referral_partner
        ? 'This business was registered with its AI use charged to your partner credit: the server will refuse partner seats.'
        : null

  const submit = async () => {
    if (!parsed.success) return
    const done = await send(
      () => addSeats(row.uuid, parsed.data),
      (e) => explainGrantError(e, { cost: quote?.cost ?? null, holding }),
    )
    if (done) setResult(done)
  }

  if (result) {
    const a = result.allocation
    return (
      <GrantResultDialog
        title={`Seats granted to ${row.name}`}
        onClose={onClose}
        facts={[
          ['Allocation', <span className="mono small">{a.uuid}</span>],
          ['Seats added', formatNumber(a.seats)],
          ['Months', formatNumber(a.months)],
          [
            'Prorated',
            a.prorated ? 'Yes: charged for the rest of the running period' : 'No: a new period starts',
          ],
          ['Seats now', <strong>{formatNumber(a.resulting_seats)}</strong>],
          ['Expires', formatDateTime(result.subscription_expires_at)],
          ['Charged', `${formatNumber(result.holding_credits_charged)} credits`],
          ['Holding now', `${formatNumber(result.partner_holding_balance)} credits`],
          ['Subscription reference', <span className="mono small">{a.subscription_reference}</span>],
        ]}
      />
    )
  }

  return (
    <ActionDialog
      title={`Add seats for ${row.name}`}
      onClose={onClose}
      onAction={() => void submit()}
      label={quote ? `Grant for ${formatNumber(quote.cost)} credits` : 'Grant'}
      busyLabel="Granting…"
      busy={busy}
      disabled={!parsed.success}
    >
      <div className="form form--grid">
        <TextField
          label="Seats"
          error={fields.seats}
          value={seats}
          onChange={setSeats}
          input={{ inputMode: 'numeric', 'data-autofocus': true }}
        />
        <TextField
          label="Months"
          error={fields.months}
          hint={
            quote?.kind === 'later'
              ? 'A later grant joins the running period: months do not extend it.'
              : undefined
          }
          value={months}
          onChange={setMonths}
          input={{ inputMode: 'numeric' }}
        />
      </div>
      {quote ? (
        <div className="quote" aria-live="polite">
          <div className="quote__row">
            <span>{quote.kind === 'first' ? 'Cost' : 'Cost (estimate)'}</span>
            <strong>{formatNumber(quote.cost)} credits</strong>
          </div>
          <div className="muted small">
            {quote.formula}
            {quote.kind === 'first'
              ? ', rounded up. A new period starts today.'
              : `. The current period ends ${formatDateTime(quote.expiresAt)}; the server works out the exact amount when it grants.`}
          </div>
          <HoldingRows holding={holding} after={after} />
        </div>
      ) : null}
      {refusal ? <p className="note note--warn">{refusal}</p> : null}
      <FormError message={error} />
    </ActionDialog>
  )
}
