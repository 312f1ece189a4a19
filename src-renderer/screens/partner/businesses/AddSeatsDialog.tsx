import { useState } from 'react'
import { defineMessages } from 'react-intl'
import type { ReferredBusinessRow } from '../../../../contract/api'
import { addSeatsSchema } from '../../../../contract/api'
import { LIMITS } from '../../../../contract/assumptions'
import { ActionDialog } from '../../../components/Dialog'
import { FormError, TextField } from '../../../components/Field'
import { formatDateTime, formatNumber, numberField } from '../../../lib/format'
import { useI18n } from '../../../lib/i18n'
import { explainGrantError, quoteSeats } from '../../../lib/grants'
import type { Res } from '../../../lib/types'
import { useSubmit, wordIssues } from '../../../lib/useSubmit'
import { useApp } from '../../../store'
import { GrantResultDialog, HoldingRows, g } from './GrantParts'
import messages from './AddSeatsDialog.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** A business's row action that opens the add-seats dialog (here and on the partner's overview). */
export function AddSeatsButton({ row, onClick }: { row: { name: string }; onClick: () => void }) {
  const intl = useI18n()
  return (
    <button
      type="button"
      className="btn btn--small"
      onClick={onClick}
      aria-label={intl.formatMessage(m.addSeatsFor, { name: row.name })}
    >
      {intl.formatMessage(m.addSeats)}
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
  const intl = useI18n()

  const grant = { seats: numberField(seats), months: numberField(months) }
  const parsed = addSeatsSchema.safeParse(grant)
  const fields = parsed.success
    ? {}
    : wordIssues(parsed.error, ({ field }) =>
        field === 'seats'
          ? intl.formatMessage(m.seatsError, { max: LIMITS.maxSeatsPerGrant })
          : field === 'months'
            ? intl.formatMessage(m.monthsError, { max: LIMITS.maxMonthsPerGrant })
            : undefined,
      )
  const quote = parsed.success ? quoteSeats(b, parsed.data.seats, parsed.data.months) : null
  const after = quote && holding !== null ? holding - quote.cost : null
  const refusal =
    b.gateway === 'direct' && b.is_subscribed_to_svc
      ? intl.formatMessage(m.ownPlus)
      : b.credit_from_referral_partner
        ? intl.formatMessage(m.partnerPaid)
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
        title={intl.formatMessage(m.grantedTitle, { name: row.name })}
        onClose={onClose}
        facts={[
          [intl.formatMessage(m.allocation), <span className="mono small">{a.uuid}</span>],
          [intl.formatMessage(m.seatsAdded), formatNumber(a.seats)],
          [intl.formatMessage(m.months), formatNumber(a.months)],
          [intl.formatMessage(m.prorated), intl.formatMessage(a.prorated ? m.proratedYes : m.proratedNo)],
          [intl.formatMessage(m.seatsNow), <strong>{formatNumber(a.resulting_seats)}</strong>],
          [intl.formatMessage(m.expires), formatDateTime(result.subscription_expires_at)],
          [intl.formatMessage(m.charged), intl.formatMessage(g.credits, { count: result.holding_credits_charged })],
          [
            intl.formatMessage(m.holdingNow),
            intl.formatMessage(g.credits, { count: result.partner_holding_balance }),
          ],
          [intl.formatMessage(m.reference), <span className="mono small">{a.subscription_reference}</span>],
        ]}
      />
    )
  }

  return (
    <ActionDialog
      title={intl.formatMessage(m.addSeatsFor, { name: row.name })}
      onClose={onClose}
      onAction={() => void submit()}
      label={quote ? intl.formatMessage(m.grantFor, { count: quote.cost }) : intl.formatMessage(m.grant)}
      busyLabel={intl.formatMessage(m.granting)}
      busy={busy}
      disabled={!parsed.success}
    >
      <div className="form form--grid">
        <TextField
          label={intl.formatMessage(m.seats)}
          error={fields.seats}
          value={seats}
          onChange={setSeats}
          input={{ inputMode: 'numeric', 'data-autofocus': true }}
        />
        <TextField
          label={intl.formatMessage(m.months)}
          error={fields.months}
          hint={quote?.kind === 'later' ? intl.formatMessage(m.laterHint) : undefined}
          value={months}
          onChange={setMonths}
          input={{ inputMode: 'numeric' }}
        />
      </div>
      {quote ? (
        <div className="quote" aria-live="polite">
          <div className="quote__row">
            <span>{intl.formatMessage(quote.kind === 'first' ? m.cost : m.costEstimate)}</span>
            <strong>{intl.formatMessage(g.credits, { count: quote.cost })}</strong>
          </div>
          <div className="muted small">
            {quote.kind === 'first'
              ? intl.formatMessage(m.firstNote, { formula: quote.formula })
              : intl.formatMessage(m.laterNote, {
                  formula: quote.formula,
                  date: formatDateTime(quote.expiresAt),
                })}
          </div>
          <HoldingRows holding={holding} after={after} />
        </div>
      ) : null}
      {refusal ? <p className="note note--warn">{refusal}</p> : null}
      <FormError message={error} />
    </ActionDialog>
  )
}
