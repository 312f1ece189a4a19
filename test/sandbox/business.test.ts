/**
 * Business routes of the emulator over real HTTP: auth, purchase orders, reads and lists, updates,
 * delete, isolation between businesses, idempotency, rate limits and faults.
 * AI creates and jobs are in jobs-ai-create.test.ts; the extraction rules in extract-rules.test.ts.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  BUSINESS_ROUTE_PARTNER_KEY_MESSAGE,
  DEVELOPER_API_403_MESSAGE,
  LIST_RESOURCES,
  authValidateData,
  emptySuccessEnvelope,
  invoiceSchema,
  pageMeta,
  purchaseOrderData,
  purchaseOrderRecord,
  recordSchema,
  updatedRecordData,
} from '../../schemas'
import {
  K1,
  K2,
  K_NO_API,
  PARTNER,
  PK1,
  anyRecord,
  as1,
  businessFixtures,
  businessSandbox,
  call,
  createAndWait,
  creates,
  dataOf,
  failureOf,
  metaOf,
  setFaults,
  start,
  waitForJob,
} from './business-helpers'

const sb = businessSandbox()

const item = (over: Record<string, unknown> = {}) => ({
  item_name: 'Flour',
  quantity: 2,
  selling_price: 100,
  ...over,
})
const po = (over: Record<string, unknown> = {}) => ({ date: '2026-01-10', items: [item()], ...over })

/** Creates an expense (or bill) for b1 in direct mode and returns its uuid. */
async function directCreate(path: string, prompt: string, key = K1): Promise<string> {
  const res = await call(sb, 'POST', path, { key, body: { prompt, process_type: 'direct' } })
  return dataOf(anyRecord, res).uuid
}

// ---------------------------------------------------------------------------------------------
describe('auth', () => {
  it('GET /auth/validate returns business_uuid, name, currency, country', async () => {
    const data = dataOf(authValidateData, await as1(sb, 'GET', '/auth/validate'))
    expect(data).toEqual({ business_uuid: 'b1', name: 'Bakery One', currency: 'NGN', country: 'NG' })
  })

  it('auth via X-API-Key, api-key and sk headers', async () => {
    for (const keyHeader of ['X-API-Key', 'api-key', 'sk']) {
      const res = await call(sb, 'GET', '/auth/validate', { key: K1, keyHeader })
      expect(dataOf(authValidateData, res).business_uuid, keyHeader).toBe('b1')
    }
  })

  it('svc_pk_ key → 401', async () => {
    const f = failureOf(await call(sb, 'GET', '/auth/validate', { key: PK1 }), 401)
    expect(f.message).toMatch(/public key/i)
  })

  it('partner key on business route → 403 with message', async () => {
    const f = failureOf(await call(sb, 'GET', '/auth/validate', { key: PARTNER }), 403)
    expect(f.message).toBe(BUSINESS_ROUTE_PARTNER_KEY_MESSAGE)
  })

  it('developer_api false → 403 with explanatory message', async () => {
    const f = failureOf(await call(sb, 'GET', '/invoices', { key: K_NO_API }), 403)
    expect(f.message).toBe(DEVELOPER_API_403_MESSAGE)
    expect(f.error_code).toBe('developer_api_not_allowed')
  })

  it('missing key → 401', async () => {
    const f = failureOf(await call(sb, 'GET', '/auth/validate'), 401)
    expect(f.message).toMatch(/X-API-Key/)
  })

  it('unknown key → 401', async () => {
    failureOf(await call(sb, 'GET', '/auth/validate', { key: 'svc_sk_nobody' }), 401)
  })
})

