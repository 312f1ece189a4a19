import { useState } from 'react'
import { defineMessages } from 'react-intl'
import { DropZone } from '../components/DropZone'
import { Field, FormError, SubmitButton, TextAreaField } from '../components/Field'
import { type Column, commonColumn, methodWords, str } from '../components/RecordTable'
import { Screen } from '../components/Screen'
import { formatDate, formatMoney } from '../lib/format'
import { useI18n } from '../lib/i18n'
import { columnWidth } from '../lib/measure'
import { useApp } from '../store'
import { useSubmit } from '../lib/useSubmit'
import { RecordListSection } from '../components/RecordListSection'
import type { Invoice } from '../store/records'
import { EmptyRow, Table, numeric } from '../components/TableHead'
import { useShallow } from 'zustand/react/shallow'
import messages from './Invoices.messages.json' with { type: 'json' }
import { Section } from '../components/Section'

const m = defineMessages(messages.m)

/** An invoice's number as people know it (INV-1003): the server's number, else its reference, else its id. */
export function invoiceNumber(r: { document_number?: unknown; source_uuid?: unknown; uuid: string }): string {
  const n = [r.document_number, r.source_uuid].find((v) => typeof v === 'string' && v.trim() !== '')
  return typeof n === 'string' ? n : r.uuid
}

const COLUMNS: Column[] = [
  commonColumn('date'),
  commonColumn('document_number', {
    render: (r) => str(r.document_number ?? r.source_uuid),
  }),
  commonColumn('contact', { label: m.customer }),
  commonColumn('narration'),
  commonColumn('amount', { label: m.total }),
  {
    key: 'balance',
    label: m.balance,
    numeric: true,
    fit: true,
    priority: 2,
    render: (r) => (typeof r.balance === 'number' ? formatMoney(r.balance, r.currency) : '—'),
  },
  commonColumn('status', { width: '110px' }),
]

export function Invoices() {
  const [invoice, openInvoice] = useApp(useShallow((s) => [s.invoice, s.openInvoice] as const))
  const closeInvoice = useApp((s) => s.closeInvoice)
  const [ref, setRef] = useState('')
  const intl = useI18n()

  return (
    <Screen title={intl.formatMessage(m.title)}>
      <div className="split">
        <div className="split__main">
          <form
            className="inline-form"
            role="search"
            aria-label={intl.formatMessage(m.openForm)}
            onSubmit={(e) => {
              e.preventDefault()
              void openInvoice(ref)
            }}
          >
            <Field label={intl.formatMessage(m.openBy)}>
              {(p) => (
                <input
                  {...p}
                  data-shortcut="search"
                  value={ref}
                  onChange={(e) => setRef(e.target.value)}
                  spellCheck={false}
                  className="mono"
                />
              )}
            </Field>
            <button type="submit" className="btn" disabled={!ref.trim()}>
              {intl.formatMessage(m.open)}
            </button>
          </form>

          {invoice ? (
            <InvoiceView
              id={invoice.id}
              loading={invoice.loading}
              data={invoice.data}
              error={
                invoice.error?.status === 404 || invoice.error?.code === 'not_found'
                  ? intl.formatMessage(m.notFound, { ref: invoice.id })
                  : (invoice.error?.message ?? null)
              }
              onClose={closeInvoice}
            />
          ) : null}

          <RecordListSection
            listKey="invoices"
            title={intl.formatMessage(m.all)}
            caption={intl.formatMessage(m.title)}
            columns={COLUMNS}
            empty={intl.formatMessage(m.empty)}
            onRowClick={(row) => void openInvoice(row.uuid)}
            actionsWidth="76px"
            actions={(row) => (
              <button
                type="button"
                className="btn btn--small"
                onClick={() => void openInvoice(row.uuid)}
                aria-label={intl.formatMessage(m.openOne, { number: invoiceNumber(row) })}
              >
                {intl.formatMessage(m.open)}
              </button>
            )}
          />
        </div>
        <aside className="split__side">
          <CreateInvoice />
        </aside>
      </div>
    </Screen>
  )
}

