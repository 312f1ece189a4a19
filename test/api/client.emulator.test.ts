/**
 * End-to-end: every client method against the emulator over real HTTP (loopback). A fresh sandbox
 * per test, so each test owns its data (partner holding, records, rate-limit budget).
 *
 * Everything runs twice (issue #11): against the emulator's full answers, and against its
 * spec-minimal variant, which carries only what api-spec.md names. Where a field is our own guess,
 * `ours(value, fallback)` says what the client reads from each: the value, or the fallback (null).
 */
import { createHash, randomBytes } from 'node:crypto'
import { closeSync, mkdtempSync, openSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  DEVELOPER_API_403_MESSAGE,
  ERROR_CODES,
  PARTNER_ROUTE_BUSINESS_KEY_MESSAGE,
  proratedGrantCost,
  type JobRead,
  type PurchaseOrderInput,
} from '../../schemas'
import { SANDBOX_VARIANTS, startSandbox, type Fixtures, type Sandbox } from '../../sandbox/index'
import { ApiError, BookkeepingClient, type ClientAuth, type ResponseInfo } from '../../src-main/core/api'

const BUSINESS_KEY = 'svc_sk_x'
const PARTNER_KEY = 'svc_partner_sk_x'

function fixtures(extra: Partial<Fixtures> = {}): Fixtures {
  return {
    partners: [{ name: 'P', key: PARTNER_KEY, holding_credits: 5000 }],
    businesses: [
      {
        uuid: 'b1',
        name: 'B',
        key: BUSINESS_KEY,
        public_key: 'svc_pk_x',
        currency: 'NGN',
        country: 'NG',
        developer_api: true,
        plus_subscription: false,
        credit_from_referral_partner: false,
        referred_by: PARTNER_KEY,
      },
    ],
    invoices: [
      {
        uuid: 'i1',
        source_uuid: 's1',
        business: 'b1',
        date: '2026-01-05',
        due_date: '2026-02-05',
        narration: 'n',
        total_amount: 100,
        amount_paid: 40,
        currency: 'NGN',
      },
    ],
    bank_transactions: [{ uuid: 't1', business: 'b1', date: '2026-01-05', amount: -12.5, narration: 'n' }],
    rate_limit: { limit: 600, window_seconds: 60 },
    job_delay_ms: 300,
    ...extra,
  }
}