// ---------------------------------------------------------------------------------------------
describe('purchase orders', () => {
  it('PO: items must have at least one element (400 naming items)', async () => {
    const empty = failureOf(await as1(sb, 'POST', '/purchase-orders', { body: po({ items: [] }) }), 400)
    expect(empty.message).toMatch(/^items: /)
    const missing = failureOf(
      await as1(sb, 'POST', '/purchase-orders', { body: { date: '2026-01-10' } }),
      400,
    )
    expect(missing.message).toMatch(/items/)
  })

  it('PO: a bad line names its path (items.0.quantity)', async () => {
    const f = failureOf(
      await as1(sb, 'POST', '/purchase-orders', { body: po({ items: [item({ quantity: 0 })] }) }),
      400,
    )
    expect(f.message).toMatch(/items\.0\.quantity/)
  })

  it('PO: vendor alias for customer', async () => {
    const data = dataOf(
      purchaseOrderRecord,
      await as1(sb, 'POST', '/purchase-orders', { body: po({ vendor: 'Acme' }) }),
    )
    expect(data.customer).toBe('Acme')
  })

  it('PO: name and price aliases for item_name and selling_price', async () => {
    const body = po({ items: [{ name: 'Sugar', quantity: 3, price: 10 }] })
    const data = dataOf(purchaseOrderRecord, await as1(sb, 'POST', '/purchase-orders', { body }))
    expect(data.items[0]).toMatchObject({ item_name: 'Sugar', selling_price: 10 })
    expect(data.amount).toBe(30)
  })

  it('PO: document_number auto-assigned', async () => {
    const a = dataOf(purchaseOrderData, await as1(sb, 'POST', '/purchase-orders', { body: po() }))
    const b = dataOf(purchaseOrderData, await as1(sb, 'POST', '/purchase-orders', { body: po() }))
    expect(a.document_number).toMatch(/^PO-\d{5}$/)
    expect(Number(b.document_number.slice(3))).toBe(Number(a.document_number.slice(3)) + 1)
    const given = dataOf(
      purchaseOrderData,
      await as1(sb, 'POST', '/purchase-orders', { body: po({ document_number: 'MY-7' }) }),
    )
    expect(given.document_number).toBe('MY-7')
  })

  it('PO: amount = qty × price − discount + tax', async () => {
    const items = [
      // 2 × 100 = 200, less 10% = 180, plus 7.5% tax = 193.5
      item({ quantity: 2, selling_price: 100, discount: 10, discount_type: 'percent', tax: 7.5 }),
      // 1 × 50 = 50, less 5 = 45
      item({ quantity: 1, selling_price: 50, discount: 5, discount_type: 'amount' }),
    ]
    const data = dataOf(purchaseOrderData, await as1(sb, 'POST', '/purchase-orders', { body: po({ items }) }))
    expect(data.amount).toBe(238.5)
  })

  it("PO: status draft, transaction_type purchase_order, currency defaults to the business's", async () => {
    const data = dataOf(
      purchaseOrderData,
      await as1(sb, 'POST', '/purchase-orders', { body: po({ narration: 'Stock' }) }),
    )
    expect(data).toMatchObject({
      status: 'draft',
      transaction_type: 'purchase_order',
      currency: 'NGN',
      narration: 'Stock',
    })
    const usd = dataOf(
      purchaseOrderData,
      await as1(sb, 'POST', '/purchase-orders', { body: po({ currency: 'USD' }) }),
    )
    expect(usd.currency).toBe('USD')
  })

  it('PO alias route behaves the same', async () => {
    const body = po({ vendor: 'Acme', items: [item({ tax: 10 })] })
    const main = dataOf(purchaseOrderRecord, await as1(sb, 'POST', '/purchase-orders', { body }))
    const alias = dataOf(purchaseOrderRecord, await as1(sb, 'POST', '/create/purchase_order', { body }))
    const strip = (d: typeof main) => ({ ...d, uuid: '', document_number: '', created_at: '' })
    expect(strip(alias)).toEqual(strip(main))
    failureOf(await as1(sb, 'POST', '/create/purchase_order', { body: po({ items: [] }) }), 400)
    const logged = await creates(sb, { route: '/create/purchase_order' })
    expect(logged.map((c) => c.uuid)).toContain(alias.uuid)
  })

  it('date must be a real calendar date (2023-02-29 rejected)', async () => {
    const f = failureOf(await as1(sb, 'POST', '/purchase-orders', { body: po({ date: '2023-02-29' }) }), 400)
    expect(f.message).toMatch(/^date: .*calendar date/)
    failureOf(await as1(sb, 'POST', '/purchase-orders', { body: po({ date: '10/01/2026' }) }), 400)
    dataOf(purchaseOrderData, await as1(sb, 'POST', '/purchase-orders', { body: po({ date: '2024-02-29' }) }))
  })

  it('PO: readable by uuid, listed, and logged once with route and Idempotency-Key', async () => {
    const created = dataOf(
      purchaseOrderRecord,
      await as1(sb, 'POST', '/purchase-orders', { body: po(), idem: 'po-log-1' }),
    )
    const read = dataOf(purchaseOrderRecord, await as1(sb, 'GET', `/purchase-orders/${created.uuid}`))
    expect(read).toEqual(created)
    const list = dataOf(z.array(purchaseOrderRecord), await as1(sb, 'GET', '/purchase-orders?limit=100'))
    expect(list.map((p) => p.uuid)).toContain(created.uuid)
    const logged = (await creates(sb)).filter((c) => c.uuid === created.uuid)
    expect(logged).toEqual([
      expect.objectContaining({
        route: '/purchase-orders',
        business: 'b1',
        idempotency_key: 'po-log-1',
        resource_type: 'purchase_order',
      }),
    ])
  })
})

