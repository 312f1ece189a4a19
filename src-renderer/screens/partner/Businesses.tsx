import { Fragment, useEffect, useMemo, useState } from 'react'
import type { ReferredBusinessRow } from '../../../contract/api'
import { addCreditsSchema, addSeatsSchema, issuesByField } from '../../../contract/api'
import { ActionDialog, Dialog } from '../../components/Dialog'
import { ListError, NOT_LOADED } from '../../components/RecordListSection'
import { BusyButton, Field, FormError, Options, SearchField, TextField } from '../../components/Field'
import { Pager } from '../../components/Pager'
import { RowMenu, Truncate } from '../../components/RowMenu'
import { Screen } from '../../components/Screen'
import { formatDateTime, formatNumber, numberField } from '../../lib/format'
import { explainGrantError, quoteSeats } from '../../lib/grants'
import type { Res } from '../../lib/types'
import { useApp } from '../../store'
import { useSubmit } from '../../lib/useSubmit'
import { EmptyRow } from '../../components/TableHead'
import { useShallow } from 'zustand/react/shallow'

type Key = keyof ReferredBusinessRow
/**
 * The table's columns, by priority (2: hidden under 600 px of table, 3: under 760 px); every other
 * field of the row is in its details row ("Details and billing").
 */
const COLUMNS: { key: Key; label: string; numeric?: boolean; width?: string; priority?: 2 | 3 }[] = [
  { key: 'name', label: 'Name' },
  { key: 'email', label: 'Email', priority: 2 },
  { key: 'subscription_plan', label: 'Plan', width: '64px', priority: 3 },
  { key: 'subscription_status', label: 'Status', width: '84px' },
  { key: 'available_seats', label: 'Seats', numeric: true, width: '64px' },
  { key: 'subscription_expires_at', label: 'Expires', width: '150px', priority: 3 },
  { key: 'credit_balance', label: 'Credits', numeric: true, width: '84px' },
]
/** Fields shown in a row's details, beside its billing status. */
const DETAIL_KEYS: { key: Key; label: string }[] = [
  { key: 'uuid', label: 'uuid' },
  { key: 'email', label: 'Email' },
  { key: 'currency', label: 'Currency' },
  { key: 'country', label: 'Country' },
  { key: 'subscription_plan', label: 'Plan' },
  { key: 'subscription_expires_at', label: 'Expires' },
  { key: 'is_subscribed_to_svc', label: 'Subscribed' },
  { key: 'gateway', label: 'Gateway' },
  { key: 'billing_currency', label: 'Billing currency' },
  { key: 'credit_from_referral_partner', label: 'AI paid by you' },
]
const PAGE_SIZES = [1, 5, 10, 20, 50, 100]

/** "1,000 credits", or "—" when the server did not say (the add-credits answer is not shown). */
function creditsText(n: number | null | undefined): string {
  return n === null || n === undefined ? '—' : `${formatNumber(n)} credits`
}

function cell(row: ReferredBusinessRow, key: Key): string {
  const v = row[key]
  if (typeof v === 'boolean') return v ? 'Yes' : 'No'
  if (v === null || v === undefined || v === '') return '—'
  if (key === 'subscription_expires_at') return formatDateTime(String(v))
  if (typeof v === 'number') return formatNumber(v)
  return String(v)
}

