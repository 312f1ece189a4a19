import { useMemo, useRef, useState } from 'react'
import {
  type DISCOUNT_TYPES,
  type LineItem,
  type PurchaseOrderData,
  documentAmount,
  lineAmounts,
  purchaseOrderSchema,
} from '../../contract/api'
import { Check, Field, FormActions, FormError } from '../components/Field'
import { COMMON_COLUMNS, statusWords } from '../components/RecordTable'
import { Screen } from '../components/Screen'
import { formatMoney, isoDate, numberField } from '../lib/format'
import { useI18n } from '../lib/i18n'
import { useApp } from '../store'
import { type FormLines, formErrorLine, useSubmit, wordIssues } from '../lib/useSubmit'
import { RecordListSection } from '../components/RecordListSection'
import { m, orderIssue } from './purchase-order-words'

/** What the form's error line says. */
const FORM_LINES: FormLines = { refused: m.refused, invalid: m.invalid }

interface LineForm {
  key: number
  item_name: string
  quantity: string
  selling_price: string
  tax: string
  withholding_tax: string
  discount: string
  discount_type: '' | (typeof DISCOUNT_TYPES)[number]
  is_inventory: boolean
  uuid: string
  category: string
  description: string
}

interface HeaderForm {
  date: string
  delivery_date: string
  vendor: string
  currency: string
  narration: string
  memo: string
  branch_uuid: string
  department_uuid: string
  project_uuid: string
}

let lineSeq = 0
const blankLine = (): LineForm => ({
  key: ++lineSeq,
  item_name: '',
  quantity: '1',
  selling_price: '',
  tax: '',
  withholding_tax: '',
  discount: '',
  discount_type: '',
  is_inventory: false,
  uuid: '',
  category: '',
  description: '',
})

const blankHeader = (): HeaderForm => ({
  date: isoDate(),
  delivery_date: '',
  vendor: '',
  currency: '',
  narration: '',
  memo: '',
  branch_uuid: '',
  department_uuid: '',
  project_uuid: '',
})

const opt = (s: string) => (s.trim() ? s.trim() : undefined)

function toItem(l: LineForm): Record<string, unknown> {
  const item: Record<string, unknown> = {
    item_name: l.item_name,
    quantity: numberField(l.quantity),
    selling_price: numberField(l.selling_price),
    tax: numberField(l.tax),
    withholding_tax: numberField(l.withholding_tax),
    discount: numberField(l.discount),
    discount_type: l.discount_type || undefined,
    is_inventory: l.is_inventory || undefined,
    uuid: l.is_inventory ? opt(l.uuid) : undefined,
    category: opt(l.category),
    description: opt(l.description),
  }
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== undefined))
}

/** The order exactly as it is sent: the same object the schema checks here and main checks again. */
export function toOrder(h: HeaderForm, lines: LineForm[]): Record<string, unknown> {
  const order: Record<string, unknown> = {
    date: h.date,
    delivery_date: opt(h.delivery_date),
    vendor: opt(h.vendor),
    currency: opt(h.currency)?.toUpperCase(),
    narration: opt(h.narration),
    memo: opt(h.memo),
    branch_uuid: opt(h.branch_uuid),
    department_uuid: opt(h.department_uuid),
    project_uuid: opt(h.project_uuid),
    items: lines.map(toItem),
  }
  return Object.fromEntries(Object.entries(order).filter(([, v]) => v !== undefined))
}

/** Amount of a line as far as it can be worked out while it is typed (0 until qty and price are numbers). */
function lineNet(l: LineForm): number {
  const quantity = numberField(l.quantity)
  const price = numberField(l.selling_price)
  if (quantity === undefined || price === undefined || !Number.isFinite(quantity) || !Number.isFinite(price))
    return 0
  const n = (s: string) => {
    const v = numberField(s)
    return v !== undefined && Number.isFinite(v) ? v : undefined
  }
  const item: LineItem = {
    item_name: l.item_name,
    quantity,
    selling_price: price,
    tax: n(l.tax),
    discount: n(l.discount),
    discount_type: l.discount_type || undefined,
  }
  return lineAmounts(item).net
}