// ---------------------------------------------------------------------------------------------
describe('reads and lists', () => {
  it('lists page/limit bounds', async () => {
    for (const qs of ['page=0', 'page=-1', 'page=1.5', 'page=x', 'limit=0', 'limit=101', 'limit=abc']) {
      const f = failureOf(await as1(sb, 'GET', `/bank-transactions?${qs}`), 400)
      expect(f.message, qs).toMatch(qs.startsWith('page') ? /^page: / : /^limit: /)
    }
    const first = await as1(sb, 'GET', '/bank-transactions?page=1&limit=2')
    expect(dataOf(z.array(recordSchema), first)).toHaveLength(2)
    expect(pageMeta.parse(metaOf(first))).toEqual({ page: 1, limit: 2, total: 3 })
    const second = await as1(sb, 'GET', '/bank-transactions?page=2&limit=2')
    expect(dataOf(z.array(recordSchema), second)).toHaveLength(1)
    const beyond = await as1(sb, 'GET', '/bank-transactions?page=9&limit=100')
    expect(dataOf(z.array(recordSchema), beyond)).toEqual([])
    expect(metaOf(await as1(sb, 'GET', '/bank-transactions'))).toMatchObject({ page: 1, limit: 20 })
  })

  it('lists: date_order desc by default, asc on request; search and status filter', async () => {
    const dates = async (qs: string) =>
      dataOf(z.array(recordSchema), await as1(sb, 'GET', `/bank-transactions${qs}`)).map((t) => t.date)
    expect(await dates('')).toEqual(['2026-01-07', '2026-01-06', '2026-01-05'])
    expect(await dates('?date_order=asc')).toEqual(['2026-01-05', '2026-01-06', '2026-01-07'])
    failureOf(await as1(sb, 'GET', '/bank-transactions?date_order=up'), 400)
    const found = dataOf(
      z.array(recordSchema),
      await as1(sb, 'GET', '/bank-transactions?search=cafe%20LUMEN'),
    )
    expect(found.map((t) => t.uuid)).toEqual(['t2'])
    const unpaid = dataOf(z.array(invoiceSchema), await as1(sb, 'GET', '/invoices?status=partially_paid'))
    expect(unpaid.map((i) => i.uuid)).toEqual(['i1'])
  })

  it('every list of design.md §3 answers an array with page meta', async () => {
    for (const r of [...LIST_RESOURCES, 'accounts']) {
      const res = await as1(sb, 'GET', `/${r}`)
      expect(Array.isArray(dataOf(z.array(z.unknown()), res)), r).toBe(true)
      pageMeta.parse(metaOf(res))
    }
  })

  it('invoice by uuid and by source_uuid with balance', async () => {
    const byUuid = dataOf(invoiceSchema, await as1(sb, 'GET', '/invoices/i1'))
    const bySource = dataOf(invoiceSchema, await as1(sb, 'GET', '/invoices/s1'))
    expect(bySource).toEqual(byUuid)
    expect(byUuid).toMatchObject({
      uuid: 'i1',
      source_uuid: 's1',
      total_amount: 100,
      amount_paid: 40,
      balance: 60,
    })
    expect(byUuid.record_items).toHaveLength(1)
    expect(byUuid.payments).toEqual([expect.objectContaining({ amount: 40 })])
  })

  it('bank transaction by source_uuid', async () => {
    expect(dataOf(recordSchema, await as1(sb, 'GET', '/bank-transactions/src-t3')).uuid).toBe('t3')
  })

  it('unknown uuid → 404 failure envelope', async () => {
    const f = failureOf(await as1(sb, 'GET', '/invoices/nope'), 404)
    expect(f.error_code).toBe('not_found')
    failureOf(await as1(sb, 'GET', '/purchase-orders/nope'), 404)
    failureOf(await as1(sb, 'GET', '/jobs/nope'), 404)
  })
})

