import { useState } from 'react'
import type { ReferredBusinessRow } from '../../../../contract/api'
import { defineMessages } from 'react-intl'
import { LIMITS } from '../../../../contract/assumptions'
import { addCreditsSchema } from '../../../../contract/api'
import { ActionDialog } from '../../../components/Dialog'
import { FormError, TextField } from '../../../components/Field'
import { formatNumber, numberField } from '../../../lib/format'
import { getIntl, useI18n } from '../../../lib/i18n'
import { explainGrantError } from '../../../lib/grants'
import type { Res } from '../../../lib/types'
import { useSubmit, wordIssues } from '../../../lib/useSubmit'
import { useApp } from '../../../store'
import { GrantResultDialog, HoldingRows, g } from './GrantParts'
import messages from './AddCreditsDialog.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** "1,000 credits", or "—" when the server did not say (the add-credits answer is not shown). */
function creditsText(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : getIntl().formatMessage(g.credits, { count: n })
}

/** Moves AI credits from the partner's holding to a business, and shows what the server did. */
export function AddCreditsDialog({ row, onClose }: { row: ReferredBusinessRow; onClose: () => void }) {
  const addCredits = useApp((s) => s.addCredits)
  const holding = useApp((s) => s.holdingBalance)
  const [credits, setCredits] = useState('')
  const { busy, error, submit: send } = useSubmit()
  const [result, setResult] = useState<Res<'addCredits'> | null>(null)
  const parsed = addCreditsSchema.safeParse({ credits: numberField(credits) })
  const intl = useI18n()
  const fieldError =
    credits && !parsed.success
      ? wordIssues(parsed.error, () => intl.formatMessage(m.invalid, { max: LIMITS.maxCreditsPerGrant })).credits
      : undefined

  const submit = async () => {
    if (!parsed.success) return
    const done = await send(
      () => addCredits(row.uuid, parsed.data),
      (e) => explainGrantError(e, { cost: parsed.data.credits, holding }),
    )
    if (done) setResult(done)
  }

  if (result) {
    return (
      <GrantResultDialog
        title={intl.formatMessage(m.grantedTitle, { name: row.name })}
        onClose={onClose}
        facts={[
          [intl.formatMessage(m.granted), creditsText(result.credits_granted ?? parsed.data?.credits)],
          [intl.formatMessage(m.balanceNow), creditsText(result.credit_balance)],
          [intl.formatMessage(m.holdingNow), creditsText(result.partner_holding_balance)],
        ]}
      />
    )
  }
  const after = parsed.success && holding !== null ? holding - parsed.data.credits : null
  return (
    <ActionDialog
      title={intl.formatMessage(m.title, { name: row.name })}
      onClose={onClose}
      onAction={() => void submit()}
      label={intl.formatMessage(m.grant)}
      busyLabel={intl.formatMessage(m.granting)}
      busy={busy}
      disabled={!parsed.success}
    >
      <p className="muted">
        {intl.formatMessage(m.intro, { balance: formatNumber(row.credit_balance) })}
      </p>
      <TextField
        label={intl.formatMessage(m.credits)}
        error={fieldError}
        value={credits}
        onChange={setCredits}
        input={{ inputMode: 'decimal', 'data-autofocus': true }}
      />
      <div className="quote" aria-live="polite">
        <HoldingRows holding={holding} after={after} />
      </div>
      <FormError message={error} />
    </ActionDialog>
  )
}
