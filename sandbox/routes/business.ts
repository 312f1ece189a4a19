/**
 * Business-key routes of the emulator (api-spec.md Part 4 and design.md §3). Every route here is
 * `config: { auth: 'business' }` and only ever sees req.business's own data: another business's
 * uuid or job reference answers 404, exactly like an unknown one. The AI creates are in
 * ai-creates.ts.
 */
import { randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import {
  ERROR_CODES,
  LIST_RESOURCES,
  documentAmount,
  listQuerySchema,
  purchaseOrderSchema,
  recordPatchSchema,
  recordPutSchema,
} from '../../schemas'
import type { RouteContext } from '../context'
import { findJob, jobData } from '../jobs'
import {
  type ListView,
  RESOURCE_TYPES,
  applyPatch,
  applyPut,
  pageOf,
  purchaseOrderListView,
  purchaseOrderView,
  readData,
  recordListView,
} from '../records'
import { ApiFailure, ok, parse, requireBusiness } from '../server'
import {
  type Business,
  RECORD_RESOURCES,
  type RecordResource,
  type SandboxState,
  type StoredPurchaseOrder,
  type StoredRecord,
  isoSeconds,
} from '../state'
import { registerAiCreates } from './ai-creates'
import { BUSINESS, type IdParams, notFound, routeOf } from './business-common'

export function registerBusinessRoutes(app: FastifyInstance, state: SandboxState, ctx: RouteContext): void {
  registerAuthValidate(app)
  registerPurchaseOrders(app, state)
  registerAiCreates(app, state, ctx)
  registerJobs(app, state)
  registerReads(app, state)
  registerUpdates(app, state)
  registerDeletes(app, state)
}

// ---------------------------------------------------------------------------------------------
// GET /auth/validate
// ---------------------------------------------------------------------------------------------

function registerAuthValidate(app: FastifyInstance): void {
  app.get('/auth/validate', BUSINESS, async (req, reply) => {
    const b = requireBusiness(req)
    return ok(reply, 'API key is valid', {
      business_uuid: b.uuid,
      name: b.name,
      currency: b.currency,
      country: b.country,
    })
  })
}

// ---------------------------------------------------------------------------------------------
// Purchase orders (2.2): POST /purchase-orders and its alias POST /create/purchase_order
// ---------------------------------------------------------------------------------------------

function registerPurchaseOrders(app: FastifyInstance, state: SandboxState): void {
  const create = async (req: FastifyRequest, reply: FastifyReply) => {
    const business = requireBusiness(req)
    const po = parse(purchaseOrderSchema, req.body)
    const record: StoredPurchaseOrder = {
      uuid: randomUUID(),
      transaction_type: 'purchase_order',
      status: 'draft',
      document_number: po.document_number ?? state.nextDocumentNumber(business.uuid),
      narration: po.narration ?? '',
      amount: documentAmount(po.items),
      currency: po.currency ?? business.currency,
      date: po.date,
      delivery_date: po.delivery_date ?? null,
      customer: po.customer ?? null,
      memo: po.memo ?? null,
      exchange_rate: po.exchange_rate ?? 1,
      branch_uuid: po.branch_uuid ?? null,
      department_uuid: po.department_uuid ?? null,
      project_uuid: po.project_uuid ?? null,
      items: po.items,
      created_at: isoSeconds(state.now()),
      business: business.uuid,
    }
    state.purchaseOrders.set(record.uuid, record)
    state.logCreate({
      route: routeOf(req),
      business: business.uuid,
      partner: null,
      idempotency_key: req.idempotencyKey ?? null,
      resource_type: 'purchase_order',
      uuid: record.uuid,
      attachments: [],
    })
    return ok(reply, `purchase order ${record.document_number} created`, purchaseOrderView(record))
  }
  app.post('/purchase-orders', BUSINESS, create)
  app.post('/create/purchase_order', BUSINESS, create)
}

// ---------------------------------------------------------------------------------------------
// GET /jobs/{job_reference}
// ---------------------------------------------------------------------------------------------

function registerJobs(app: FastifyInstance, state: SandboxState): void {
  app.get<{ Params: { job_reference: string } }>('/jobs/:job_reference', BUSINESS, async (req, reply) => {
    const business = requireBusiness(req)
    const job = findJob(state, business.uuid, req.params.job_reference)
    if (!job) throw notFound('job', req.params.job_reference)
    return ok(reply, `job ${job.status}`, jobData(job))
  })
}

// ---------------------------------------------------------------------------------------------
// Lists and single reads (design.md §3)
// ---------------------------------------------------------------------------------------------

function findOwnRecord(
  state: SandboxState,
  resource: RecordResource,
  business: Business,
  id: string,
): StoredRecord {
  const rec = state.findRecord(resource, business.uuid, id)
  if (!rec) throw notFound(RESOURCE_TYPES[resource].replace('_', ' '), id)
  return rec
}

/** A list answer (design.md §3): the page of `rows` as `data`, `{page, limit, total}` as `meta`. */
function sendPage<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  label: string,
  rows: T[],
  view: ListView<T>,
  toData: (row: T) => unknown,
) {
  const q = parse(listQuerySchema, req.query, 'query')
  const page = pageOf(rows, q, view)
  const meta = { page: q.page, limit: q.limit, total: page.total }
  return ok(reply, `${page.total} ${label}`, page.rows.map(toData), meta)
}

