import { useState } from 'react'
import { DropZone } from '../components/DropZone'
import { Field, FormError, SubmitButton, TextAreaField } from '../components/Field'
import { type Column, commonColumn, str } from '../components/RecordTable'
import { Screen } from '../components/Screen'
import { formatDate, formatMoney } from '../lib/format'
import { columnWidth } from '../lib/measure'
import { useApp } from '../store'
import { useSubmit } from '../lib/useSubmit'
import { RecordListSection } from '../components/RecordListSection'
import type { Invoice } from '../store/records'
import { EmptyRow, TableHead, numeric } from '../components/TableHead'
import { useShallow } from 'zustand/react/shallow'

const COLUMNS: Column[] = [
  commonColumn('date'),
  commonColumn('document_number'),
  commonColumn('contact', { label: 'Customer' }),
  commonColumn('narration'),
  commonColumn('amount', { label: 'Total' }),
  {
    key: 'balance',
    label: 'Balance',
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

  return (
    <Screen title="Invoices">
      <div className="split">
        <div className="split__main">
          <form
            className="inline-form"
            role="search"
            aria-label="Open an invoice"
            onSubmit={(e) => {
              e.preventDefault()
              void openInvoice(ref)
            }}
          >
            <Field label="Open by uuid or source_uuid">
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
              Open
            </button>
          </form>

          {invoice ? (
            <InvoiceView
              id={invoice.id}
              loading={invoice.loading}
              data={invoice.data}
              error={
                invoice.error?.status === 404 || invoice.error?.code === 'not_found'
                  ? `No invoice has the id ${invoice.id}.`
                  : (invoice.error?.message ?? null)
              }
              onClose={closeInvoice}
            />
          ) : null}

          <RecordListSection
            listKey="invoices"
            title="All invoices"
            titleId="inv-list-title"
            caption="Invoices"
            columns={COLUMNS}
            empty="No invoices yet."
            onRowClick={(row) => void openInvoice(row.uuid)}
            actionsWidth="76px"
            actions={(row) => (
              <button
                type="button"
                className="btn btn--small"
                onClick={() => void openInvoice(row.uuid)}
                aria-label={`Open invoice ${row.document_number ?? row.uuid}`}
              >
                Open
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
  return (
    <section className="card invoice" aria-labelledby="invoice-title" aria-busy={loading}>
      <div className="section__head">
        <h2 id="invoice-title" className="h3">
          Invoice{' '}
          {data ? <span className="mono small">{data.uuid}</span> : <span className="mono small">{id}</span>}
        </h2>
        <button type="button" className="btn btn--small btn--ghost" onClick={onClose}>
          Close
        </button>
      </div>
      {loading ? <p role="status">Loading the invoice…</p> : null}
      <FormError message={error} />
      {data ? (
        <>
          <dl className="facts">
            <div>
              <dt>Date</dt>
              <dd>{formatDate(data.date)}</dd>
            </div>
            <div>
              <dt>Due</dt>
              <dd>{formatDate(data.due_date)}</dd>
            </div>
            <div>
              <dt>Narration</dt>
              <dd dir="auto">{data.narration || '—'}</dd>
            </div>
            {data.source_uuid ? (
              <div>
                <dt>source_uuid</dt>
                <dd className="mono">{data.source_uuid}</dd>
              </div>
            ) : null}
            <div className="facts__money">
              <dt>Total</dt>
              <dd>{formatMoney(data.total_amount, data.currency)}</dd>
            </div>
            <div className="facts__money">
              <dt>Amount paid</dt>
              <dd>{formatMoney(data.amount_paid, data.currency)}</dd>
            </div>
            <div className="facts__money">
              <dt>Balance</dt>
              <dd>
                <strong>{formatMoney(data.balance, data.currency)}</strong>
              </dd>
            </div>
          </dl>
          <h3 className="h4">Items</h3>
          <InvoiceItems data={data} />
          <h3 className="h4">Payments</h3>
          {data.payments.length === 0 ? (
            <p className="muted">No payments yet.</p>
          ) : (
            <InvoicePayments data={data} />
          )}
        </>
      ) : null}
    </section>
  )
}

/** An invoice's lines: the money columns sized to their widest value (never cut). */
function InvoiceItems({ data }: { data: Invoice }) {
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
    <div className="table-wrap">
      <table className="table table--fit table--wrap">
        <caption className="sr-only">Invoice items</caption>
        <TableHead
          cells={[
            'Item',
            fit('Quantity', 'quantity'),
            fit('Price', 'price'),
            fit('Tax %', 'tax'),
            fit('Amount', 'amount'),
          ]}
        />
        <tbody>
          {rows.length === 0 ? (
            <EmptyRow span={5} className="muted">
              No items.
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
        </tbody>
      </table>
    </div>
  )
}

/** An invoice's payments: dates in the person's locale, amounts never cut. */
function InvoicePayments({ data }: { data: Invoice }) {
  const rows = data.payments.map((p, i) => ({
    key: p.uuid ?? `#${i}`,
    date: formatDate(p.date),
    method: str(p.method),
    amount: formatMoney(p.amount, data.currency),
  }))
  return (
    <div className="table-wrap">
      <table className="table table--fit table--wrap">
        <caption className="sr-only">Payments</caption>
        <TableHead
          cells={[
            {
              label: 'Date',
              className: 'nowrap',
              width: columnWidth(
                'Date',
                rows.map((r) => r.date),
              ),
            },
            'Method',
            {
              ...numeric('Amount', 'nowrap'),
              width: columnWidth(
                'Amount',
                rows.map((r) => r.amount),
              ),
            },
          ]}
        />
        <tbody>
          {rows.map((p) => (
            <tr key={p.key}>
              <td className="nowrap">{p.date}</td>
              <td>{p.method}</td>
              <td className="num nowrap">{p.amount}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
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

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setDone(null)
    if (!prompt.trim()) {
      refuse(null, { prompt: 'Describe the invoice: customer, items, amounts.' })
      return
    }
    const created = await send(() => createFromPrompt(prompt.trim()))
    if (!created) return
    setDone(created)
    setPrompt('')
  }

  return (
    <section className="card" aria-labelledby="create-inv-title">
      <h2 id="create-inv-title" className="h3">
        Create an invoice
      </h2>
      <DropZone
        title="From a document"
        hint="Drop or choose files: each becomes an invoice."
        busy={sending > 0}
        onFiles={(files) => void sendFiles(files, 'invoices', '')}
      />
      <form className="form" onSubmit={submit} noValidate>
        <TextAreaField
          label="Or from a description"
          error={fields.prompt}
          hint="e.g. Invoice Ada Stores for 3 bags of rice at 45,000 each, due in 14 days."
          rows={4}
          maxLength={4000}
          value={prompt}
          onChange={setPrompt}
        />
        <FormError message={error} />
        <SubmitButton busy={busy} busyLabel="Sending…">
          Create from description
        </SubmitButton>
      </form>
      {done ? (
        <div className="success" role="status">
          {done.recordUuid ? (
            <>
              Invoice created.{' '}
              <button type="button" className="linklike" onClick={() => void openInvoice(done.recordUuid!)}>
                Open it
              </button>
            </>
          ) : (
            <>
              Sent: the invoice is being prepared (job {done.jobReference ?? '—'}). It appears in the list
              when ready.
            </>
          )}
        </div>
      ) : null}
    </section>
  )
}