export function PurchaseOrders() {
  const [creating, setCreating] = useState(false)
  const [created, setCreated] = useState<PurchaseOrderData | null>(null)
  const intl = useI18n()

  return (
    <Screen
      title={intl.formatMessage(m.title)}
      actions={
        !creating ? (
          <button type="button" className="btn btn--primary" onClick={() => setCreating(true)}>
            {intl.formatMessage(m.new)}
          </button>
        ) : null
      }
    >
      {created ? (
        <div className="card success" role="status">
          <strong>{intl.formatMessage(m.created, { number: created.document_number })}</strong> ·{' '}
          {formatMoney(created.amount, created.currency)} · {statusWords(created.status)}
          <div className="muted small mono">{created.uuid}</div>
        </div>
      ) : null}
      {creating ? (
        <PurchaseOrderForm
          onCancel={() => setCreating(false)}
          onCreated={(po) => {
            setCreated(po)
            setCreating(false)
          }}
        />
      ) : null}
      <RecordListSection
        listKey="purchaseOrders"
        title={intl.formatMessage(m.all)}
        caption={intl.formatMessage(m.title)}
        columns={COMMON_COLUMNS}
        empty={intl.formatMessage(m.empty)}
      />
    </Screen>
  )
}

export function PurchaseOrderForm({
  onCancel,
  onCreated,
}: {
  onCancel?: () => void
  onCreated: (po: PurchaseOrderData) => void
}) {
  const create = useApp((s) => s.createPurchaseOrder)
  const [header, setHeader] = useState(blankHeader)
  const [lines, setLines] = useState<LineForm[]>(() => [blankLine()])
  const [touched, setTouched] = useState<Record<string, true>>({})
  const [submitted, setSubmitted] = useState(false)
  // The server's answer: its message, and its message for each field.
  const sent = useSubmit()
  const formRef = useRef<HTMLFormElement>(null)
  const intl = useI18n()

  const order = useMemo(() => toOrder(header, lines), [header, lines])
  const parsed = useMemo(() => purchaseOrderSchema.safeParse(order), [order])
  // Worded again when the language changes (intl), so a shown message follows it.
  const issues = useMemo(
    () => (parsed.success ? {} : wordIssues(parsed.error, orderIssue)),
    [parsed, intl],
  )
  const total = useMemo(
    () => (parsed.success ? documentAmount(parsed.data.items) : lines.reduce((s, l) => s + lineNet(l), 0)),
    [parsed, lines],
  )
  const currency = header.currency.trim().toUpperCase() || null

  /** The message for a field: the server's answer first, then the schema's once the field was touched. */
  const err = (path: string): string | undefined => {
    const server = sent.fields[path] ?? (path === 'customer' ? sent.fields.vendor : undefined)
    if (server) return server
    if (path === 'items') return issues.items
    return submitted || touched[path] ? issues[path] : undefined
  }
  const touch = (path: string) => setTouched((t) => (t[path] ? t : { ...t, [path]: true }))
  const setH = (k: keyof HeaderForm, v: string) => {
    setHeader((h) => ({ ...h, [k]: v }))
    sent.reset()
  }
  const setL = (key: number, patch: Partial<LineForm>) => {
    setLines((ls) => ls.map((l) => (l.key === key ? { ...l, ...patch } : l)))
    sent.reset()
  }

  const submit = async (e: React.FormEvent) => {
    e.preventDefault()
    setSubmitted(true)
    if (!parsed.success) {
      requestAnimationFrame(() =>
        formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(),
      )
      return
    }
    const created = await sent.submit(() => create(order))
    if (!created) return
    onCreated(created)
    setHeader(blankHeader())
    setLines([blankLine()])
    setSubmitted(false)
    setTouched({})
  }

  const headerField = (
    k: keyof HeaderForm,
    label: string,
    opts: { type?: string; hint?: string; path?: string; required?: boolean } = {},
  ) => {
    const path = opts.path ?? k
    return (
      <Field label={label} error={err(path)} hint={opts.hint} required={opts.required}>
        {(p) => (
          <input
            {...p}
            type={opts.type ?? 'text'}
            value={header[k]}
            onChange={(e) => setH(k, e.target.value)}
            onBlur={() => touch(path)}
          />
        )}
      </Field>
    )
  }

  return (
    <form ref={formRef} className="card form" onSubmit={submit} noValidate aria-labelledby="po-form-title">
      <h2 id="po-form-title" className="h3">
        {intl.formatMessage(m.new)}
      </h2>
      <div className="form--grid form--grid-3">
        {headerField('date', intl.formatMessage(m.date), { type: 'date', required: true })}
        {headerField('delivery_date', intl.formatMessage(m.deliveryDate), { type: 'date' })}
        {headerField('vendor', intl.formatMessage(m.vendor), { path: 'customer' })}
        <Field
          label={intl.formatMessage(m.currency)}
          error={err('currency')}
          hint={intl.formatMessage(m.currencyHint)}
        >
          {(p) => (
            <input
              {...p}
              value={header.currency}
              maxLength={3}
              onChange={(e) => setH('currency', e.target.value.toUpperCase())}
              onBlur={() => touch('currency')}
              className="input--code"
            />
          )}
        </Field>
        {headerField('narration', intl.formatMessage(m.narration))}
        {headerField('memo', intl.formatMessage(m.memo))}
        {headerField('branch_uuid', intl.formatMessage(m.branch))}
        {headerField('department_uuid', intl.formatMessage(m.department))}
        {headerField('project_uuid', intl.formatMessage(m.project))}
      </div>

      <fieldset className="lines">
        <legend className="h4">{intl.formatMessage(m.lines)}</legend>
        {lines.map((l, i) => (
          <LineEditor
            key={l.key}
            line={l}
            index={i}
            err={err}
            touch={touch}
            net={lineNet(l)}
            currency={currency}
            onChange={(patch) => setL(l.key, patch)}
            onRemove={() => setLines((ls) => ls.filter((x) => x.key !== l.key))}
          />
        ))}
        {err('items') ? (
          <p className="field__error" role="alert">
            {err('items')}
          </p>
        ) : null}
        <button
          type="button"
          className="btn btn--small"
          onClick={() => setLines((ls) => [...ls, blankLine()])}
        >
          {intl.formatMessage(m.addLine)}
        </button>
      </fieldset>

      <div className="po-total" aria-live="polite">
        <span>{intl.formatMessage(m.total)}</span>
        <strong data-testid="po-total">{formatMoney(total, currency)}</strong>
      </div>
      <p className="muted small">{intl.formatMessage(m.withholdingNote)}</p>

      <FormError message={formErrorLine(sent, submitted && !parsed.success, FORM_LINES)} />
      <FormActions onCancel={onCancel} busy={sent.busy} busyLabel={intl.formatMessage(m.creating)}>
        {intl.formatMessage(m.create)}
      </FormActions>
    </form>
  )
}

