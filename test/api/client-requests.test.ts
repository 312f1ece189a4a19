/**
 * Unit tests of the API client that need no emulator (1/2): rate-limit headers, base URLs, key
 * kinds, requests checked before they leave, and what goes over the wire.
 */
import { describe, expect, it } from 'vitest'
import {
  BookkeepingClient,
  headerValue,
  isLoopbackHost,
  parseRateLimit,
  parseRetryAfter,
  resolveBaseUrl,
  retryAfterMs,
} from '../../src-main/core/api'
import {
  ENVIRONMENT_BASE_URLS,
  EPOCH_THRESHOLD_SECONDS,
  PUBLIC_KEY_MESSAGE,
  type PurchaseOrderInput,
} from '../../schemas'
import {
  BUSINESS_KEY,
  PARTNER_KEY,
  OAUTH_TOKEN,
  server,
  client,
  partner,
  oauth,
  failure,
  ok,
  goodPo,
  poData,
  record,
} from './client-unit'

describe('rate-limit headers', () => {
  const now = 1_767_000_000_000

  it('reads limit, remaining and a reset given in seconds from now', () => {
    const h = new Headers({
      'X-RateLimit-Limit': '600',
      'X-RateLimit-Remaining': '599',
      'X-RateLimit-Reset': '42',
    })
    expect(parseRateLimit(h, now)).toEqual({ limit: 600, remaining: 599, resetAt: now + 42_000 })
  })

  it('reads a reset given as epoch seconds (at or above the threshold)', () => {
    const epoch = 1_767_000_123
    expect(parseRateLimit(new Headers({ 'x-ratelimit-reset': String(epoch) }), now)?.resetAt).toBe(
      epoch * 1000,
    )
    expect(
      parseRateLimit(new Headers({ 'x-ratelimit-reset': String(EPOCH_THRESHOLD_SECONDS) }), now)?.resetAt,
    ).toBe(EPOCH_THRESHOLD_SECONDS * 1000)
    expect(
      parseRateLimit(new Headers({ 'x-ratelimit-reset': String(EPOCH_THRESHOLD_SECONDS - 1) }), now)?.resetAt,
    ).toBe(now + (EPOCH_THRESHOLD_SECONDS - 1) * 1000)
  })

  it('is undefined without the headers and null for unreadable values', () => {
    expect(parseRateLimit(new Headers(), now)).toBeUndefined()
    expect(
      parseRateLimit(
        new Headers({ 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': '-1', 'x-ratelimit-reset': '5' }),
        now,
      ),
    ).toEqual({
      limit: null,
      remaining: null,
      resetAt: now + 5000,
    })
  })

  it('reads node-style header records, case-insensitively, first of repeated values', () => {
    const h = {
      'x-ratelimit-limit': ['10', '20'],
      'X-RateLimit-Remaining': '3',
      'x-ratelimit-reset': '600, 600',
    }
    expect(headerValue(h, 'X-RATELIMIT-LIMIT')).toBe('10')
    expect(parseRateLimit(h, now)).toEqual({ limit: 10, remaining: 3, resetAt: now + 600_000 })
  })

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000)
    expect(parseRetryAfter('0', now)).toBe(0)
    expect(parseRetryAfter(new Date(now + 30_000).toUTCString(), now)).toBe(30_000)
    expect(parseRetryAfter(new Date(now - 30_000).toUTCString(), now)).toBe(0)
    expect(parseRetryAfter('-5', now)).toBeUndefined()
    expect(parseRetryAfter('soon', now)).toBeUndefined()
    expect(parseRetryAfter(undefined, now)).toBeUndefined()
  })

  it('prefers Retry-After; falls back to X-RateLimit-Reset on 429 only', () => {
    const both = new Headers({ 'retry-after': '7', 'x-ratelimit-reset': '30' })
    expect(retryAfterMs(429, both, now)).toBe(7000)
    const resetOnly = new Headers({ 'x-ratelimit-reset': '30' })
    expect(retryAfterMs(429, resetOnly, now)).toBe(30_000)
    expect(retryAfterMs(503, resetOnly, now)).toBeUndefined()
    expect(retryAfterMs(503, new Headers({ 'retry-after': new Date(now + 5000).toUTCString() }), now)).toBe(
      5000,
    )
    expect(
      retryAfterMs(429, new Headers({ 'x-ratelimit-reset': String(Math.floor(now / 1000) + 9) }), now),
    ).toBe(9000)
  })
})

// ---------------------------------------------------------------------------------------------
// Base URL
// ---------------------------------------------------------------------------------------------