// ---------------------------------------------------------------------------------------------
describe('isolation', () => {
  it('business key only sees own data: other business uuid → 404', async () => {
    failureOf(await as1(sb, 'GET', '/invoices/i2'), 404)
    failureOf(await as1(sb, 'GET', '/bank-transactions/t_b2'), 404)
    failureOf(await as1(sb, 'DELETE', '/bank-transactions/t_b2'), 404)
    const theirs = await directCreate('/expenses', 'Paper from Stationers total $9.00', K2)
    failureOf(await as1(sb, 'GET', `/expenses/${theirs}`), 404)
    failureOf(await as1(sb, 'PATCH', `/expenses/${theirs}`, { body: { narration: 'mine now' } }), 404)
    const theirPo = dataOf(
      purchaseOrderData,
      await call(sb, 'POST', '/purchase-orders', { key: K2, body: po() }),
    )
    failureOf(await as1(sb, 'GET', `/purchase-orders/${theirPo.uuid}`), 404)
    const theirJob = await createAndWait(sb, '/bills', { prompt: 'Bill from Power Co total $20' }, K2)
    failureOf(await as1(sb, 'GET', `/jobs/${theirJob.job_reference}`), 404)
    const mine = dataOf(z.array(recordSchema), await as1(sb, 'GET', '/bank-transactions?limit=100'))
    expect(mine.map((t) => t.uuid)).not.toContain('t_b2')
    const myPos = dataOf(z.array(purchaseOrderRecord), await as1(sb, 'GET', '/purchase-orders?limit=100'))
    expect(myPos.map((p) => p.uuid)).not.toContain(theirPo.uuid)
    // b2 still reads its own
    expect(dataOf(invoiceSchema, await call(sb, 'GET', '/invoices/i2', { key: K2 })).total_amount).toBe(50)
  })
})

