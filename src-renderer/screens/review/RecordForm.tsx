/**
 * A record's fields on Review (issue 32): Vendor, Date, Total, Currency, Narration. An expense or a
 * bill can be changed and saved (review.save sends PATCH to the server and answers with what the
 * server then says); other kinds show their fields read-only with the reason. Total is read in the
 * person's own number format. Saving offline says so and keeps the edit in the form.
 */
import { useState } from 'react'
import { defineMessages } from 'react-intl'
import type { ReviewDetail, RecordSummary } from '../../../contract/review'
import { BusyButton, Field } from '../../components/Field'
import { amountForInput, parseAmount } from '../../lib/amount'
import { bookdrop } from '../../lib/bridge'
import { useI18n } from '../../lib/i18n'
import { useSubmit } from '../../lib/useSubmit'
import { codedText, recordLine } from './words'
import messages from './RecordForm.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

interface Values {
  vendor: string
  date: string
  total: string
  currency: string
  narration: string
}

const valuesOf = (r: RecordSummary): Values => ({
  vendor: r.vendor ?? '',
  date: r.date ?? '',
  total: amountForInput(r.total),
  currency: r.currency ?? '',
  narration: r.narration ?? '',
})

/** What changed, as review.save takes it (null clears a text field). */
function changes(before: Values, now: Values, total: string): Record<string, string | null> {
  const out: Record<string, string | null> = {}
  if (now.vendor.trim() !== before.vendor.trim()) out.vendor = now.vendor.trim() || null
  if (now.date !== before.date && now.date) out.date = now.date
  if (now.total !== before.total && total) out.total = total
  if (now.currency.trim().toUpperCase() !== before.currency.toUpperCase() && now.currency.trim())
    out.currency = now.currency.trim().toUpperCase()
  if (now.narration !== before.narration) out.narration = now.narration || null
  return out
}

/** The example amount in the person's format: "12.50", "12,50". */
const example = () => new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, useGrouping: false }).format(12.5)

export function RecordForm({
  detail,
  editable,
  onSaved,
}: {
  detail: Pick<ReviewDetail, 'item' | 'notEditableReason'>
  editable: boolean
  onSaved: (d: ReviewDetail) => void
}) {
  const intl = useI18n()
  const record = detail.item.record
  const [base, setBase] = useState(() => valuesOf(record))
  const [values, setValues] = useState(base)
  const [saved, setSaved] = useState<string | null>(null)
  const sent = useSubmit()
  const deleted = record.deletedOnServer
  const readOnly = !editable || deleted
  const set = (k: keyof Values) => (v: string) => {
    setSaved(null)
    setValues((s) => ({ ...s, [k]: v }))
  }

  const save = async () => {
    setSaved(null)
    const total = parseAmount(values.total)
    if (total === null) {
      sent.refuse(null, { total: intl.formatMessage(m.totalInvalid, { example: example() }) })
      return
    }
    const edit = changes(base, values, total)
    const d = await sent.submit(
      () => bookdrop['review.save']({ uuid: record.uuid, ...edit }),
      (e) =>
        e.code === 'offline' || e.code === 'network' || e.code === 'unreachable'
          ? intl.formatMessage(m.offline)
          : intl.formatMessage(m.refused, { reason: e.message }),
    )
    if (!d) return // the edit stays in the form
    onSaved(d)
    if (d.item.record.deletedOnServer) return
    const now = valuesOf(d.item.record)
    setBase(now)
    setValues(now)
    setSaved(intl.formatMessage(m.saved, { line: recordLine(intl, d.item.record) }))
  }

  const input = (k: keyof Values, extra: React.InputHTMLAttributes<HTMLInputElement> = {}) =>
    function Control(p: { id: string; 'aria-describedby': string | undefined; 'aria-invalid': boolean }) {
      return (
        <input
          {...p}
          {...extra}
          name={k}
          value={values[k]}
          readOnly={readOnly}
          onChange={(e) => set(k)(e.target.value)}
        />
      )
    }

  return (
    <form
      className="review-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (!readOnly) void save()
      }}
    >
      {deleted ? (
        <p className="note note--warn" role="status">
          {intl.formatMessage(m.deleted)}
        </p>
      ) : !editable && detail.notEditableReason ? (
        <p className="note">{intl.formatMessage(m.readOnly, { reason: codedText(intl, detail.notEditableReason) })}</p>
      ) : null}
      <Field label={intl.formatMessage(m.vendor)} error={sent.fields.vendor}>
        {input('vendor', { type: 'text', autoComplete: 'off', maxLength: 200, dir: 'auto' })}
      </Field>
      <div className="review-form__row">
        <Field label={intl.formatMessage(m.date)} error={sent.fields.date}>
          {input('date', { type: 'date' })}
        </Field>
        <Field label={intl.formatMessage(m.currency)} error={sent.fields.currency}>
          {input('currency', {
            type: 'text',
            autoComplete: 'off',
            maxLength: 3,
            size: 4,
            spellCheck: false,
            title: intl.formatMessage(m.currencyTitle),
          })}
        </Field>
      </div>
      <Field
        label={intl.formatMessage(m.total)}
        error={sent.fields.total}
        hint={readOnly ? undefined : intl.formatMessage(m.totalHint, { example: example() })}
      >
        {input('total', { type: 'text', inputMode: 'decimal', autoComplete: 'off' })}
      </Field>
      <Field label={intl.formatMessage(m.narration)} error={sent.fields.narration}>
        {(p) => (
          <textarea
            {...p}
            name="narration"
            rows={2}
            maxLength={2000}
            dir="auto"
            value={values.narration}
            readOnly={readOnly}
            onChange={(e) => set('narration')(e.target.value)}
          />
        )}
      </Field>
      {readOnly ? null : (
        <div className="form__actions">
          <BusyButton type="submit" className="btn btn--primary" busy={sent.busy} busyLabel={intl.formatMessage(m.saving)}>
            {intl.formatMessage(m.save)}
          </BusyButton>
        </div>
      )}
      {sent.error ? (
        <p className="form-error" role="alert">
          {sent.error}
        </p>
      ) : null}
      {saved ? (
        <p className="success" role="status">
          {saved}
        </p>
      ) : null}
    </form>
  )
}
