import { useState } from 'react'
import type { ReferredBusinessRow } from '../../../../contract/api'
import { addCreditsSchema, issuesByField } from '../../../../contract/api'
import { ActionDialog } from '../../../components/Dialog'
import { FormError, TextField } from '../../../components/Field'
import { formatNumber, numberField } from '../../../lib/format'
import { explainGrantError } from '../../../lib/grants'
import type { Res } from '../../../lib/types'
import { useSubmit } from '../../../lib/useSubmit'
import { useApp } from '../../../store'
import { GrantResultDialog, HoldingRows } from './GrantParts'

/** "1,000 credits", or "—" when the server did not say (the add-credits answer is not shown). */
function creditsText(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : `${formatNumber(n)} credits`
}

/** Moves AI credits from the partner's holding to a business, and shows what the server did. */
export function AddCreditsDialog({ row, onClose }: { row: ReferredBusinessRow; onClose: () => void }) {
  const addCredits = useApp((s) => s.addCredits)
  const holding = useApp((s) => s.holdingBalance)
  const [credits, setCredits] = useState('')
  const { busy, error, submit: send } = useSubmit()
  const [result, setResult] = useState<Res<'addCredits'> | null>(null)
  const parsed = addCreditsSchema.safeParse({ credits: numberField(credits) })
  const fieldError = credits && !parsed.success ? issuesByField(parsed.error).credits : undefined

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
        title={`Credits granted to ${row.name}`}
        onClose={onClose}
        facts={[
          ['Granted', creditsText(result.credits_granted ?? parsed.data?.credits)],
          ['Business balance now', creditsText(result.credit_balance)],
          ['Your holding now', creditsText(result.partner_holding_balance)],
        ]}
      />
    )
  }
  const after = parsed.success && holding !== null ? holding - parsed.data.credits : null
  return (
    <ActionDialog
      title={`Add AI credits for ${row.name}`}
      onClose={onClose}
      onAction={() => void submit()}
      label="Grant credits"
      busyLabel="Granting…"
      busy={busy}
      disabled={!parsed.success}
    >
      <p className="muted">
        Credits move from your partner holding to the business’s AI credit balance (now{' '}
        {formatNumber(row.credit_balance)}).
      </p>
      <TextField
        label="Credits"
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
