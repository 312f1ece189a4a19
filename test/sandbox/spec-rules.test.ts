/**
 * Spec rules that worked but that nothing tested (issue #11 point 4), over real HTTP to the
 * emulator: every bank statement kind, `discount_type: fixed`, the purchase order's optional
 * fields, attachments on every AI create target, PATCH and PUT by source_uuid, and OAuth with a
 * token of another app, for a business without the Developer API, and on a partner route.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  AI_CREATE_ROUTES,
  AI_TARGETS,
  BANK_UPLOAD_KINDS,
  DEVELOPER_API_403_MESSAGE,
  ERROR_CODES,
  PARTNER_ROUTE_BUSINESS_KEY_MESSAGE,
  WRONG_KEY_KIND_STATUS,
  purchaseOrderRecord,
} from '../../schemas'
import * as rig from './business-helpers'

const sb = rig.businessSandbox({
  records: [
    { resource: 'expenses', uuid: 'e1', source_uuid: 'my-exp-1', business: 'b1', date: '2026-03-01', narration: 'Taxi', amount: 2500 },
    { resource: 'bills', uuid: 'bl1', source_uuid: 'my-bill-1', business: 'b1', date: '2026-03-02', narration: 'Power', amount: 9000 },
  ],
  oauth_tokens: [
    { token: 'tok_b1', app_key: rig.K1, business: 'b1' },
    { token: 'tok_noapi', app_key: rig.K1, business: 'b3' },
  ],
})

/** A statement file: a CSV with one row (a CSV without rows fails its job), else any bytes. */
const statement = (name: string) => ({
  prompt: 'Bank statement for March',
  attachments: [
    {
      type: 'base64',
      file: rig.b64(/\.csv$/i.test(name) ? 'date,description,amount\n2026-03-01,Flour,-1200\n' : `statement ${name}`),
      name,
    },
  ],
})

describe('bank statement kinds (Part 4)', () => {
  const kinds = BANK_UPLOAD_KINDS.flatMap((k) => [k, k.toUpperCase()])

  it.each(kinds)('a .%s statement is accepted and its job finishes', async (kind) => {
    const res = await rig.as1(sb, 'POST', '/bank-transactions/upload', { body: statement(`march.${kind}`) })
    const { job_reference } = rig.dataOf(rig.asyncData, res)
    const { job } = await rig.waitForJob(sb, job_reference)
    expect(job.status).toBe('completed')
    expect(job.resource_uuids.length).toBeGreaterThanOrEqual(1)
  })

  it.each(['txt', 'docx', 'zip', ''])('a statement named "march.%s" is refused naming the kinds allowed; nothing is created', async (kind) => {
    const res = await rig.as1(sb, 'POST', '/bank-transactions/upload', { body: statement(kind ? `march.${kind}` : 'march') })
    const f = rig.failureOf(res, 400)
    expect(f.error_code).toBe(ERROR_CODES.validation)
    expect(f.message).toContain(`allowed kinds are ${BANK_UPLOAD_KINDS.join(', ')}`)
  })
})

describe('purchase orders (2.2): discounts and optional fields', () => {
  const line = { item_name: 'Flour 50 kg', quantity: 2, selling_price: 100 }
  const create = async (body: Record<string, unknown>) =>
    rig.dataOf(purchaseOrderRecord.partial().required({ uuid: true, amount: true }), await rig.as1(sb, 'POST', '/purchase-orders', { body }))

  it('discount_type fixed takes a currency amount off the line, capped at the line; percent takes a share', async () => {
    const fixed = await create({ date: '2026-03-01', items: [{ ...line, discount: 30, discount_type: 'fixed' }] })
    const percent = await create({ date: '2026-03-01', items: [{ ...line, discount: 30, discount_type: 'percent' }] })
    const capped = await create({ date: '2026-03-01', items: [{ ...line, discount: 500, discount_type: 'fixed' }] })
    const taxed = await create({ date: '2026-03-01', items: [{ ...line, discount: 50, discount_type: 'fixed', tax: 10 }] })
    expect(fixed.amount).toBe(170)
    expect(percent.amount).toBe(140)
    expect(capped.amount).toBe(0)
    expect(taxed.amount).toBe(165) // (200 − 50) + 10 %
  })

  it('exchange_rate defaults to 1; delivery_date, the dimensions and withholding_tax are kept and read back', async () => {
    const plain = await create({ date: '2026-03-01', items: [line] })
    const read = rig.dataOf(purchaseOrderRecord, await rig.as1(sb, 'GET', `/purchase-orders/${plain.uuid}`))
    expect(read.exchange_rate).toBe(1)
    expect(read).toMatchObject({ delivery_date: null, branch_uuid: null, department_uuid: null, project_uuid: null })

    const optional = {
      delivery_date: '2026-03-15',
      exchange_rate: 1530.5,
      currency: 'USD',
      branch_uuid: 'br-lagos',
      department_uuid: 'dep-bakery',
      project_uuid: 'prj-easter',
    }
    const full = await create({
      date: '2026-03-01',
      ...optional,
      items: [{ ...line, withholding_tax: 5, withholding_tax_uuid: 'wht-5' }],
    })
    const back = rig.dataOf(purchaseOrderRecord, await rig.as1(sb, 'GET', `/purchase-orders/${full.uuid}`))
    expect(back).toMatchObject(optional)
    expect(back.items[0]).toMatchObject({ withholding_tax: 5, withholding_tax_uuid: 'wht-5' })
    // Withholding is shown apart: it does not change the amount.
    expect(back.amount).toBe(200)
  })

  it('a delivery_date before the date and an exchange_rate of 0 are refused, naming the field', async () => {
    const early = rig.failureOf(await rig.as1(sb, 'POST', '/purchase-orders', { body: { date: '2026-03-10', delivery_date: '2026-03-01', items: [line] } }), 400)
    expect(early.message).toContain('delivery_date')
    const zero = rig.failureOf(await rig.as1(sb, 'POST', '/purchase-orders', { body: { date: '2026-03-10', exchange_rate: 0, items: [line] } }), 400)
    expect(zero.message).toContain('exchange_rate')
  })
})