function registerRecordReads(app: FastifyInstance, state: SandboxState, resource: RecordResource): void {
  app.get(`/${resource}`, BUSINESS, async (req, reply) => {
    const business = requireBusiness(req)
    const own = [...(state.records.get(resource)?.values() ?? [])].filter((r) => r.business === business.uuid)
    return sendPage(req, reply, resource, own, recordListView, (r) => readData(resource, r))
  })
  app.get<IdParams>(`/${resource}/:uuid`, BUSINESS, async (req, reply) => {
    const rec = findOwnRecord(state, resource, requireBusiness(req), req.params.uuid)
    return ok(reply, `${RESOURCE_TYPES[resource]} ${rec.uuid}`, readData(resource, rec))
  })
}

function registerPurchaseOrderReads(app: FastifyInstance, state: SandboxState): void {
  app.get('/purchase-orders', BUSINESS, async (req, reply) => {
    const business = requireBusiness(req)
    const own = [...state.purchaseOrders.values()].filter((p) => p.business === business.uuid)
    return sendPage(req, reply, 'purchase orders', own, purchaseOrderListView, purchaseOrderView)
  })
  app.get<IdParams>('/purchase-orders/:uuid', BUSINESS, async (req, reply) => {
    const po = state.findPurchaseOrder(requireBusiness(req).uuid, req.params.uuid)
    if (!po) throw notFound('purchase order', req.params.uuid)
    return ok(reply, `purchase order ${po.document_number}`, purchaseOrderView(po))
  })
}

function registerReads(app: FastifyInstance, state: SandboxState): void {
  for (const resource of LIST_RESOURCES) {
    if (resource === 'purchase-orders') registerPurchaseOrderReads(app, state)
    else registerRecordReads(app, state, resource)
  }
  // Accounts are created by AI creates too; they get the same reads (not in design.md §3's list).
  for (const resource of RECORD_RESOURCES) {
    if (!(LIST_RESOURCES as readonly string[]).includes(resource)) registerRecordReads(app, state, resource)
  }
}

// ---------------------------------------------------------------------------------------------
// PATCH / PUT expenses and bills (2.10), DELETE bank transaction
// ---------------------------------------------------------------------------------------------

function registerUpdates(app: FastifyInstance, state: SandboxState): void {
  for (const resource of ['expenses', 'bills'] as const) {
    app.patch<IdParams>(`/${resource}/:uuid`, BUSINESS, async (req, reply) => {
      const rec = findOwnRecord(state, resource, requireBusiness(req), req.params.uuid)
      applyPatch(rec, parse(recordPatchSchema, req.body), state.now())
      return ok(reply, `${RESOURCE_TYPES[resource]} updated`, readData(resource, rec))
    })
  }
  // Part 4 gives PUT to bills only.
  app.put<IdParams>('/bills/:uuid', BUSINESS, async (req, reply) => {
    const rec = findOwnRecord(state, 'bills', requireBusiness(req), req.params.uuid)
    applyPut(rec, parse(recordPutSchema, req.body), state.now())
    return ok(reply, 'bill updated', readData('bills', rec))
  })
  app.put('/expenses/:uuid', BUSINESS, async () => {
    throw new ApiFailure(
      405,
      'PUT is not a method of /expenses/{uuid}: change an expense with PATCH',
      ERROR_CODES.methodNotAllowed,
      { Allow: 'GET, PATCH' },
    )
  })
}

function registerDeletes(app: FastifyInstance, state: SandboxState): void {
  app.delete<IdParams>('/bank-transactions/:uuid', BUSINESS, async (req, reply) => {
    const rec = findOwnRecord(state, 'bank-transactions', requireBusiness(req), req.params.uuid)
    state.records.get('bank-transactions')?.delete(rec.uuid)
    return ok(reply, `bank transaction ${rec.uuid} deleted`)
  })
  app.delete<IdParams>('/accounts/:uuid', BUSINESS, async (req, reply) => {
    const business = requireBusiness(req)
    const account = findOwnRecord(state, 'accounts', business, req.params.uuid)
    const refusal = accountDeleteRefusal(state, business, account)
    if (refusal) throw new ApiFailure(400, refusal, ERROR_CODES.accountNotDeletable)
    state.records.get('accounts')?.delete(account.uuid)
    return ok(reply, `account ${account.uuid} deleted`)
  })
}

/**
 * Part 7 rule 1: why a chart-of-accounts account cannot be deleted, or null. Checked in this order:
 * a default account; an account under cashbook rules (a bank or cash account of the cashbook); an
 * account in use: named (by uuid, source_uuid, name or code) by a record's ledger account, a bank
 * transaction's bank, or a purchase order line's category (2.3).
 */
function accountDeleteRefusal(state: SandboxState, business: Business, account: StoredRecord): string | null {
  const name = `"${account.narration}"`
  if (account.chart?.default)
    return `${name} is a default account of the chart of accounts and cannot be deleted`
  if (account.chart?.cashbook)
    return `${name} is a cashbook (bank or cash) account: cashbook rules block deleting it`
  const names = new Set(
    [account.uuid, account.source_uuid, account.narration, account.chart?.code]
      .filter((n): n is string => !!n)
      .map((n) => n.trim().toLowerCase()),
  )
  const named = (v: string | null | undefined) => !!v && names.has(v.trim().toLowerCase())
  let uses = 0
  for (const map of state.records.values()) {
    for (const r of map.values()) {
      if (r.business === business.uuid && r !== account && (named(r.account) || named(r.bank))) uses++
    }
  }
  for (const po of state.purchaseOrders.values()) {
    if (po.business === business.uuid) uses += po.items.filter((i) => named(i.category)).length
  }
  if (uses > 0)
    return `${name} is in use by ${uses} record${uses === 1 ? '' : 's'} (entries or purchase order lines): move them to another account first`
  return null
}