function LineEditor({
  line,
  index,
  err,
  touch,
  net,
  currency,
  onChange,
  onRemove,
}: {
  line: LineForm
  index: number
  err: (path: string) => string | undefined
  touch: (path: string) => void
  net: number
  currency: string | null
  onChange: (patch: Partial<LineForm>) => void
  onRemove: () => void
}) {
  const p = (f: string) => `items.${index}.${f}`
  const intl = useI18n()
  const n = index + 1
  const input = (
    f: keyof LineForm & string,
    label: string,
    opts: { numeric?: boolean; hint?: string; required?: boolean } = {},
  ) => (
    <Field label={label} error={err(p(f))} hint={opts.hint} required={opts.required}>
      {(ids) => (
        <input
          {...ids}
          inputMode={opts.numeric ? 'decimal' : undefined}
          value={String(line[f])}
          onChange={(e) => onChange({ [f]: e.target.value } as Partial<LineForm>)}
          onBlur={() => touch(p(f))}
        />
      )}
    </Field>
  )
  return (
    <div className="line" role="group" aria-label={intl.formatMessage(m.line, { n })}>
      <div className="line__head">
        <span className="line__no">{intl.formatMessage(m.line, { n })}</span>
        <span className="muted">{formatMoney(net, currency)}</span>
        <button
          type="button"
          className="btn btn--small btn--ghost"
          onClick={onRemove}
          aria-label={intl.formatMessage(m.removeLine, { n })}
        >
          {intl.formatMessage(m.remove)}
        </button>
      </div>
      <div className="line__grid">
        {input('item_name', intl.formatMessage(m.itemName), { required: true })}
        {input('quantity', intl.formatMessage(m.quantity), { numeric: true, required: true })}
        {input('selling_price', intl.formatMessage(m.price), { numeric: true, required: true })}
        {input('tax', intl.formatMessage(m.tax), { numeric: true })}
        {input('withholding_tax', intl.formatMessage(m.withholding), { numeric: true })}
        {input('discount', intl.formatMessage(m.discount), { numeric: true })}
        <Field label={intl.formatMessage(m.discountType)} error={err(p('discount_type'))}>
          {(ids) => (
            <select
              {...ids}
              value={line.discount_type}
              onChange={(e) => onChange({ discount_type: e.target.value as LineForm['discount_type'] })}
              onBlur={() => touch(p('discount_type'))}
            >
              <option value="">{intl.formatMessage(m.none)}</option>
              <option value="percent">{intl.formatMessage(m.percent)}</option>
              <option value="amount">{intl.formatMessage(m.amount)}</option>
              <option value="fixed">{intl.formatMessage(m.fixed)}</option>
            </select>
          )}
        </Field>
        {input('category', intl.formatMessage(m.category))}
        {input('description', intl.formatMessage(m.description))}
        <div className="line__inventory">
          <Check
            label={intl.formatMessage(m.inventory)}
            checked={line.is_inventory}
            onChange={(c) => onChange({ is_inventory: c })}
          />
          {line.is_inventory ? input('uuid', intl.formatMessage(m.inventoryId), { required: true }) : null}
        </div>
      </div>
    </div>
  )
}