// ---------------------------------------------------------------------------------------------
describe('updates and delete', () => {
  it('PATCH expense/bill; PUT bill (PUT /expenses is not in the spec: emulator-rules.test.ts)', async () => {
    for (const path of ['/expenses', '/bills']) {
      const uuid = await directCreate(path, 'Diesel from Total Energies ₦8,000 on 2026-01-04')
      const patched = dataOf(
        updatedRecordData,
        await as1(sb, 'PATCH', `${path}/${uuid}`, { body: { narration: 'Generator diesel' } }),
      )
      expect(patched).toMatchObject({ uuid, narration: 'Generator diesel', amount: 8000, date: '2026-01-04' })
      if (path === '/expenses') continue
      const put = dataOf(
        updatedRecordData,
        await as1(sb, 'PUT', `${path}/${uuid}`, {
          body: { narration: 'Diesel (Jan)', date: '2026-01-05', amount: 9000 },
        }),
      )
      expect(put).toMatchObject({
        uuid,
        narration: 'Diesel (Jan)',
        date: '2026-01-05',
        amount: 9000,
        contact: null,
      })
      expect(dataOf(recordSchema, await as1(sb, 'GET', `${path}/${uuid}`)).narration).toBe('Diesel (Jan)')
    }
  })

  it('PATCH: unknown field, empty body or bad value → 400 naming the field', async () => {
    const uuid = await directCreate('/expenses', 'Taxi ₦2,000')
    expect(
      failureOf(await as1(sb, 'PATCH', `/expenses/${uuid}`, { body: { colour: 'red' } }), 400).message,
    ).toMatch(/colour/)
    expect(failureOf(await as1(sb, 'PATCH', `/expenses/${uuid}`, { body: {} }), 400).message).toMatch(
      /at least one field/,
    )
    expect(
      failureOf(await as1(sb, 'PATCH', `/expenses/${uuid}`, { body: { date: '2026-13-01' } }), 400).message,
    ).toMatch(/^date: /)
    expect(
      failureOf(await as1(sb, 'PUT', `/bills/${uuid}`, { body: { narration: 'x', date: '2026-01-01' } }), 404)
        .message,
    ).toMatch(/bill/)
    const bill = await directCreate('/bills', 'Taxi ₦2,000')
    expect(
      failureOf(await as1(sb, 'PUT', `/bills/${bill}`, { body: { narration: 'x' } }), 400).message,
    ).toMatch(/^date: /)
  })

  it('PATCH/PUT unknown uuid → 404', async () => {
    failureOf(await as1(sb, 'PATCH', '/bills/nope', { body: { narration: 'x' } }), 404)
    failureOf(await as1(sb, 'PUT', '/bills/nope', { body: { narration: 'x', date: '2026-01-01' } }), 404)
  })

  it('DELETE bank transaction envelope has no data', async () => {
    const s2 = await start()
    try {
      const res = await call(s2, 'DELETE', '/bank-transactions/t1', { key: K1 })
      expect(res.status).toBe(200)
      const body = emptySuccessEnvelope.strict().parse(res.body)
      expect(body).not.toHaveProperty('data')
      failureOf(await call(s2, 'GET', '/bank-transactions/t1', { key: K1 }), 404)
      failureOf(await call(s2, 'DELETE', '/bank-transactions/t1', { key: K1 }), 404)
      // by source_uuid too
      expect((await call(s2, 'DELETE', '/bank-transactions/src-t3', { key: K1 })).status).toBe(200)
      failureOf(await call(s2, 'GET', '/bank-transactions/t3', { key: K1 }), 404)
    } finally {
      await s2.stop()
    }
  })
})

// ---------------------------------------------------------------------------------------------
describe('idempotency', () => {
  it('Idempotency-Key replays and creates nothing', async () => {
    const body = po({ narration: 'idem' })
    const first = await as1(sb, 'POST', '/purchase-orders', { body, idem: 'idem-po-1' })
    const again = await as1(sb, 'POST', '/purchase-orders', { body, idem: 'idem-po-1' })
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(dataOf(purchaseOrderData, again)).toEqual(dataOf(purchaseOrderData, first))
    expect((await creates(sb)).filter((c) => c.idempotency_key === 'idem-po-1')).toHaveLength(1)

    // An async AI create: the same job, and its record is created once.
    const ai = { prompt: 'Stamps from Post Office ₦1,500' }
    const a = await as1(sb, 'POST', '/expenses', { body: ai, idem: 'idem-ai-1' })
    const b = await as1(sb, 'POST', '/expenses', { body: ai, idem: 'idem-ai-1' })
    const ref = dataOf(z.object({ job_reference: z.string() }), a).job_reference
    expect(dataOf(z.object({ job_reference: z.string() }), b).job_reference).toBe(ref)
    await waitForJob(sb, ref)
    expect((await creates(sb)).filter((c) => c.idempotency_key === 'idem-ai-1')).toHaveLength(1)
  })

  it('same Idempotency-Key with a different body → 422', async () => {
    await as1(sb, 'POST', '/purchase-orders', { body: po(), idem: 'idem-po-2' })
    const f = failureOf(
      await as1(sb, 'POST', '/purchase-orders', { body: po({ narration: 'changed' }), idem: 'idem-po-2' }),
      422,
    )
    expect(f.error_code).toBe('idempotency_key_reused')
  })
})