describe('base URL per environment', () => {
  it('uses the production and sandbox bases', () => {
    expect(resolveBaseUrl({ environment: 'production' })).toBe(ENVIRONMENT_BASE_URLS.production)
    expect(resolveBaseUrl({ environment: 'sandbox' })).toBe(ENVIRONMENT_BASE_URLS.sandbox)
    expect(new BookkeepingClient({ environment: 'sandbox', auth: { key: BUSINESS_KEY } }).baseUrl).toBe(
      ENVIRONMENT_BASE_URLS.sandbox,
    )
  })

  it('accepts a custom https base and drops trailing slashes', () => {
    expect(resolveBaseUrl({ environment: 'custom', baseUrl: 'https://proxy.example.com/api/v1/' })).toBe(
      'https://proxy.example.com/api/v1',
    )
  })

  it.each([
    'http://127.0.0.1:4010/v1',
    'http://127.9.8.7/v1',
    'http://localhost:3000/v1',
    'http://[::1]:8080/v1',
  ])('accepts plain http on loopback: %s', (baseUrl) => {
    expect(resolveBaseUrl({ environment: 'custom', baseUrl })).toBe(baseUrl)
  })

  it.each([
    'http://api.example.com/v1',
    'http://10.0.0.5/v1',
    'http://128.0.0.1/v1',
    'http://localhost.evil.example/v1',
    'http://[::2]/v1',
  ])('refuses plain http off loopback with a clear message: %s', async (baseUrl) => {
    const e = await failure(() => resolveBaseUrl({ environment: 'custom', baseUrl }))
    expect(e.errorCode).toBe('invalid_base_url')
    expect(e.message).toMatch(/https:\/\//)
    expect(e.message).toMatch(/unencrypted/)
  })

  it('refuses other schemes, non-URLs, a missing URL and embedded credentials (without echoing them)', async () => {
    expect(
      (await failure(() => resolveBaseUrl({ environment: 'custom', baseUrl: 'ftp://x.example/v1' }))).message,
    ).toMatch(/https/)
    expect(
      (await failure(() => resolveBaseUrl({ environment: 'custom', baseUrl: 'api.example.com/v1' }))).message,
    ).toMatch(/not a valid URL/)
    expect((await failure(() => resolveBaseUrl({ environment: 'custom', baseUrl: '' }))).message).toMatch(
      /needs a base URL/,
    )
    const e = await failure(() =>
      resolveBaseUrl({ environment: 'custom', baseUrl: 'https://user:hunter2pass@x.example/v1' }),
    )
    expect(e.message).not.toContain('hunter2pass')
    expect(e.message).toMatch(/user name or password/)
  })

  it('knows the loopback hosts', () => {
    expect(isLoopbackHost('localhost')).toBe(true)
    expect(isLoopbackHost('127.0.0.1')).toBe(true)
    expect(isLoopbackHost('[::1]')).toBe(true)
    expect(isLoopbackHost(new URL('http://[::ffff:127.0.0.1]/').hostname)).toBe(true)
    expect(isLoopbackHost('127.0.0.1.nip.io')).toBe(false)
    expect(isLoopbackHost('example.com')).toBe(false)
  })

  it('paths are appended to the base, which already ends in /v1', async () => {
    server.reply = () => ok({ business_uuid: 'b1', name: 'B', currency: 'NGN', country: 'NG' })
    await client().validateKey()
    expect(server.seen[0]?.url).toBe('/v1/auth/validate')
  })
})

// ---------------------------------------------------------------------------------------------
// Keys and routes
// ---------------------------------------------------------------------------------------------

describe('key kinds', () => {
  it('refuses a public key, telling to use the secret key', async () => {
    const e = await failure(() => client({ key: 'svc_pk_public_0123' }))
    expect(e.errorCode).toBe('wrong_key_type')
    expect(e.message).toBe(PUBLIC_KEY_MESSAGE)
    expect(e.message).toMatch(/secret key \(svc_sk_/)
    expect(
      (await failure(() => client({ mode: 'oauth', appKey: 'svc_pk_x', accessToken: 't' }))).message,
    ).toBe(PUBLIC_KEY_MESSAGE)
  })

  it('refuses a missing key, and a key that cannot go in a header, without echoing it', async () => {
    expect((await failure(() => client({ key: '  ' }))).errorCode).toBe('invalid_api_key')
    const e = await failure(() => client({ key: 'svc_sk_with space_5ecret' }))
    expect(e.errorCode).toBe('invalid_api_key')
    expect(e.message).not.toContain('5ecret')
  })

  it('refuses a key whose prefix contradicts the declared mode', async () => {
    expect((await failure(() => client({ mode: 'business', key: PARTNER_KEY }))).errorCode).toBe(
      'wrong_key_type',
    )
    expect((await failure(() => client({ mode: 'partner', key: BUSINESS_KEY }))).errorCode).toBe(
      'wrong_key_type',
    )
    expect(
      (await failure(() => client({ mode: 'oauth', appKey: PARTNER_KEY, accessToken: 't' }))).errorCode,
    ).toBe('wrong_key_type')
  })

  it('needs a mode for a key of another form, and then uses it', async () => {
    expect((await failure(() => client({ key: 'dist_key_0123' }))).message).toMatch(/auth\.mode/)
    expect(client({ mode: 'partner', key: 'dist_key_0123' }).authMode).toBe('partner')
  })

  it('sends a pasted key trimmed, in X-API-Key, without Authorization', async () => {
    server.reply = () => ok({ business_uuid: 'b1', name: 'B', currency: 'NGN', country: 'NG' })
    await client({ key: `  ${BUSINESS_KEY}\n` }).validateKey()
    expect(server.seen[0]?.headers['x-api-key']).toBe(BUSINESS_KEY)
    expect(server.seen[0]?.headers.authorization).toBeUndefined()
  })

  it('OAuth sends the app key in X-API-Key and the token as a Bearer', async () => {
    server.reply = () => ok({ business_uuid: 'b1', name: 'B', currency: 'NGN', country: 'NG' })
    expect(await oauth().validateKey()).toEqual({
      business_uuid: 'b1',
      name: 'B',
      currency: 'NGN',
      country: 'NG',
    })
    expect(server.seen[0]?.headers['x-api-key']).toBe(BUSINESS_KEY)
    expect(server.seen[0]?.headers.authorization).toBe(`Bearer ${OAUTH_TOKEN}`)
  })

  it('never sends a partner key to a business route', async () => {
    const p = partner()
    const calls: Array<() => Promise<unknown>> = [
      () => p.validateKey(),
      () => p.list('invoices'),
      () => p.get('expenses', 'x'),
      () => p.getInvoice('i1'),
      () => p.getJob('j1'),
      () => p.createPurchaseOrder(goodPo),
      () => p.aiCreate('expenses', { prompt: 'p' }),
      () => p.aiCreateFromFiles('bills', { prompt: 'p', files: [{ path: '/nonexistent/file.pdf' }] }),
      () => p.patchExpense('x', { narration: 'n' }),
      () => p.patchBill('x', { narration: 'n' }),
      () => p.putBill('x', { narration: 'n', date: '2026-01-01' }),
      () => p.deleteBankTransaction('t1'),
    ]
    for (const call of calls) {
      const e = await failure(call)
      expect(e.errorCode).toBe('wrong_key_type')
      expect(e.status).toBe(0)
      expect(e.retryable).toBe(false)
      expect(e.message).toMatch(/business's secret key \(svc_sk_/)
    }
    expect(server.seen).toHaveLength(0)
  })

  it('never sends a business or OAuth key to a partner route', async () => {
    for (const c of [client(), oauth()]) {
      const calls: Array<() => Promise<unknown>> = [
        () =>
          c.registerBusiness({
            email: 'a@b.co',
            firstname: 'A',
            lastname: 'B',
            business_name: 'C',
            password: 'abc123!xyz',
            country: 'NG',
            currency: 'NGN',
            timezone: 'Africa/Lagos',
            grant_access: 'admin',
          }),
        () => c.listReferredBusinesses({ page: 1, limit: 10 }),
        () => c.billingStatus('b1'),
        () => c.addSeats('b1', { seats: 1, months: 1 }),
        () => c.addCredits('b1', { credits: 10 }),
      ]
      for (const call of calls) {
        const e = await failure(call)
        expect(e.errorCode).toBe('wrong_key_type')
        expect(e.message).toMatch(/partner secret key/)
      }
    }
    expect(server.seen).toHaveLength(0)
  })
})

// ---------------------------------------------------------------------------------------------
// Requests checked before sending
// ---------------------------------------------------------------------------------------------

describe('requests are checked before they leave the machine', () => {
  it('a purchase order without items is refused, naming the field', async () => {
    const e = await failure(client().createPurchaseOrder({ date: '2026-01-05', items: [] }))
    expect(e.errorCode).toBe('validation_error')
    expect(e.status).toBe(0)
    expect(e.retryable).toBe(false)
    expect(e.message).toMatch(/^The purchase order was not sent: items: items must have at least 1 line item/)
    expect(e.fields).toHaveProperty('items')
    expect(server.seen).toHaveLength(0)
  })

  it('names nested fields and every problem', async () => {
    const po = {
      date: '2026-02-30',
      items: [{ item_name: 'Flour', quantity: -1, selling_price: 5 }],
    } as PurchaseOrderInput
    const e = await failure(client().createPurchaseOrder(po))
    expect(e.message).toContain('date: must be a real calendar date')
    expect(e.message).toContain('items.0.quantity: quantity must be greater than 0')
    expect(e.fields).toMatchObject({ date: expect.any(String), 'items.0.quantity': expect.any(String) })
    expect(server.seen).toHaveLength(0)
  })

  it('checks AI creates, with the stricter rules of the bank statement upload', async () => {
    const c = client()
    expect((await failure(c.aiCreate('expenses', { prompt: '  ' }))).message).toContain(
      'prompt: prompt must not be empty',
    )
    expect(
      (
        await failure(
          c.aiCreate('expenses', {
            prompt: 'p',
            attachments: [{ file: 'data:x;base64,AAAA', type: 'base64' }],
          }),
        )
      ).message,
    ).toContain('attachments.0.file')
    const bank = await failure(
      c.aiCreate('bank-transactions', {
        prompt: 'January',
        attachments: [{ file: 'AAAA', type: 'base64', name: 'notes.txt' }],
      }),
    )
    expect(bank.message).toContain('attachments.0.name: "notes.txt" is not an accepted statement file')
    // @ts-expect-error: prompt is required
    expect((await failure(c.aiCreate('bank-transactions', {}))).message).toContain(
      'prompt is required on a bank statement upload',
    )
    // @ts-expect-error: not an AI create target
    expect((await failure(c.aiCreate('purchase-orders', { prompt: 'p' }))).message).toMatch(
      /Unknown AI create target/,
    )
    expect(server.seen).toHaveLength(0)
  })

  it('checks partner bodies, lists, updates and identifiers', async () => {
    const c = client()
    const p = partner()
    expect((await failure(p.addSeats('b1', { seats: 0, months: 1 }))).message).toContain(
      'seats: seats must be 1 or more',
    )
    expect((await failure(p.addCredits('b1', { credits: -5 }))).message).toContain(
      'credits: credits must be greater than 0',
    )
    expect((await failure(p.listReferredBusinesses({ page: 1, limit: 500 }))).message).toContain(
      'limit: limit must be 100 or less',
    )
    const reg = await failure(
      p.registerBusiness({
        email: 'not-an-email',
        firstname: 'A',
        lastname: 'B',
        business_name: 'C',
        password: 'password',
        country: 'NG',
        currency: 'NGN',
        timezone: 'Africa/Lagos',
        grant_access: 'admin',
      }),
    )
    expect(reg.message).toContain('email: email must be a valid email address')
    expect(reg.message).toContain('password: password needs a number, a special character')
    expect(reg.message).not.toContain('password: password needs a letter')
    expect((await failure(c.list('invoices', { page: 0 }))).message).toContain('page: page must be 1 or more')
    expect((await failure(c.patchExpense('e1', {}))).message).toContain('send at least one field to change')
    const withUnknownField = { narration: 'n', date: '2026-01-01', colour: 'red' }
    expect((await failure(c.putBill('b1', withUnknownField))).message).toContain('colour')
    expect((await failure(c.getInvoice(''))).message).toContain('uuid must not be empty')
    expect((await failure(p.billingStatus(' '))).message).toContain('business_uuid must not be empty')
    // @ts-expect-error: not a list resource
    expect((await failure(c.list('accounts'))).message).toMatch(/Unknown resource "accounts"/)
    expect(server.seen).toHaveLength(0)
  })
})

// ---------------------------------------------------------------------------------------------
// What goes over the wire
// ---------------------------------------------------------------------------------------------

describe('what is sent', () => {
  it('sends the purchase order under canonical names, to the route or its alias', async () => {
    server.reply = () => ok(poData)
    const c = client()
    expect(await c.createPurchaseOrder(goodPo)).toEqual(poData)
    await c.createPurchaseOrder(goodPo, { alias: true })
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST /v1/purchase-orders',
      'POST /v1/create/purchase_order',
    ])
    const body = JSON.parse(server.seen[0]!.body.toString()) as Record<string, unknown>
    expect(body).toEqual({
      date: '2026-01-05',
      customer: 'Flour Mills',
      items: [{ item_name: 'Flour 50kg', quantity: 2, selling_price: 25_000 }],
    })
    expect(server.seen[0]?.headers['content-type']).toBe('application/json')
  })

  it('sends an Idempotency-Key on every create: a fresh UUID, or the one given; none on reads', async () => {
    server.reply = (s) =>
      s.method === 'DELETE'
        ? { body: { status: 'success', message: 'Deleted' } }
        : s.url.startsWith('/v1/purchase')
          ? ok(poData)
          : ok({ uuid: 'x', narration: 'n' })
    const c = client()
    await c.createPurchaseOrder(goodPo)
    await c.createPurchaseOrder(goodPo)
    await c.createPurchaseOrder(goodPo, { idempotencyKey: 'queue-row-42' })
    await c.patchExpense('e1', { narration: 'n' })
    await c.patchBill('b1', { memo: 'm' })
    await c.putBill('b1', { narration: 'n', date: '2026-01-01' })
    await c.deleteBankTransaction('t1')
    const keys = server.seen.map((s) => s.headers['idempotency-key'])
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    expect(keys[0]).toMatch(uuid)
    expect(keys[1]).toMatch(uuid)
    expect(keys[0]).not.toBe(keys[1])
    expect(keys[2]).toBe('queue-row-42')
    for (const k of keys.slice(3)) expect(k).toMatch(uuid)
    expect(server.seen.map((s) => `${s.method} ${s.url}`).slice(3)).toEqual([
      'PATCH /v1/expenses/e1',
      'PATCH /v1/bills/b1',
      'PUT /v1/bills/b1',
      'DELETE /v1/bank-transactions/t1',
    ])

    server.seen = []
    server.reply = () => ok([], { page: 1, limit: 20, total: 0 })
    await c.list('expenses')
    expect(server.seen[0]?.headers['idempotency-key']).toBeUndefined()
    expect((await failure(c.createPurchaseOrder(goodPo, { idempotencyKey: 'has space' }))).errorCode).toBe(
      'invalid_option',
    )
  })

  it('reports the idempotency key used on a failed create so a retry can reuse it', async () => {
    server.reply = () => ({ status: 503, body: { status: 'failed', message: 'busy' } })
    const e = await failure(client().createPurchaseOrder(goodPo))
    expect(e.idempotencyKey).toBe(server.seen[0]?.headers['idempotency-key'])
    expect(e.retryable).toBe(true)
  })

  it('sends list queries with their defaults, and encodes identifiers', async () => {
    server.reply = (s) =>
      s.url.includes('invoices/')
        ? { status: 404, body: { status: 'failed', message: 'Invoice not found', error_code: 'not_found' } }
        : ok([record], { page: 2, limit: 5, total: 6, from: 'x' })
    const c = client()
    const page = await c.list('expenses', { page: 2, limit: 5, search: 'diesel & oil' })
    expect(page).toEqual({ data: [record], meta: { page: 2, limit: 5, total: 6 } })
    const url = new URL(server.seen[0]!.url, server.origin)
    expect(url.pathname).toBe('/v1/expenses')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      page: '2',
      limit: '5',
      date_order: 'desc',
      search: 'diesel & oil',
    })
    await c.list('bank-transactions').catch(() => undefined)
    expect(new URL(server.seen[1]!.url, server.origin).search).toBe('?page=1&limit=20&date_order=desc')
    const e = await failure(c.getInvoice('INV/10 01'))
    expect(server.seen[2]?.url).toBe('/v1/invoices/INV%2F10%2001')
    expect(e).toMatchObject({
      status: 404,
      errorCode: 'not_found',
      message: 'Invoice not found',
      retryable: false,
    })
  })

  it('calls each partner route with its path', async () => {
    const p = partner()
    server.reply = () => ok({ current_page: 1, data: [], per_page: 10, total: 0 })
    expect(await p.listReferredBusinesses({ page: 1, limit: 10 })).toEqual({
      current_page: 1,
      data: [],
      per_page: 10,
      total: 0,
    })
    server.reply = () => ok({ credits_granted: 10, partner_holding_balance: 90, credit_balance: 10 })
    expect(await p.addCredits('biz 1', { credits: 10 })).toEqual({
      credits_granted: 10,
      partner_holding_balance: 90,
      credit_balance: 10,
    })
    expect(server.seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /v1/referred-businesses?page=1&limit=10',
      'POST /v1/referred-businesses/biz%201/add-credits',
    ])
    expect(JSON.parse(server.seen[1]!.body.toString())).toEqual({ credits: 10 })
    expect(server.seen[1]?.headers['x-api-key']).toBe(PARTNER_KEY)
  })
})

// ---------------------------------------------------------------------------------------------
// Responses and errors
// ---------------------------------------------------------------------------------------------