export function Businesses() {
  const [referred, load] = useApp(useShallow((s) => [s.referred, s.loadReferred] as const))
  const [billing, loadBilling] = useApp(useShallow((s) => [s.billing, s.loadBilling] as const))
  const holding = useApp((s) => s.holdingBalance)
  const [search, setSearch] = useState('')
  const [sort, setSort] = useState<{ key: Key; dir: 'asc' | 'desc' } | null>(null)
  const [openBilling, setOpenBilling] = useState<Record<string, boolean>>({})
  const [seatsFor, setSeatsFor] = useState<ReferredBusinessRow | null>(null)
  const [creditsFor, setCreditsFor] = useState<ReferredBusinessRow | null>(null)

  useEffect(() => {
    if (!useApp.getState().referred.loaded) void load()
  }, [load])

  const rows = useMemo(() => {
    const q = search.trim().toLowerCase()
    let out = q
      ? referred.rows.filter((r) =>
          [r.name, r.email, r.uuid, r.country, r.currency, r.subscription_status, r.subscription_plan].some(
            (v) => v.toLowerCase().includes(q),
          ),
        )
      : referred.rows
    if (sort) {
      const { key, dir } = sort
      out = [...out].sort((a, b) => {
        const x = a[key]
        const y = b[key]
        const c =
          typeof x === 'number' && typeof y === 'number'
            ? x - y
            : String(x ?? '').localeCompare(String(y ?? ''))
        return dir === 'asc' ? c : -c
      })
    }
    return out
  }, [referred.rows, search, sort])

  const sortBy = (key: Key) =>
    setSort((s) => (s?.key === key ? (s.dir === 'asc' ? { key, dir: 'desc' } : null) : { key, dir: 'asc' }))

  return (
    <Screen
      title="Referred businesses"
      intro="Businesses you registered or referred, with their plan and credits. Grants are charged to your partner credit holding."
      actions={
        <span className="muted" aria-live="polite">
          Holding: {holding === null ? 'known after your first grant' : `${formatNumber(holding)} credits`}
        </span>
      }
    >
      <div className="filters">
        <SearchField
          label="Search this page"
          value={search}
          onChange={setSearch}
          placeholder="Name, email, uuid…"
        />
        <Field label="Rows per page">
          {(p) => (
            <select
              {...p}
              value={referred.limit}
              onChange={(e) => void load({ limit: Number(e.target.value), page: 1 })}
            >
              <Options values={PAGE_SIZES} />
            </select>
          )}
        </Field>
        <BusyButton onClick={() => void load()} busy={referred.loading} busyLabel="Loading…">
          Reload
        </BusyButton>
      </div>
      <ListError
        what="Referred businesses"
        error={referred.error}
        loading={referred.loading}
        onRetry={() => void load()}
      />
      <div className="table-wrap">
        <table className="table table--fit" aria-busy={referred.loading}>
          <caption className="sr-only">Referred businesses, page {referred.page}</caption>
          <thead>
            <tr>
              {COLUMNS.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={
                    [c.numeric ? 'num' : '', c.priority ? `col-p${c.priority}` : ''].join(' ').trim() ||
                    undefined
                  }
                  style={c.width ? { width: c.width } : undefined}
                  aria-sort={
                    sort?.key === c.key ? (sort.dir === 'asc' ? 'ascending' : 'descending') : undefined
                  }
                >
                  <button type="button" className="th-sort" onClick={() => sortBy(c.key)}>
                    {c.label}
                    <span aria-hidden="true">
                      {sort?.key === c.key ? (sort.dir === 'asc' ? ' ▲' : ' ▼') : ''}
                    </span>
                  </button>
                </th>
              ))}
              <th scope="col" className="actions-cell" style={{ width: '136px' }}>
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 ? (
              <EmptyRow span={COLUMNS.length + 1}>
                {referred.loading
                  ? 'Loading…'
                  : referred.error
                    ? NOT_LOADED
                    : search
                      ? 'No business on this page matches.'
                      : 'No referred businesses yet.'}
              </EmptyRow>
            ) : (
              rows.map((r) => {
                const b = billing[r.uuid]
                return (
                  <Fragment key={r.uuid}>
                    <tr>
                      {COLUMNS.map((c) => (
                        <td
                          key={c.key}
                          className={
                            [c.numeric ? 'num' : '', c.priority ? `col-p${c.priority}` : '']
                              .join(' ')
                              .trim() || undefined
                          }
                        >
                          {c.numeric ? (
                            cell(r, c.key)
                          ) : (
                            <Truncate text={cell(r, c.key)} focusable={c.key === 'name'} />
                          )}
                        </td>
                      ))}
                      <td className="actions-cell">
                        <span className="row-actions">
                          <AddSeatsButton row={r} onClick={() => setSeatsFor(r)} />
                          <RowMenu
                            label={`More for ${r.name}`}
                            items={[
                              {
                                label: openBilling[r.uuid]
                                  ? 'Hide details and billing'
                                  : 'Details and billing',
                                onSelect: () => {
                                  const open = !openBilling[r.uuid]
                                  setOpenBilling((o) => ({ ...o, [r.uuid]: open }))
                                  if (open) void loadBilling(r.uuid)
                                },
                              },
                              { label: 'Add credits…', onSelect: () => setCreditsFor(r) },
                            ]}
                          />
                        </span>
                      </td>
                    </tr>
                    {openBilling[r.uuid] ? (
                      <tr className="row-below">
                        <td colSpan={COLUMNS.length + 1}>
                          <dl className="facts facts--inline" aria-label={`Details of ${r.name}`}>
                            {DETAIL_KEYS.map((d) => (
                              <div key={d.key}>
                                <dt>{d.label}</dt>
                                <dd className={d.key === 'uuid' ? 'mono small' : undefined}>
                                  {cell(r, d.key)}
                                </dd>
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
                                  <dd>
                                    {typeof v === 'boolean'
                                      ? v
                                        ? 'true'
                                        : 'false'
                                      : v === null
                                        ? '—'
                                        : String(v)}
                                  </dd>
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
              })
            )}
          </tbody>
        </table>
      </div>
      <Pager
        label="Referred businesses"
        page={referred.page}
        limit={referred.limit}
        total={referred.total}
        loading={referred.loading}
        failed={referred.error !== null}
        onPage={(page) => void load({ page })}
      />
      {seatsFor ? <AddSeatsDialog row={seatsFor} onClose={() => setSeatsFor(null)} /> : null}
      {creditsFor ? <AddCreditsDialog row={creditsFor} onClose={() => setCreditsFor(null)} /> : null}
    </Screen>
  )
}

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

/** A grant's quote rows: the partner's holding before it, and after it (or how much is short). */
function HoldingRows({ holding, after }: { holding: number | null; after: number | null }) {
  return (
    <>
      <div className="quote__row">
        <span>Holding before</span>
        <span>{holding === null ? 'not known yet' : `${formatNumber(holding)} credits`}</span>
      </div>
      <div className="quote__row">
        <span>Holding after</span>
        <span className={after !== null && after < 0 ? 'text-bad' : undefined}>
          {after === null
            ? '—'
            : after < 0
              ? `${formatNumber(-after)} credits short`
              : `${formatNumber(after)} credits`}
        </span>
      </div>
    </>
  )
}

/** What a grant did, read back from the server's answer (announced to screen readers). */
function GrantResultDialog({
  title,
  facts,
  onClose,
}: {
  title: string
  facts: [string, React.ReactNode][]
  onClose: () => void
}) {
  return (
    <Dialog
      key="result"
      title={title}
      onClose={onClose}
      footer={
        <button type="button" className="btn btn--primary" onClick={onClose} data-autofocus>
          Done
        </button>
      }
    >
      <div role="status">
        <dl className="facts">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </Dialog>
  )
}