// ---------------------------------------------------------------------------------------------
describe('rate limits', () => {
  it('rate-limit headers on every response; 429 with Retry-After when exceeded', async () => {
    const s = await start(businessFixtures({ rate_limit: { limit: 3, window_seconds: 60 } }))
    try {
      const responses = [
        await call(s, 'GET', '/auth/validate', { key: K1 }), // 200
        await call(s, 'GET', '/invoices/nope', { key: K1 }), // 404
        await call(s, 'POST', '/purchase-orders', { key: K1, body: { date: 'x' } }), // 400
      ]
      expect(responses.map((r) => r.status)).toEqual([200, 404, 400])
      responses.forEach((r, i) => {
        expect(r.headers.get('x-ratelimit-limit')).toBe('3')
        expect(r.headers.get('x-ratelimit-remaining')).toBe(String(2 - i))
        expect(Number(r.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0)
      })
      const limited = await call(s, 'GET', '/auth/validate', { key: K1 })
      const f = failureOf(limited, 429)
      expect(f.error_code).toBe('rate_limited')
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(limited.headers.get('x-ratelimit-remaining')).toBe('0')
      // Per key: another business is not limited; a missing key still gets the headers.
      expect((await call(s, 'GET', '/auth/validate', { key: K2 })).status).toBe(200)
      const unauth = await call(s, 'GET', '/auth/validate')
      expect(unauth.status).toBe(401)
      expect(unauth.headers.get('x-ratelimit-limit')).toBe('3')
    } finally {
      await s.stop()
    }
  })
})

// ---------------------------------------------------------------------------------------------
describe('faults', () => {
  const f = businessSandbox()

  it('faults: fail_next → 5xx envelope', async () => {
    await setFaults(f, { fail_next: 1, error_statuses: [503] })
    const res = await call(f, 'GET', '/auth/validate', { key: K1 })
    expect(failureOf(res, 503).message).toMatch(/injected/)
    expect((await call(f, 'GET', '/auth/validate', { key: K1 })).status).toBe(200)
  })

  it('faults: drop_next → connection dropped (fetch rejects)', async () => {
    await setFaults(f, { drop_next: 1 })
    await expect(call(f, 'GET', '/auth/validate', { key: K1 })).rejects.toThrow()
    expect((await call(f, 'GET', '/auth/validate', { key: K1 })).status).toBe(200)
  })

  it('faults: commit_then_drop_next → fetch rejects but the record exists and a retry with the same Idempotency-Key replays (creates count 1)', async () => {
    await setFaults(f, { commit_then_drop_next: 1 })
    const body = po({ narration: 'lost answer' })
    await expect(call(f, 'POST', '/purchase-orders', { key: K1, body, idem: 'ctd-1' })).rejects.toThrow()
    const logged = (await creates(f)).filter((c) => c.idempotency_key === 'ctd-1')
    expect(logged).toHaveLength(1)
    const retry = await call(f, 'POST', '/purchase-orders', { key: K1, body, idem: 'ctd-1' })
    expect(retry.headers.get('idempotent-replayed')).toBe('true')
    expect(dataOf(purchaseOrderData, retry).uuid).toBe(logged[0]?.uuid)
    expect((await creates(f)).filter((c) => c.idempotency_key === 'ctd-1')).toHaveLength(1)
  })

  it('burst_429 with epoch reset style', async () => {
    await setFaults(f, { burst_429: 1, burst_reset_style: 'epoch', burst_wait_seconds: 2 })
    const res = await call(f, 'GET', '/auth/validate', { key: K1 })
    expect(failureOf(res, 429).error_code).toBe('rate_limited')
    const reset = Number(res.headers.get('x-ratelimit-reset'))
    expect(reset).toBeGreaterThanOrEqual(1e9)
    expect(reset - Date.now() / 1000).toBeGreaterThan(0)
    expect(res.headers.get('retry-after')).toBe('2')
    expect((await call(f, 'GET', '/auth/validate', { key: K1 })).status).toBe(200)
  })
})