describe.each(SANDBOX_VARIANTS)('the client against the %s emulator', (variant) => {
  /** What the client reads for a field that is our guess: the value in full answers, else the fallback. */
  const ours = <T, F = null>(value: T, fallback: F = null as F): T | F =>
    variant === 'default' ? value : fallback

  let sb: Sandbox
  let responses: ResponseInfo[]

  async function start(f: Fixtures = fixtures()): Promise<void> {
    await sb?.stop()
    sb = await startSandbox({ fixtures: f, port: 0, variant })
    responses = []
  }

  beforeEach(async () => {
    await start()
  })

  afterEach(async () => {
    await sb.stop()
  })

  function client(auth: ClientAuth = { key: BUSINESS_KEY }): BookkeepingClient {
    return new BookkeepingClient({
      environment: 'custom',
      baseUrl: sb.url,
      auth,
      onResponse: (i) => responses.push(i),
    })
  }

  const business = () => client()
  const partner = () => client({ key: PARTNER_KEY })

  async function failure(p: Promise<unknown>): Promise<ApiError> {
    try {
      await p
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError)
      return e as ApiError
    }
    throw new Error('expected an ApiError, but the call succeeded')
  }

  /** Polls a job until it is completed or failed (the emulator finishes after job_delay_ms). */
  async function settle(c: BookkeepingClient, ref: string): Promise<JobRead> {
    const deadline = Date.now() + 10_000
    for (;;) {
      const job = await c.getJob(ref)
      if (job.status === 'completed' || job.status === 'failed') return job
      if (Date.now() > deadline) throw new Error(`job ${ref} still ${job.status}`)
      await new Promise((r) => setTimeout(r, 50))
    }
  }

  const po: PurchaseOrderInput = {
    date: '2026-01-05',
    vendor: 'Flour Mills',
    narration: 'Flour for January',
    items: [
      { name: 'Flour 50kg', quantity: 2, price: 25_000 },
      { item_name: 'Delivery', quantity: 1, selling_price: 1_000, tax: 7.5 },
    ],
  }

  const registration = {
    email: 'owner@newshop.example',
    firstname: 'Ada',
    lastname: 'Obi',
    business_name: 'New Shop',
    password: 'corr3ct-Horse!',
    country: 'NG',
    currency: 'NGN',
    timezone: 'Africa/Lagos',
    grant_access: 'admin' as const,
  }

  // ---------------------------------------------------------------------------------------------
  // Authentication
  // ---------------------------------------------------------------------------------------------

  describe('auth', () => {
    it('validateKey returns the business of the key', async () => {
      expect(await business().validateKey()).toEqual({
        business_uuid: 'b1',
        name: 'B',
        currency: ours('NGN'),
        country: ours('NG'),
      })
      expect(responses).toEqual([
        {
          method: 'GET',
          path: '/auth/validate',
          status: 200,
          rateLimit: { limit: 600, remaining: 599, resetAt: expect.any(Number) },
        },
      ])
    })

    it('an unknown key is a 401 with the server message, and the key is nowhere in the error', async () => {
      const e = await failure(client({ key: 'svc_sk_unknown_0123456789' }).validateKey())
      expect(e).toMatchObject({ status: 401, errorCode: ERROR_CODES.invalidKey, retryable: false })
      expect(e.message.length).toBeGreaterThan(0)
      for (const text of [e.message, JSON.stringify(e), inspect(e, { depth: 5 }), e.stack ?? '']) {
        expect(text).not.toContain('svc_sk_unknown_0123456789')
      }
    })

    it('OAuth: the app key plus a bearer token acts for the business of the token', async () => {
      await start(fixtures({ oauth_tokens: [{ token: 'tok_good', app_key: BUSINESS_KEY, business: 'b1' }] }))
      const c = client({ mode: 'oauth', appKey: BUSINESS_KEY, accessToken: 'tok_good' })
      expect((await c.validateKey()).business_uuid).toBe('b1')
      expect((await c.getInvoice('i1')).uuid).toBe('i1')
      const bad = await failure(
        client({ mode: 'oauth', appKey: BUSINESS_KEY, accessToken: 'tok_bad' }).validateKey(),
      )
      expect(bad).toMatchObject({ status: 401, errorCode: ERROR_CODES.invalidKey })
      expect(JSON.stringify(bad)).not.toContain('tok_bad')
    })

    it('a business without Developer API access gets the 403 and its explanation', async () => {
      const f = fixtures()
      f.businesses?.push({ uuid: 'b2', name: 'No API', key: 'svc_sk_noapi', developer_api: false })
      await start(f)
      const e = await failure(client({ key: 'svc_sk_noapi' }).list('invoices'))
      expect(e).toMatchObject({
        status: 403,
        errorCode: ERROR_CODES.developerApiNotAllowed,
        message: DEVELOPER_API_403_MESSAGE,
        retryable: false,
      })
    })

    it('a key of the wrong kind is refused before any request reaches the server', async () => {
      const p = await failure(partner().validateKey())
      expect(p.errorCode).toBe('wrong_key_type')
      const b = await failure(business().addSeats('b1', { seats: 1, months: 1 }))
      expect(b.errorCode).toBe('wrong_key_type')
      expect(b.message).toContain(PARTNER_ROUTE_BUSINESS_KEY_MESSAGE)
      expect(responses).toEqual([])
      expect(sb.state.creates).toEqual([])
    })
  })

  // ---------------------------------------------------------------------------------------------
  // Partner routes
  // ---------------------------------------------------------------------------------------------

  describe('partner', () => {
    it('registers a business whose returned secret key then works on business routes', async () => {
      const p = partner()
      const reg = await p.registerBusiness(registration)
      expect(reg).toMatchObject({ name: 'New Shop', currency: 'NGN', country: 'NG' })
      expect(reg.api_secret_key).toMatch(/^svc_sk_/)
      expect(reg.api_public_key).toMatch(/^svc_pk_/)
      const own = client({ key: reg.api_secret_key! })
      expect(await own.validateKey()).toEqual({
        business_uuid: reg.business_uuid,
        name: 'New Shop',
        currency: ours('NGN'),
        country: ours('NG'),
      })

      const viewer = await p.registerBusiness({
        ...registration,
        email: 'viewer@newshop.example',
        grant_access: 'viewer',
      })
      expect(viewer.api_secret_key).toBeUndefined()
    })

    it('a weak password is refused before sending, naming what is missing', async () => {
      const e = await failure(partner().registerBusiness({ ...registration, password: 'abcdefgh' }))
      expect(e.errorCode).toBe('validation_error')
      expect(e.message).toContain('password: password needs a number, a special character')
      expect(sb.state.creates).toEqual([])
    })

    it('lists referred businesses page by page', async () => {
      const p = partner()
      await p.registerBusiness(registration)
      const all = await p.listReferredBusinesses({ page: 1, limit: 10 })
      expect(all).toMatchObject({ current_page: 1, per_page: 10, total: 2 })
      expect(all.data.map((r) => r.name)).toEqual(['B', 'New Shop'])
      expect(all.data[0]).toMatchObject({
        uuid: 'b1',
        currency: 'NGN',
        country: 'NG',
        credit_from_referral_partner: false,
      })
      const second = await p.listReferredBusinesses({ page: 2, limit: 1 })
      expect(second).toMatchObject({ current_page: 2, per_page: 1, total: 2 })
      expect(second.data.map((r) => r.name)).toEqual(['New Shop'])
    })

    it('grants seats: a first grant at 150 × seats × months, then a prorated one', async () => {
      const p = partner()
      const before = await p.billingStatus('b1')
      expect(before).toMatchObject({
        credit_from_referral_partner: false,
        is_subscribed_to_svc: false,
        available_seats: 0,
      })

      const first = await p.addSeats('b1', { seats: 2, months: 3 })
      expect(first).toMatchObject({ holding_credits_charged: 900, partner_holding_balance: 4100 })
      expect(first.allocation).toMatchObject({
        allocation_type: 'seats',
        seats: 2,
        months: 3,
        prorated: false,
        resulting_seats: 2,
      })
      expect(Date.parse(first.subscription_expires_at)).toBeGreaterThan(Date.now())

      const status = await p.billingStatus('b1')
      expect(status).toMatchObject({
        is_subscribed_to_svc: true,
        available_seats: 2,
        subscription_plan: 'plus',
        subscription_status: 'active',
      })
      expect(status.subscription_expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)

      const later = await p.addSeats('b1', { seats: 1, months: 1 })
      expect(later.allocation).toMatchObject({ prorated: true, resulting_seats: 3 })
      expect(later.holding_credits_charged).toBeGreaterThan(0)
      expect(later.holding_credits_charged).toBeLessThanOrEqual(proratedGrantCost(1, 3 * 31 * 86_400_000))
      expect(later.partner_holding_balance).toBe(4100 - later.holding_credits_charged)
      expect(later.subscription_expires_at).toBe(first.subscription_expires_at)

      const row = (await p.listReferredBusinesses({ page: 1, limit: 10 })).data.find((r) => r.uuid === 'b1')
      expect(row?.available_seats).toBe(3)
    })

    it('an add-seats the holding cannot cover fails with insufficient_partner_credit_holding and charges nothing', async () => {
      const p = partner()
      const e = await failure(p.addSeats('b1', { seats: 10, months: 36 }))
      expect(e).toMatchObject({ status: 400, errorCode: ERROR_CODES.insufficientHolding, retryable: false })
      expect(e.message).toMatch(/insufficient partner credit holding/i)
      expect((await p.addCredits('b1', { credits: 1 })).partner_holding_balance).toBe(4999)
    })

    it('grants AI credits from the holding, and refuses more than it holds', async () => {
      const p = partner()
      const before = (await p.billingStatus('b1')).credit_balance
      expect(await p.addCredits('b1', { credits: 100 })).toEqual({
        credits_granted: 100,
        partner_holding_balance: 4900,
        credit_balance: ours(before + 100),
      })
      expect((await p.billingStatus('b1')).credit_balance).toBe(before + 100)
      const e = await failure(p.addCredits('b1', { credits: 6000 }))
      expect(e).toMatchObject({ status: 400, errorCode: ERROR_CODES.insufficientHolding })
    })

    it('an unknown business is a 404', async () => {
      const e = await failure(partner().billingStatus('nobody'))
      expect(e.status).toBe(404)
      expect(e.retryable).toBe(false)
    })

    it('a repeated Idempotency-Key grants once', async () => {
      const p = partner()
      const before = (await p.billingStatus('b1')).credit_balance
      const a = await p.addCredits('b1', { credits: 10 }, { idempotencyKey: 'grant-1' })
      const b = await p.addCredits('b1', { credits: 10 }, { idempotencyKey: 'grant-1' })
      expect(b).toEqual(a)
      expect((await p.billingStatus('b1')).credit_balance).toBe(before + 10)
    })
  })

  // ---------------------------------------------------------------------------------------------
  // Purchase orders
  // ---------------------------------------------------------------------------------------------

  describe('purchase orders', () => {
    it('creates one, then lists and reads it', async () => {
      const c = business()
      const created = await c.createPurchaseOrder(po)
      expect(created).toMatchObject({
        transaction_type: 'purchase_order',
        status: 'draft',
        narration: 'Flour for January',
        amount: 51_075,
        currency: 'NGN',
      })
      expect(created.document_number).not.toBe('')
      const list = await c.list('purchase-orders')
      expect(list.meta).toEqual({ page: 1, limit: 20, total: ours(1) })
      expect(list.data.map((r) => r.uuid)).toEqual([created.uuid])
      const read = await c.get('purchase-orders', created.uuid)
      expect(read).toMatchObject({
        uuid: created.uuid,
        document_number: created.document_number,
        amount: 51_075,
        customer: ours('Flour Mills'),
        date: ours('2026-01-05'),
      })
      expect(read.items.map((i) => i.item_name)).toEqual(ours(['Flour 50kg', 'Delivery'], []))
    })

    it('the alias route creates the same kind of order', async () => {
      const created = await business().createPurchaseOrder(po, { alias: true })
      expect(created.transaction_type).toBe('purchase_order')
      expect(sb.state.creates.map((x) => x.route)).toEqual(['/create/purchase_order'])
    })

    it('a bad purchase order never leaves the machine', async () => {
      const c = business()
      const e = await failure(c.createPurchaseOrder({ date: '2026-01-05', items: [] }))
      expect(e.errorCode).toBe('validation_error')
      expect(e.message).toContain('items')
      expect(responses).toEqual([])
      expect(sb.state.creates).toEqual([])
      expect((await c.list('purchase-orders')).data).toEqual([])
    })

    it('the same Idempotency-Key creates once and replays the first answer', async () => {
      const c = business()
      const a = await c.createPurchaseOrder(po, { idempotencyKey: 'po-row-1' })
      const b = await c.createPurchaseOrder(po, { idempotencyKey: 'po-row-1' })
      expect(b.uuid).toBe(a.uuid)
      expect(sb.state.creates).toHaveLength(1)
      const other = await c.createPurchaseOrder(po)
      expect(other.uuid).not.toBe(a.uuid)
    })
  })

  // ---------------------------------------------------------------------------------------------
  // AI creates and jobs
  // ---------------------------------------------------------------------------------------------

  describe('AI creates', () => {
    let dir: string
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'bookdrop-e2e-'))
    })
    afterAll(() => {
      rmSync(dir, { recursive: true, force: true })
    })

    it('async: a job reference, a job that completes, and the record it made', async () => {
      const c = business()
      const receipt = Buffer.from('Total Energies\nDiesel\nTotal: NGN 12,500\n2026-01-06\n')
      const res = await c.aiCreate('expenses', {
        prompt: 'Record this fuel receipt',
        attachments: [{ file: receipt.toString('base64'), type: 'base64', name: 'fuel.txt' }],
      })
      if (res.process_type !== 'async') throw new Error('expected an async job')
      expect(res.job_reference).not.toBe('')
      const early = await c.getJob(res.job_reference)
      expect(['queued', 'processing']).toContain(early.status)
      expect(early.resource_uuid).toBeNull()
      const job = await settle(c, res.job_reference)
      expect(job).toMatchObject({ job_reference: res.job_reference, status: 'completed', message: null })
      const rec = await c.get('expenses', job.resource_uuid!)
      expect(rec.uuid).toBe(job.resource_uuid)
      expect(rec.attachment_name).toBe(ours('fuel.txt'))
    })

    it('direct: the created record in the response, readable afterwards', async () => {
      const c = business()
      const res = await c.aiCreate('bills', {
        prompt: 'Bill from Flour Mills for NGN 40,000',
        process_type: 'direct',
      })
      if (res.process_type !== 'direct') throw new Error('expected a direct record')
      expect(await c.get('bills', res.record.uuid)).toEqual(res.record)
    })

    it('a direct invoice comes back in the invoice shape', async () => {
      const res = await business().aiCreate('invoices', {
        prompt: 'Invoice Cafe Lumen NGN 64,000',
        process_type: 'direct',
      })
      if (res.process_type !== 'direct') throw new Error('expected a direct record')
      expect(res.record).toMatchObject({
        total_amount: expect.any(Number),
        balance: expect.any(Number),
        payments: [],
      })
    })

    it('a bank upload with a file kind it does not take is refused locally, naming the attachment', async () => {
      const e = await failure(
        business().aiCreate('bank-transactions', {
          prompt: 'January',
          attachments: [{ file: 'AAAA', type: 'base64', name: 'statement.txt' }],
        }),
      )
      expect(e.message).toContain('attachments.0.name')
      expect(responses).toEqual([])
    })

    it('an unknown job is a 404', async () => {
      const e = await failure(business().getJob('job_nope'))
      expect(e).toMatchObject({ status: 404, errorCode: ERROR_CODES.notFound })
    })

    it('streams files from disk: the server receives exactly their bytes', async () => {
      const c = business()
      const scan = randomBytes(300_001)
      const path = join(dir, 'bill-scan.pdf')
      writeFileSync(path, scan)
      const res = await c.aiCreateFromFiles(
        'bills',
        { prompt: 'Supplier bill', files: [{ path }] },
        { idempotencyKey: 'file-1' },
      )
      if (res.process_type !== 'async') throw new Error('expected an async job')
      const job = await settle(c, res.job_reference)
      expect(job.status).toBe('completed')
      const rec = await c.get('bills', job.resource_uuid!)
      expect(rec.attachment_name).toBe(ours('bill-scan.pdf'))
      const logged = sb.state.creates.find((x) => x.uuid === job.resource_uuid)
      expect(logged?.idempotency_key).toBe('file-1')
      expect(logged?.attachments).toEqual([
        {
          name: 'bill-scan.pdf',
          bytes: scan.length,
          sha256: createHash('sha256').update(scan).digest('hex'),
        },
      ])
    })

    it('uploads a CSV bank statement from disk: one transaction per row', async () => {
      const c = business()
      const path = join(dir, 'january.csv')
      writeFileSync(
        path,
        'Date,Description,Amount\n2026-01-10,Coffee beans,-1500\n2026-01-11,Transfer from Cafe Lumen,20000\n',
      )
      const res = await c.aiCreateFromFiles('bank-transactions', {
        prompt: 'January statement',
        files: [{ path }],
      })
      if (res.process_type !== 'async') throw new Error('expected an async job')
      expect((await settle(c, res.job_reference)).status).toBe('completed')
      const list = await c.list('bank-transactions', { date_order: 'asc' })
      expect(list.data).toHaveLength(3)
      expect(list.meta.total).toBe(ours(3))
      expect(list.data.map((t) => t.amount)).toEqual(ours([-12.5, -1500, 20000], [null, null, null]))
    })

    it('the bytes sent are the bytes hashed: a change while streaming aborts the body before it is complete', async () => {
      const c = business()
      const original = randomBytes(3 * 1024 * 1024)
      const path = join(dir, 'changing.pdf')
      writeFileSync(path, original)
      const sha256 = createHash('sha256').update(original).digest('hex')
      const { mtimeMs } = statSync(path)
      let changed = false
      let lastSent = 0
      let total = 0
      const e = await failure(
        c.aiCreateFromFiles(
          'bills',
          { prompt: 'Supplier bill', files: [{ path, expect: { size: original.length, mtimeMs, sha256 } }] },
          {
            idempotencyKey: 'changing-1',
            onProgress: (sent, t) => {
              lastSent = sent
              total = t
              if (!changed) {
                // The person saves over the file while it is being sent: its last bytes change.
                changed = true
                const fd = openSync(path, 'r+')
                writeSync(fd, Buffer.from('CHANGED'), 0, 7, original.length - 7)
                closeSync(fd)
              }
            },
          },
        ),
      )
      expect(e.errorCode).toBe('file_superseded')
      expect(e.message).toMatch(/changed on disk after it was queued/)
      // The body never reached its end, so the server had no complete request to act on.
      expect(lastSent).toBeLessThan(total)
      expect(sb.state.creates).toEqual([])
    })

    it('a file whose size or mtime is not the recorded one is not sent at all', async () => {
      const path = join(dir, 'replaced.pdf')
      writeFileSync(path, randomBytes(1000))
      const { mtimeMs } = statSync(path)
      const responses: ResponseInfo[] = []
      const watched = new BookkeepingClient({ environment: 'custom', baseUrl: sb.url, auth: { key: BUSINESS_KEY }, onResponse: (r) => responses.push(r) })
      const e = await failure(
        watched.aiCreateFromFiles('bills', { prompt: 'p', files: [{ path, expect: { size: 999, mtimeMs, sha256: 'x' } }] }),
      )
      expect(e).toMatchObject({ errorCode: 'file_superseded', status: 0 })
      expect(e.message).toMatch(/nothing was sent/)
      expect(responses).toEqual([])
    })

    it('a file over maxFileBytes is refused with the limit and how to change it, nothing sent', async () => {
      const path = join(dir, 'big.pdf')
      writeFileSync(path, randomBytes(2048))
      const c = new BookkeepingClient({
        environment: 'custom',
        baseUrl: sb.url,
        auth: { key: BUSINESS_KEY },
        maxFileBytes: 1024,
      })
      const e = await failure(c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path }] }))
      expect(e.errorCode).toBe('file_too_large')
      expect(e.message).toContain('maxFileBytes')
      expect(sb.state.creates).toEqual([])
    })
  })

  // ---------------------------------------------------------------------------------------------
  // Reads, updates, delete
  // ---------------------------------------------------------------------------------------------

  describe('reads', () => {
    it('lists invoices with page meta', async () => {
      const page = await business().list('invoices')
      expect(page.meta).toEqual({ page: 1, limit: 20, total: ours(1) })
      // List elements are not shown by the spec: the spec-minimal server leaves out what is paid.
      expect(page.data[0]).toMatchObject({
        uuid: 'i1',
        total_amount: 100,
        amount_paid: ours(40),
        balance: ours(60),
        source_uuid: ours('s1'),
      })
    })

    it('filters and pages', async () => {
      const c = business()
      expect((await c.list('invoices', { search: 'no such text' })).data).toEqual([])
      await c.aiCreate('expenses', { prompt: 'Diesel NGN 5,000', process_type: 'direct' })
      await c.aiCreate('expenses', { prompt: 'Flour NGN 9,000', process_type: 'direct' })
      const one = await c.list('expenses', { page: 2, limit: 1 })
      expect(one.meta).toEqual({ page: 2, limit: 1, total: ours(2) })
      expect(one.data).toHaveLength(1)
      expect(await c.list('expenses', { page: 3, limit: 1 })).toMatchObject({ data: [] })
    })

    it('reads an invoice by uuid or by source_uuid', async () => {
      const c = business()
      const byUuid = await c.getInvoice('i1')
      expect(byUuid).toMatchObject({
        uuid: 'i1',
        due_date: '2026-02-05',
        total_amount: 100,
        amount_paid: 40,
        balance: 60,
        currency: 'NGN',
      })
      expect(await c.getInvoice('s1')).toEqual(byUuid)
      expect(await c.get('invoices', 's1')).toEqual(byUuid)
      expect((await failure(c.getInvoice('nope'))).status).toBe(404)
    })

    it('reads a bank transaction', async () => {
      expect(await business().get('bank-transactions', 't1')).toMatchObject({
        uuid: 't1',
        amount: ours(-12.5),
        narration: ours('n'),
        currency: ours('NGN'),
      })
    })
  })

  describe('updates and delete', () => {
    it('patches an expense', async () => {
      const c = business()
      const res = await c.aiCreate('expenses', { prompt: 'Diesel NGN 5,000', process_type: 'direct' })
      if (res.process_type !== 'direct') throw new Error('expected a direct record')
      const updated = await c.patchExpense(res.record.uuid, { narration: 'Generator diesel', memo: 'site B' })
      expect(updated).toMatchObject({ uuid: res.record.uuid, narration: 'Generator diesel' })
      expect(await c.get('expenses', res.record.uuid)).toMatchObject({
        narration: ours('Generator diesel'),
        memo: ours('site B'),
      })
    })

    it('patches and puts a bill', async () => {
      const c = business()
      const res = await c.aiCreate('bills', { prompt: 'Bill NGN 40,000', process_type: 'direct' })
      if (res.process_type !== 'direct') throw new Error('expected a direct record')
      expect((await c.patchBill(res.record.uuid, { narration: 'Flour, January' })).narration).toBe(
        'Flour, January',
      )
      const put = await c.putBill(res.record.uuid, {
        narration: 'Flour, Jan (final)',
        date: '2026-01-31',
        amount: 41_000,
      })
      expect(put).toMatchObject({ uuid: res.record.uuid, narration: 'Flour, Jan (final)' })
      expect(await c.get('bills', res.record.uuid)).toMatchObject({
        date: ours('2026-01-31'),
        amount: ours(41_000),
      })
    })

    it('an update of an unknown record is a 404; an empty patch never leaves the machine', async () => {
      const c = business()
      expect((await failure(c.patchExpense('nope', { narration: 'x' }))).status).toBe(404)
      const n = responses.length
      expect((await failure(c.patchBill('nope', {}))).errorCode).toBe('validation_error')
      expect(responses).toHaveLength(n)
    })

    it('deletes a bank transaction', async () => {
      const c = business()
      expect((await c.deleteBankTransaction('t1')).message.length).toBeGreaterThan(0)
      expect((await failure(c.get('bank-transactions', 't1'))).status).toBe(404)
      expect((await c.list('bank-transactions')).data).toEqual([])
    })
  })

  // ---------------------------------------------------------------------------------------------
  // Rate limits and faults
  // ---------------------------------------------------------------------------------------------

  describe('rate limits and faults', () => {
    it('onResponse sees the budget shrink; past it, a retryable 429 says how long to wait', async () => {
      await start(fixtures({ rate_limit: { limit: 3, window_seconds: 60 } }))
      const c = business()
      for (let i = 0; i < 3; i++) await c.validateKey()
      expect(responses.map((r) => r.rateLimit?.remaining)).toEqual([2, 1, 0])
      expect(responses.every((r) => r.rateLimit?.limit === 3)).toBe(true)
      const e = await failure(c.validateKey())
      expect(e).toMatchObject({ status: 429, errorCode: ERROR_CODES.rateLimited, retryable: true })
      expect(e.rateLimit).toMatchObject({ limit: 3, remaining: 0 })
      expect(e.rateLimit!.resetAt).toBeGreaterThan(Date.now())
      expect(e.retryAfterMs).toBeGreaterThan(0)
      expect(e.retryAfterMs).toBeLessThanOrEqual(60_000)
      expect(responses.at(-1)).toMatchObject({ status: 429, path: '/auth/validate' })
    })

    it('reads an epoch X-RateLimit-Reset when there is no Retry-After', async () => {
      sb.setFaults({
        burst_429: 1,
        burst_reset_style: 'epoch',
        burst_retry_after: false,
        burst_wait_seconds: 5,
      })
      const e = await failure(business().validateKey())
      expect(e.status).toBe(429)
      expect(e.retryAfterMs).toBeGreaterThan(3_000)
      expect(e.retryAfterMs).toBeLessThanOrEqual(6_000)
      expect(e.rateLimit!.resetAt! - Date.now()).toBeLessThanOrEqual(6_000)
    })

    it('a 5xx is retryable, and a retry with the same Idempotency-Key creates exactly once', async () => {
      const c = business()
      sb.setFaults({ fail_next: 1 })
      const e = await failure(c.createPurchaseOrder(po))
      expect(e.status).toBeGreaterThanOrEqual(500)
      expect(e.retryable).toBe(true)
      expect(e.idempotencyKey).toBeDefined()
      const created = await c.createPurchaseOrder(po, { idempotencyKey: e.idempotencyKey })
      const again = await c.createPurchaseOrder(po, { idempotencyKey: e.idempotencyKey })
      expect(again.uuid).toBe(created.uuid)
      expect(sb.state.creates).toHaveLength(1)
    })

    it('a dropped connection is a retryable network error with status 0', async () => {
      sb.setFaults({ drop_next: 1 })
      const e = await failure(business().validateKey())
      expect(e).toMatchObject({ status: 0, errorCode: 'network_error', retryable: true })
    })

    it('a create committed but never answered is created once when retried with its key', async () => {
      const c = business()
      sb.setFaults({ commit_then_drop_next: 1 })
      const e = await failure(
        c.aiCreate(
          'expenses',
          { prompt: 'Diesel NGN 5,000', process_type: 'direct' },
          { idempotencyKey: 'row-9' },
        ),
      )
      expect(e).toMatchObject({ status: 0, retryable: true })
      const res = await c.aiCreate(
        'expenses',
        { prompt: 'Diesel NGN 5,000', process_type: 'direct' },
        { idempotencyKey: 'row-9' },
      )
      if (res.process_type !== 'direct') throw new Error('expected a direct record')
      expect(sb.state.creates.map((x) => x.uuid)).toEqual([res.record.uuid])
    })
  })
})