function InvoiceView({
  id,
  loading,
  data,
  error,
  onClose,
}: {
  id: string
  loading: boolean
  data: Invoice | null
  error: string | null
  onClose: () => void
}) {
  const intl = useI18n()
  // Titled by its number (INV-1003), not its id; before it is read, by what was typed to open it.
  const number = data ? invoiceNumber(data) : id
  return (
    <Section
      className="card invoice"
      titleId="invoice-title"
      title={intl.formatMessage(m.invoice, {
        number: (
          <bdi key="n" className="mono">
            {number}
          </bdi>
        ),
      })}
      busy={loading}
      actions={
        <button type="button" className="btn btn--small btn--ghost" onClick={onClose}>
          {intl.formatMessage(m.close)}
        </button>
      }
    >
      {loading ? <p role="status">{intl.formatMessage(m.loading)}</p> : null}
      <FormError message={error} />
      {data ? (
        <>
          <dl className="facts">
            <div>
              <dt>{intl.formatMessage(m.date)}</dt>
              <dd>{formatDate(data.date)}</dd>
            </div>
            <div>
              <dt>{intl.formatMessage(m.due)}</dt>
              <dd>{formatDate(data.due_date)}</dd>
            </div>
            <div>
              <dt>{intl.formatMessage(m.narration)}</dt>
              <dd dir="auto">{data.narration || '—'}</dd>
            </div>
            {data.source_uuid && data.source_uuid !== number ? (
              <div>
                <dt>{intl.formatMessage(m.reference)}</dt>
                <dd className="mono">{data.source_uuid}</dd>
              </div>
            ) : null}
            <div className="facts__money">
              <dt>{intl.formatMessage(m.total)}</dt>
              <dd>{formatMoney(data.total_amount, data.currency)}</dd>
            </div>
            <div className="facts__money">
              <dt>{intl.formatMessage(m.amountPaid)}</dt>
              <dd>{formatMoney(data.amount_paid, data.currency)}</dd>
            </div>
            <div className="facts__money">
              <dt>{intl.formatMessage(m.balance)}</dt>
              <dd>
                <strong>{formatMoney(data.balance, data.currency)}</strong>
              </dd>
            </div>
          </dl>
          <h3 className="h4">{intl.formatMessage(m.items)}</h3>
          <InvoiceItems data={data} />
          <h3 className="h4">{intl.formatMessage(m.payments)}</h3>
          {data.payments.length === 0 ? (
            <p className="muted">{intl.formatMessage(m.noPayments)}</p>
          ) : (
            <InvoicePayments data={data} />
          )}
        </>
      ) : null}
    </Section>
  )
}

/** An invoice's lines: the money columns sized to their widest value (never cut). */
function InvoiceItems({ data }: { data: Invoice }) {
  const intl = useI18n()
  const rows = data.record_items.map((it) => ({
    name: str(it.item_name),
    quantity: str(it.quantity),
    price: formatMoney(it.selling_price, data.currency),
    tax: str(it.tax),
    amount: formatMoney(it.amount, data.currency),
  }))
  // A column of numbers as wide as its widest value (never cut).
  const fit = (label: string, key: keyof (typeof rows)[number]) => ({
    ...numeric(label, 'nowrap'),
    width: columnWidth(
      label,
      rows.map((r) => r[key]),
    ),
  })
  return (
    <Table
      className="table table--fit table--wrap"
      caption={intl.formatMessage(m.itemsCaption)}
      cells={[
        intl.formatMessage(m.item),
        fit(intl.formatMessage(m.quantity), 'quantity'),
        fit(intl.formatMessage(m.price), 'price'),
        fit(intl.formatMessage(m.tax), 'tax'),
        fit(intl.formatMessage(m.amount), 'amount'),
      ]}
    >
      {rows.length === 0 ? (
        <EmptyRow span={5} className="muted">
          {intl.formatMessage(m.noItems)}
        </EmptyRow>
      ) : (
        rows.map((it, i) => (
          <tr key={i}>
            <td dir="auto">{it.name}</td>
            <td className="num nowrap">{it.quantity}</td>
            <td className="num nowrap">{it.price}</td>
            <td className="num nowrap">{it.tax}</td>
            <td className="num nowrap">{it.amount}</td>
          </tr>
        ))
      )}
    </Table>
  )
}