describe('attachments on every AI create target (2.4, 2.5)', () => {
  const kindFor = (target: string) => (target === 'bank-transactions' ? 'csv' : 'txt')

  it.each(AI_TARGETS)('%s: a create with an attachment makes a record from it', async (target) => {
    const name = `receipt-${target}.${kindFor(target)}`
    const content =
      target === 'bank-transactions' ? 'date,description,amount\n2026-03-01,Flour,-1200\n' : 'Vendor: Mama Put\nTotal: NGN 3,400.00\nDate: 2026-03-01\n'
    const res = await rig.as1(sb, 'POST', AI_CREATE_ROUTES[target], {
      body: { prompt: `From the attached file (${target})`, attachments: [{ type: 'base64', file: rig.b64(content), name }] },
    })
    const { job } = await rig.waitForJob(sb, rig.dataOf(rig.asyncData, res).job_reference)
    expect(job.status).toBe('completed')
    const path = target === 'bank-transactions' ? '/bank-transactions' : AI_CREATE_ROUTES[target]
    const record = rig.dataOf(rig.anyRecord.partial({ narration: true }), await rig.as1(sb, 'GET', `${path}/${job.resource_uuid}`))
    if (target === 'bank-transactions') expect(record).toMatchObject({ narration: 'Flour', amount: -1200 })
    else {
      expect(record).toMatchObject({ attachment_name: name, contact: 'Mama Put' })
      // An invoice carries its amount as total_amount (2.9); other records as amount.
      expect(target === 'invoices' ? record.total_amount : record.amount).toBe(3400)
    }
  })
})

describe('updates by source_uuid (2.10, 2.11)', () => {
  it('PATCH /expenses/{source_uuid} changes the expense; a read by its uuid shows it', async () => {
    const res = await rig.as1(sb, 'PATCH', '/expenses/my-exp-1', { body: { narration: 'Taxi to the market', amount: 2700 } })
    expect(rig.dataOf(rig.anyRecord, res)).toMatchObject({ uuid: 'e1', narration: 'Taxi to the market' })
    const read = rig.dataOf(rig.anyRecord, await rig.as1(sb, 'GET', '/expenses/e1'))
    expect(read).toMatchObject({ narration: 'Taxi to the market', amount: 2700 })
  })

  it('PUT /bills/{source_uuid} replaces the bill; a read by its uuid shows it', async () => {
    const res = await rig.as1(sb, 'PUT', '/bills/my-bill-1', { body: { narration: 'Power, March', date: '2026-03-05' } })
    expect(rig.dataOf(rig.anyRecord, res)).toMatchObject({ uuid: 'bl1', narration: 'Power, March' })
    const read = rig.dataOf(rig.anyRecord.extend({ date: z.string() }), await rig.as1(sb, 'GET', '/bills/bl1'))
    expect(read).toMatchObject({ narration: 'Power, March', date: '2026-03-05', amount: 9000 })
  })

  it("another business cannot reach them by source_uuid (404, nothing changed)", async () => {
    rig.failureOf(await rig.call(sb, 'PATCH', '/expenses/my-exp-1', { key: rig.K2, body: { narration: 'mine now' } }), 404)
    expect(rig.dataOf(rig.anyRecord, await rig.as1(sb, 'GET', '/expenses/e1')).narration).toBe('Taxi to the market')
  })
})

describe('OAuth (Part 5)', () => {
  const oauth = (key: string, token: string, path: string, method: 'GET' | 'POST' = 'GET', body?: unknown) =>
    fetch(`${sb.url}${path}`, {
      method,
      headers: {
        'X-API-Key': key,
        Authorization: `Bearer ${token}`,
        ...(body ? { 'Content-Type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as { error_code?: string; message?: string } }))

  it('the app key and its token act for the token’s business', async () => {
    expect((await oauth(rig.K1, 'tok_b1', '/invoices/i1')).status).toBe(200)
  })

  it('a token issued to another app key is 401 invalid_api_key, and says to authorize again', async () => {
    const r = await oauth(rig.K2, 'tok_b1', '/invoices/i1')
    expect(r.status).toBe(401)
    expect(r.body.error_code).toBe(ERROR_CODES.invalidKey)
    expect(r.body.message).toMatch(/authorize the app again/)
  })

  it('a token for a business without the Developer API is 403 with the spec’s message', async () => {
    const r = await oauth(rig.K1, 'tok_noapi', '/invoices')
    expect(r.status).toBe(403)
    expect(r.body).toMatchObject({ error_code: ERROR_CODES.developerApiNotAllowed, message: DEVELOPER_API_403_MESSAGE })
    // The business's own key is refused the same way.
    expect((await rig.call(sb, 'GET', '/invoices', { key: rig.K_NO_API })).status).toBe(403)
  })

  it('an app key with a token on a partner route is refused as a business credential; nothing is registered', async () => {
    const r = await oauth(rig.K1, 'tok_b1', '/referred-businesses')
    expect(r.status).toBe(WRONG_KEY_KIND_STATUS)
    expect(r.body).toMatchObject({ error_code: ERROR_CODES.wrongKeyKind, message: PARTNER_ROUTE_BUSINESS_KEY_MESSAGE })
    const reg = await oauth(rig.K1, 'tok_b1', '/register-business', 'POST', { email: 'x@example.com' })
    expect(reg.status).toBe(WRONG_KEY_KIND_STATUS)
  })
})
