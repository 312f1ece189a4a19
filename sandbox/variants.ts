/**
 * How the emulator shapes its answers (issue #11). The emulator is our guess of the server, not the
 * server (design.md §1), so it can also answer as a server that follows api-spec.md to the letter
 * and made other choices wherever the spec says "not shown" or "optional":
 *
 *   startSandbox({ variant: 'spec-minimal' })      npm run sandbox -- --variant spec-minimal
 *
 * `spec-minimal` keeps only what the spec names for each answer and renames or drops our guesses:
 * - no `meta` on any answer (2.1: optional), so lists carry no total;
 * - auth/validate (fields not shown): `{valid, business: {id, business_name}}`;
 * - invoices: the single read (and a direct create) has exactly 2.9's ten fields, no source_uuid,
 *   and its items and payments use other names (`description, qty, unit_price, tax_rate,
 *   line_total`; `id, paid_on, value, channel`); list elements (not shown) only uuid, date,
 *   narration, total_amount and currency;
 * - other records (fields not shown): only `uuid`; update answers (2.10) `uuid` and `narration`;
 * - purchase orders: 2.2's success data fields only;
 * - jobs (not shown): `{job_reference, state: pending|running|done|error, resource_uuids, error}`;
 * - add-credits (not shown): `{granted, holding_balance}`;
 * - every object, the envelope and failures included, carries an unknown extra field `x_unknown`.
 * Answers the spec fully names (2.6 registration, 2.7 referred list, 2.8 add-seats, billing-status,
 * the failure envelope with its error_code) keep their fields, with the extras.
 */
import { JOB_STATUSES, type JobStatus } from '../schemas'
import { type SandboxVariant, SANDBOX_VARIANTS } from './state'

export { SANDBOX_VARIANTS, type SandboxVariant }

type Obj = Record<string, unknown>

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The name of the extra field every object of a spec-minimal answer carries. */
export const EXTRA_FIELD = 'x_unknown'

export function isSandboxVariant(v: unknown): v is SandboxVariant {
  return typeof v === 'string' && (SANDBOX_VARIANTS as readonly string[]).includes(v)
}

/** Adds EXTRA_FIELD to every object, inside out. */
function withExtras(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withExtras)
  if (!isObject(v)) return v
  const out: Obj = {}
  for (const [k, x] of Object.entries(v)) out[k] = withExtras(x)
  out[EXTRA_FIELD] = { note: 'a field api-spec.md does not name: clients ignore it' }
  return out
}

function only(o: unknown, fields: readonly string[]): Obj {
  const src = isObject(o) ? o : {}
  const out: Obj = {}
  for (const f of fields) if (src[f] !== undefined) out[f] = src[f]
  return out
}

/** 2.2's purchase order success data. */
const PO_FIELDS = ['uuid', 'transaction_type', 'status', 'document_number', 'narration', 'amount', 'currency']
/** 2.9's invoice single read. */
const INVOICE_FIELDS = [
  'uuid',
  'date',
  'due_date',
  'narration',
  'total_amount',
  'amount_paid',
  'balance',
  'currency',
] as const

const JOB_STATE: Record<JobStatus, string> = {
  queued: 'pending',
  processing: 'running',
  completed: 'done',
  failed: 'error',
}

function invoice(d: unknown): Obj {
  const src = isObject(d) ? d : {}
  const items = Array.isArray(src.record_items) ? src.record_items.filter(isObject) : []
  const payments = Array.isArray(src.payments) ? src.payments.filter(isObject) : []
  return {
    ...only(src, INVOICE_FIELDS),
    record_items: items.map((i) => ({
      description: i.item_name,
      qty: i.quantity,
      unit_price: i.selling_price,
      tax_rate: i.tax,
      line_total: i.amount,
    })),
    payments: payments.map((p) => ({ id: p.uuid, paid_on: p.date, value: p.amount, channel: p.method })),
  }
}

function job(d: unknown): Obj {
  const src = isObject(d) ? d : {}
  const status = (JOB_STATUSES as readonly unknown[]).includes(src.status) ? (src.status as JobStatus) : null
  return {
    job_reference: src.job_reference,
    state: status ? JOB_STATE[status] : src.status,
    resource_uuids: src.resource_uuids,
    ...(src.message ? { error: src.message } : {}),
  }
}

/** The record resource a route is about ("/invoices/:uuid" → "invoices"), or null. */
function resourceOf(route: string): string {
  if (route === '/bank-transactions/upload') return 'bank-transactions'
  return route.split('/')[1] ?? ''
}

/** A record in its spec-minimal shape: an invoice per 2.9, anything else its uuid alone. */
function record(resource: string, d: unknown, listed: boolean): Obj {
  if (resource === 'invoices')
    return listed ? only(d, ['uuid', 'date', 'narration', 'total_amount', 'currency']) : invoice(d)
  return only(d, ['uuid'])
}

function data(method: string, route: string, d: unknown): unknown {
  if (route === '/auth/validate') {
    const src = isObject(d) ? d : {}
    return { valid: true, business: { id: src.business_uuid, business_name: src.name } }
  }
  if (route === '/jobs/:job_reference') return job(d)
  if (route.endsWith('/add-credits'))
    return isObject(d) ? { granted: d.credits_granted, holding_balance: d.partner_holding_balance } : d
  if (route.startsWith('/referred-businesses') || route === '/register-business') return d
  if (
    route === '/purchase-orders' ||
    route === '/create/purchase_order' ||
    route === '/purchase-orders/:uuid'
  )
    return Array.isArray(d) ? d.map((x) => only(x, PO_FIELDS)) : only(d, PO_FIELDS)
  if (method === 'PATCH' || method === 'PUT') return only(d, ['uuid', 'narration'])
  const resource = resourceOf(route)
  if (method === 'POST') {
    // An AI create: 2.5 names the async data; the direct one is the created resource.
    if (isObject(d) && d.process_type === 'async') return only(d, ['process_type', 'job_reference'])
    return record(resource, d, false)
  }
  if (Array.isArray(d)) return d.map((x) => record(resource, x, true))
  return record(resource, d, false)
}

/**
 * An answer of `/v1` in the given variant. `route` is the matched route pattern without `/v1`
 * (undefined for an unknown route); `body` the envelope the handler sent.
 */
export function shapeAnswer(
  variant: SandboxVariant,
  method: string,
  route: string | undefined,
  body: unknown,
) {
  if (variant === 'default' || !isObject(body)) return body
  const out: Obj = { status: body.status, message: body.message }
  if (body.error_code !== undefined) out.error_code = body.error_code
  if (body.data !== undefined) out.data = route === undefined ? body.data : data(method, route, body.data)
  return withExtras(out)
}