/** An invoice's payments: dates in the person's locale, amounts never cut. */
function InvoicePayments({ data }: { data: Invoice }) {
  const intl = useI18n()
  const rows = data.payments.map((p, i) => ({
    key: p.uuid ?? `#${i}`,
    date: formatDate(p.date),
    method: methodWords(p.method),
    amount: formatMoney(p.amount, data.currency),
  }))
  const dateLabel = intl.formatMessage(m.date)
  const amountLabel = intl.formatMessage(m.amount)
  return (
    <Table
      className="table table--fit table--wrap"
      caption={intl.formatMessage(m.payments)}
      cells={[
        {
          label: dateLabel,
          className: 'nowrap',
          width: columnWidth(
            dateLabel,
            rows.map((r) => r.date),
          ),
        },
        intl.formatMessage(m.method),
        {
          ...numeric(amountLabel, 'nowrap'),
          width: columnWidth(
            amountLabel,
            rows.map((r) => r.amount),
          ),
        },
      ]}
    >
      {rows.map((p) => (
        <tr key={p.key}>
          <td className="nowrap">{p.date}</td>
          <td>{p.method}</td>
          <td className="num nowrap">{p.amount}</td>
        </tr>
      ))}
    </Table>
  )
}

/** Create an invoice from a document (sent like any drop, target invoices) or from a sentence. */
function CreateInvoice() {
  const [sendFiles, sending] = useApp(useShallow((s) => [s.sendFiles, s.sending] as const))
  const [createFromPrompt] = useApp(useShallow((s) => [s.createInvoiceFromPrompt] as const))
  const openInvoice = useApp((s) => s.openInvoice)
  const [prompt, setPrompt] = useState('')
  const { busy, error, fields, submit: send, refuse } = useSubmit()
  const [done, setDone] = useState<{ jobReference: string | null; recordUuid: string | null } | null>(null)
  const intl = useI18n()

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setDone(null)
    if (!prompt.trim()) {
      refuse(null, { prompt: intl.formatMessage(m.describeMissing) })
      return
    }
    const created = await send(() => createFromPrompt(prompt.trim()))
    if (!created) return
    setDone(created)
    setPrompt('')
  }

  return (
    <Section className="card" title={intl.formatMessage(m.create)}>
      <DropZone
        title={intl.formatMessage(m.fromDocument)}
        hint={intl.formatMessage(m.fromDocumentHint)}
        busy={sending > 0}
        onFiles={(files) => void sendFiles(files, 'invoices', '')}
      />
      <form className="form" onSubmit={submit} noValidate>
        <TextAreaField
          label={intl.formatMessage(m.describe)}
          error={fields.prompt}
          hint={intl.formatMessage(m.describeHint)}
          rows={4}
          maxLength={4000}
          value={prompt}
          onChange={setPrompt}
        />
        <FormError message={error} />
        <SubmitButton busy={busy} busyLabel={intl.formatMessage(m.sending)}>
          {intl.formatMessage(m.createFromDescription)}
        </SubmitButton>
      </form>
      {done ? (
        <div className="success" role="status">
          {done.recordUuid ? (
            <>
              {intl.formatMessage(m.created)}{' '}
              <button type="button" className="linklike" onClick={() => void openInvoice(done.recordUuid!)}>
                {intl.formatMessage(m.openIt)}
              </button>
            </>
          ) : (
            intl.formatMessage(m.preparing, { job: done.jobReference ?? '—' })
          )}
        </div>
      ) : null}
    </Section>
  )
}
