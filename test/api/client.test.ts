/**
 * Unit tests of the API client that need no emulator: header parsing, base URL rules, local refusals
 * (bad requests, wrong key kinds), what goes over the wire (seen by a tiny node:http server), error
 * mapping, secrets never leaking, and the streamed file body.
 */
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, openSync, ftruncateSync, closeSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  ApiError,
  BookkeepingClient,
  DEFAULT_MAX_FILE_BYTES,
  base64Chunks,
  base64Length,
  headerValue,
  isLoopbackHost,
  parseRateLimit,
  parseRetryAfter,
  resolveBaseUrl,
  retryAfterMs,
  streamedJsonBody,
  type ClientAuth,
  type ResponseInfo,
} from '../../src-main/core/api'
import { FileBodyError } from '../../src-main/core/api/stream-body'
import {
  ENVIRONMENT_BASE_URLS,
  EPOCH_THRESHOLD_SECONDS,
  PUBLIC_KEY_MESSAGE,
  type PurchaseOrderInput,
} from '../../schemas'

const BUSINESS_KEY = 'svc_sk_unit_business_5ecret_0123456789'
const PARTNER_KEY = 'svc_partner_sk_unit_partner_5ecret_987'
const OAUTH_TOKEN = 'oauth_access_token_5ecret_abcdef'

// ---------------------------------------------------------------------------------------------
// A tiny HTTP server that records what the client sent and answers what the test says
// ---------------------------------------------------------------------------------------------

interface Seen {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: Buffer
  bodyBytes: number
}

interface Reply {
  status?: number
  headers?: Record<string, string>
  body?: unknown
  /** Sent as is (not JSON-encoded). */
  raw?: string
  /** Never answer (timeouts). */
  hang?: boolean
}

const server = {
  http: undefined as Server | undefined,
  origin: '',
  seen: [] as Seen[],
  keepBodies: true,
  onBody: undefined as ((chunk: Buffer) => void) | undefined,
  reply: (_req: Seen): Reply => ({ body: { status: 'success', message: 'ok', data: {} } }),
  get url(): string {
    return `${this.origin}/v1`
  },
}

beforeAll(async () => {
  server.http = createServer((req, res) => {
    const chunks: Buffer[] = []
    let bodyBytes = 0
    req.on('data', (c: Buffer) => {
      bodyBytes += c.length
      server.onBody?.(c)
      if (server.keepBodies) chunks.push(c)
    })
    req.on('end', () => {
      const seen: Seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
        bodyBytes,
      }
      server.seen.push(seen)
      const r = server.reply(seen)
      if (r.hang) return
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...r.headers })
      res.end(r.raw ?? (r.body === undefined ? '' : JSON.stringify(r.body)))
    })
  })
  await new Promise<void>((resolve) => server.http!.listen(0, '127.0.0.1', resolve))
  server.origin = `http://127.0.0.1:${(server.http.address() as AddressInfo).port}`
})

afterAll(async () => {
  server.http?.closeAllConnections()
  await new Promise<void>((resolve) => server.http!.close(() => resolve()))
})

afterEach(() => {
  server.seen = []
  server.keepBodies = true
  server.onBody = undefined
  server.reply = () => ({ body: { status: 'success', message: 'ok', data: {} } })
})

function client(
  auth: ClientAuth = { key: BUSINESS_KEY },
  extra: Partial<{ timeoutMs: number; maxFileBytes: number; onResponse: (i: ResponseInfo) => void }> = {},
) {
  return new BookkeepingClient({ environment: 'custom', baseUrl: server.url, auth, ...extra })
}

const partner = () => client({ key: PARTNER_KEY })
const oauth = () => client({ mode: 'oauth', appKey: BUSINESS_KEY, accessToken: OAUTH_TOKEN })

/** The ApiError a promise (or a function) rejects with; fails the test if it resolves. */
async function failure(p: Promise<unknown> | (() => unknown)): Promise<ApiError> {
  try {
    await (typeof p === 'function' ? p() : p)
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError)
    return e as ApiError
  }
  throw new Error('expected an ApiError, but the call succeeded')
}

function ok(data: unknown, meta?: Record<string, unknown>): Reply {
  return { body: { status: 'success', message: 'ok', data, ...(meta ? { meta } : {}) } }
}

const goodPo: PurchaseOrderInput = {
  date: '2026-01-05',
  vendor: 'Flour Mills',
  items: [{ name: 'Flour 50kg', quantity: 2, price: 25_000 }],
}

const poData = {
  uuid: 'po1',
  transaction_type: 'purchase_order',
  status: 'draft',
  document_number: 'PO-00001',
  narration: '',
  amount: 50_000,
  currency: 'NGN',
}

const record = {
  uuid: 'r1',
  source_uuid: null,
  resource_type: 'expense',
  date: '2026-01-05',
  narration: 'Diesel',
  amount: 12.5,
  currency: 'NGN',
  contact: null,
  memo: null,
  attachment_name: 'r.pdf',
  status: 'posted',
  created_at: '2026-01-05T10:00:00Z',
  updated_at: '2026-01-05T10:00:00Z',
}

// ---------------------------------------------------------------------------------------------
// Rate-limit and retry headers
// ---------------------------------------------------------------------------------------------

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

describe('responses', () => {
  it('tells an async job from a direct record', async () => {
    const c = client()
    server.reply = () => ok({ process_type: 'async', job_reference: 'job_1' })
    expect(await c.aiCreate('expenses', { prompt: 'p' })).toEqual({
      process_type: 'async',
      job_reference: 'job_1',
    })
    server.reply = () => ok(record)
    expect(await c.aiCreate('expenses', { prompt: 'p', process_type: 'direct' })).toEqual({
      process_type: 'direct',
      record,
    })
    expect(server.seen[1]?.url).toBe('/v1/expenses')
  })

  it('an accepted create that names no job and no record is untracked, not a failure (no second create)', async () => {
    server.reply = () => ok({ process_type: 'async' })
    expect(await client().aiCreate('bills', { prompt: 'p' })).toEqual({ process_type: 'untracked' })
    server.reply = () => ok({ job: { reference: 'job_9' } })
    expect(await client().aiCreate('bills', { prompt: 'p' })).toEqual({
      process_type: 'async',
      job_reference: 'job_9',
    })
    server.reply = () => ok({ result: { id: 77, narration: 'Flour' } })
    expect(await client().aiCreate('bills', { prompt: 'p', process_type: 'direct' })).toMatchObject({
      process_type: 'direct',
      record: { uuid: '77', narration: 'Flour', amount: null },
    })
  })

  it('only what the spec leaves no doubt about fails: a record without its uuid, list data that is no list', async () => {
    server.reply = () => ok([{ amount: 1 }], { page: 1, limit: 20, total: 1 })
    const noId = await failure(client().list('bank-transactions'))
    expect(noId).toMatchObject({ status: 200, errorCode: 'bad_response', retryable: false })
    expect(noId.message).toMatch(/data\.0\.uuid/)
    server.reply = () => ok({ rows: [] })
    expect((await failure(client().list('bank-transactions'))).message).toMatch(/data: must be a list/)
    server.reply = () => ({ raw: '<html>ok</html>' })
    expect((await failure(client().validateKey())).errorCode).toBe('bad_response')
  })

  it('a failure carries the server message, code, rate limit and retry hint', async () => {
    server.reply = () => ({
      status: 429,
      headers: { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '30' },
      body: { status: 'failed', message: 'Too many requests', error_code: 'rate_limited' },
    })
    const before = Date.now()
    const e = await failure(client().validateKey())
    expect(e).toMatchObject({
      status: 429,
      errorCode: 'rate_limited',
      message: 'Too many requests',
      retryable: true,
    })
    expect(e.rateLimit).toMatchObject({ limit: 600, remaining: 0 })
    expect(e.rateLimit!.resetAt).toBeGreaterThanOrEqual(before + 30_000)
    expect(e.retryAfterMs).toBeGreaterThan(29_000)
    expect(e.retryAfterMs).toBeLessThanOrEqual(30_000)
  })

  it('uses Retry-After as an HTTP date, and is retryable on 5xx even without a JSON body', async () => {
    server.reply = () => ({
      status: 503,
      headers: { 'retry-after': new Date(Date.now() + 20_000).toUTCString() },
      raw: '<h1>down</h1>',
    })
    const e = await failure(client().validateKey())
    expect(e).toMatchObject({ status: 503, errorCode: 'http_503', retryable: true })
    expect(e.message).toMatch(/503/)
    expect(e.retryAfterMs).toBeGreaterThan(15_000)
    expect(e.retryAfterMs).toBeLessThanOrEqual(20_000)
  })

  it('a 4xx failure is not retryable and keeps the server error code', async () => {
    server.reply = () => ({
      status: 400,
      body: {
        status: 'failed',
        message: 'Insufficient partner credit holding',
        error_code: 'insufficient_partner_credit_holding',
      },
    })
    const e = await failure(partner().addSeats('b1', { seats: 1, months: 1 }))
    expect(e).toMatchObject({
      status: 400,
      errorCode: 'insufficient_partner_credit_holding',
      message: 'Insufficient partner credit holding',
      retryable: false,
    })
  })

  it('delete resolves with the message of an envelope without data', async () => {
    server.reply = () => ({ body: { status: 'success', message: 'Bank transaction deleted' } })
    expect(await client().deleteBankTransaction('t1')).toEqual({ message: 'Bank transaction deleted' })
  })

  it('does not follow redirects, so the key never goes elsewhere', async () => {
    server.reply = (s) =>
      s.url.startsWith('/elsewhere')
        ? ok({})
        : { status: 302, headers: { location: `${server.origin}/elsewhere` } }
    const e = await failure(client().validateKey())
    expect(e).toMatchObject({ status: 302, errorCode: 'redirect_refused', retryable: false })
    expect(server.seen.map((s) => s.url)).toEqual(['/v1/auth/validate'])
    const dir = mkdtempSync(join(tmpdir(), 'bookdrop-redirect-'))
    try {
      writeFileSync(join(dir, 'r.pdf'), 'receipt')
      const up = await failure(
        client().aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: join(dir, 'r.pdf') }] }),
      )
      expect(up).toMatchObject({ errorCode: 'redirect_refused', retryable: false })
      expect(server.seen.map((s) => s.url)).toEqual(['/v1/auth/validate', '/v1/expenses'])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a refused connection is a retryable network error with status 0', async () => {
    const tmp = createServer()
    await new Promise<void>((r) => tmp.listen(0, '127.0.0.1', r))
    const port = (tmp.address() as AddressInfo).port
    await new Promise<void>((r) => tmp.close(() => r()))
    const c = new BookkeepingClient({
      environment: 'custom',
      baseUrl: `http://127.0.0.1:${port}/v1`,
      auth: { key: BUSINESS_KEY },
    })
    const e = await failure(c.validateKey())
    expect(e).toMatchObject({ status: 0, errorCode: 'network_error', retryable: true })
    expect(e.message).toContain('ECONNREFUSED')
  })

  it('times out, and tells a timeout from a cancel', async () => {
    server.reply = () => ({ hang: true })
    const e = await failure(client({ key: BUSINESS_KEY }, { timeoutMs: 150 }).validateKey())
    expect(e).toMatchObject({ status: 0, errorCode: 'timeout', retryable: true })
    expect(e.message).toMatch(/0\.15 s/)
    const ac = new AbortController()
    setTimeout(() => ac.abort(), 50)
    const a = await failure(client().validateKey({ signal: ac.signal }))
    expect(a).toMatchObject({ status: 0, errorCode: 'aborted', retryable: false })
    expect((await failure(client().validateKey({ timeoutMs: 0 }))).errorCode).toBe('invalid_option')
  })

  it('onResponse sees method, path, status and rate limit of every response; its errors are ignored', async () => {
    const seen: ResponseInfo[] = []
    const c = client(
      { key: BUSINESS_KEY },
      {
        onResponse: (i) => {
          seen.push(i)
          throw new Error('observer bug')
        },
      },
    )
    server.reply = () => ({
      headers: { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': '598', 'x-ratelimit-reset': '60' },
      ...ok({ business_uuid: 'b1', name: 'B', currency: 'NGN', country: 'NG' }),
    })
    await c.validateKey()
    server.reply = () => ({ status: 404, body: { status: 'failed', message: 'nope' } })
    await failure(c.getJob('job 1'))
    await failure(c.createPurchaseOrder({ date: 'x', items: [] } as unknown as PurchaseOrderInput))
    expect(seen).toHaveLength(2)
    expect(seen[0]).toMatchObject({
      method: 'GET',
      path: '/auth/validate',
      status: 200,
      rateLimit: { limit: 600, remaining: 598 },
    })
    expect(seen[1]).toEqual({ method: 'GET', path: '/jobs/job%201', status: 404, rateLimit: undefined })
    expect(JSON.stringify(seen)).not.toContain(BUSINESS_KEY)
  })
})

// ---------------------------------------------------------------------------------------------
// Secrets never leak
// ---------------------------------------------------------------------------------------------

describe('the key never leaks', () => {
  function expectClean(text: string) {
    expect(text).not.toContain(BUSINESS_KEY)
    expect(text).not.toContain(PARTNER_KEY)
    expect(text).not.toContain(OAUTH_TOKEN)
    expect(text).not.toContain('5ecret')
  }

  it('not in JSON, toString or inspect of the client', () => {
    for (const c of [client(), partner(), oauth()]) {
      expectClean(JSON.stringify(c))
      expectClean(String(c))
      expectClean(inspect(c, { showHidden: true, depth: 10, getters: true }))
      expectClean(
        JSON.stringify(
          Object.getOwnPropertyNames(c).map((k) => (c as unknown as Record<string, unknown>)[k]),
        ),
      )
    }
    expect(JSON.parse(JSON.stringify(oauth()))).toEqual({
      environment: 'custom',
      baseUrl: server.url,
      authMode: 'oauth',
      timeoutMs: 60_000,
    })
  })

  it('not in errors, even when the server echoes it back', async () => {
    server.reply = (s) => ({
      status: 401,
      body: {
        status: 'failed',
        message: `Invalid key ${String(s.headers['x-api-key'])} with ${String(s.headers.authorization)}`,
        error_code: 'invalid_api_key',
      },
    })
    const errors: ApiError[] = [await failure(client().validateKey()), await failure(oauth().validateKey())]
    errors.push(await failure(partner().validateKey()))
    errors.push(await failure(client().createPurchaseOrder({ date: '2026-01-05', items: [] })))
    errors.push(await failure(() => client({ key: 'svc_sk_with space_5ecret' })))
    const c2 = new BookkeepingClient({
      environment: 'custom',
      baseUrl: 'http://127.0.0.1:1/v1',
      auth: { key: BUSINESS_KEY },
    })
    errors.push(await failure(c2.validateKey()))
    expect(errors[0]?.message).toBe('Invalid key [redacted] with undefined')
    expect(errors[1]?.message).toBe('Invalid key [redacted] with Bearer [redacted]')
    for (const e of errors) {
      expectClean(e.message)
      expectClean(String(e))
      expectClean(e.stack ?? '')
      expectClean(JSON.stringify(e))
      expectClean(inspect(e, { showHidden: true, depth: 10 }))
    }
  })
})

// ---------------------------------------------------------------------------------------------
// Streamed Base64 body
// ---------------------------------------------------------------------------------------------

async function* chunked(bytes: Buffer, size: number): AsyncGenerator<Buffer> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size)
}

async function collect(it: AsyncIterable<Uint8Array> | ReadableStream<Uint8Array>): Promise<Buffer> {
  if (it instanceof ReadableStream) return Buffer.from(await new Response(it).arrayBuffer())
  const out: Buffer[] = []
  for await (const c of it) out.push(Buffer.from(c))
  return Buffer.concat(out)
}

describe('streamed Base64', () => {
  it.each([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10])(
    'equals Buffer.toString("base64") for %i bytes, however it is chunked',
    async (n) => {
      const bytes = randomBytes(n)
      for (const size of [1, 2, 3, 4, 5, 7, 64]) {
        const out = (await collect(base64Chunks(chunked(bytes, size)))).toString('ascii')
        expect(out).toBe(bytes.toString('base64'))
        expect(out.length).toBe(base64Length(n))
      }
    },
  )

  it('carries leftovers across many chunks (1 MB in 65 537-byte reads)', async () => {
    const bytes = randomBytes(1024 * 1024 + 5)
    const out = await collect(base64Chunks(chunked(bytes, 65_537)))
    expect(out.toString('ascii')).toBe(bytes.toString('base64'))
  })
})

describe('streamed JSON body and aiCreateFromFiles', () => {
  let dir: string
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bookdrop-client-'))
  })
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  function file(name: string, bytes: Buffer): string {
    const p = join(dir, name)
    writeFileSync(p, bytes)
    return p
  }

  it('builds exactly Content-Length bytes of valid JSON, with any chunk size and non-ASCII text', async () => {
    const a = randomBytes(10)
    const b = randomBytes(1000)
    const files = [
      { path: file('a.bin', a), name: 'reçu "€".pdf', size: 10 },
      { path: file('b.bin', b), name: 'b.png', size: 1000 },
    ]
    for (const chunk of [1, 2, 3, 5, 64 * 1024]) {
      const body = streamedJsonBody(
        { prompt: 'Dépenses 🧾', process_type: 'async', text_attachment: undefined },
        files,
        chunk,
      )
      const bytes = await collect(body.stream)
      expect(bytes.length).toBe(body.contentLength)
      expect(JSON.parse(bytes.toString('utf8'))).toEqual({
        prompt: 'Dépenses 🧾',
        process_type: 'async',
        attachments: [
          { type: 'base64', name: 'reçu "€".pdf', file: a.toString('base64') },
          { type: 'base64', name: 'b.png', file: b.toString('base64') },
        ],
      })
    }
    const none = streamedJsonBody({}, [])
    const empty = await collect(none.stream)
    expect(JSON.parse(empty.toString())).toEqual({ attachments: [] })
    expect(empty.length).toBe(none.contentLength)
  })

  it('fails the stream, rather than send a wrong length, when a file changed size', async () => {
    const p = file('changing.bin', randomBytes(100))
    for (const size of [99, 101]) {
      const body = streamedJsonBody({ prompt: 'p' }, [{ path: p, name: 'c.pdf', size }], 16)
      await expect(collect(body.stream)).rejects.toBeInstanceOf(FileBodyError)
      expect(body.failure()?.kind).toBe('changed')
      expect(body.failure()?.message).toMatch(/changed while it was being uploaded/)
    }
  })

  it.each([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])(
    'uploads a %i-byte file as exact Base64 with a precise Content-Length',
    async (n) => {
      const bytes = randomBytes(n)
      const path = file(`f${n}.pdf`, bytes)
      server.reply = () => ok({ process_type: 'async', job_reference: `job_${n}` })
      const res = await client().aiCreateFromFiles('bank-transactions', {
        prompt: 'Statement for January',
        files: [{ path, name: `statement-${n}.pdf` }],
      })
      expect(res).toEqual({ process_type: 'async', job_reference: `job_${n}` })
      const seen = server.seen[0]!
      expect(seen.method).toBe('POST')
      expect(seen.url).toBe('/v1/bank-transactions/upload')
      expect(seen.headers['content-length']).toBe(String(seen.body.length))
      expect(seen.headers['transfer-encoding']).toBeUndefined()
      expect(seen.headers['content-type']).toBe('application/json')
      expect(seen.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/)
      expect(JSON.parse(seen.body.toString())).toEqual({
        prompt: 'Statement for January',
        attachments: [{ type: 'base64', name: `statement-${n}.pdf`, file: bytes.toString('base64') }],
      })
    },
  )

  it('uploads several multi-chunk files, names defaulting to the file name', async () => {
    const big = randomBytes(200_001)
    const small = randomBytes(65_536)
    const p1 = file('receipt-big.jpg', big)
    const p2 = file('receipt-small.png', small)
    server.reply = () => ok(record)
    const res = await client().aiCreateFromFiles(
      'expenses',
      {
        prompt: 'Fuel receipts',
        text_attachment: 'paid cash',
        process_type: 'direct',
        files: [{ path: p1 }, { path: p2, name: 'custom.png' }],
      },
      { idempotencyKey: 'row-7' },
    )
    expect(res).toEqual({ process_type: 'direct', record })
    const seen = server.seen[0]!
    expect(seen.headers['idempotency-key']).toBe('row-7')
    expect(Number(seen.headers['content-length'])).toBe(seen.body.length)
    expect(JSON.parse(seen.body.toString())).toEqual({
      prompt: 'Fuel receipts',
      text_attachment: 'paid cash',
      process_type: 'direct',
      attachments: [
        { type: 'base64', name: 'receipt-big.jpg', file: big.toString('base64') },
        { type: 'base64', name: 'custom.png', file: small.toString('base64') },
      ],
    })
  })

  it('streams a 100 MB file without holding it in memory', async () => {
    const size = 100 * 1024 * 1024
    const p = join(dir, 'huge.pdf')
    const fd = openSync(p, 'w')
    ftruncateSync(fd, size) // sparse: 100 MB of zero bytes, instant to create
    closeSync(fd)

    // Live Buffer memory, measured after a full collection so garbage does not count.
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const live = () => {
      gc()
      return process.memoryUsage().arrayBuffers
    }

    server.keepBodies = false
    let received = 0
    let nextSample = 0
    let peakLive = 0
    let head = ''
    server.onBody = (chunk) => {
      if (head.length < 200) head += chunk.toString('latin1')
      received += chunk.length
      if (received >= nextSample) {
        nextSample += 8 * 1024 * 1024
        peakLive = Math.max(peakLive, live())
      }
    }
    server.reply = () => ok({ process_type: 'async', job_reference: 'job_huge' })
    const baseline = live()

    const c = client({ key: BUSINESS_KEY }, { maxFileBytes: 200 * 1024 * 1024 })
    const res = await c.aiCreateFromFiles('bills', { prompt: 'Big scan', files: [{ path: p }] })

    expect(res).toEqual({ process_type: 'async', job_reference: 'job_huge' })
    const seen = server.seen[0]!
    expect(seen.headers['transfer-encoding']).toBeUndefined()
    expect(Number(seen.headers['content-length'])).toBe(received)
    expect(received).toBe(
      Buffer.byteLength(
        '{"prompt":"Big scan","attachments":[{"type":"base64","name":"huge.pdf","file":""}]}',
      ) + base64Length(size),
    )
    expect(
      head.startsWith('{"prompt":"Big scan","attachments":[{"type":"base64","name":"huge.pdf","file":"AAAA'),
    ).toBe(true)
    // The Base64 alone is 133 MB and the file 100 MB: holding either would show here. What is live
    // is a few read chunks plus socket buffers on both ends (server and client share this process).
    expect(peakLive - baseline).toBeLessThan(48 * 1024 * 1024)
  }, 60_000)

  it('refuses missing files, folders, empty files and files over the limit, sending nothing', async () => {
    const c = client({ key: BUSINESS_KEY }, { maxFileBytes: 10 })
    const missing = await failure(
      c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: join(dir, 'nope.pdf') }] }),
    )
    expect(missing).toMatchObject({ status: 0, errorCode: 'file_not_found', retryable: false })
    expect(missing.message).toContain('nope.pdf')

    mkdirSync(join(dir, 'folder.pdf'))
    expect(
      (
        await failure(
          c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: join(dir, 'folder.pdf') }] }),
        )
      ).errorCode,
    ).toBe('not_a_file')

    const big = file('eleven.pdf', randomBytes(11))
    const tooBig = await failure(c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: big }] }))
    expect(tooBig.errorCode).toBe('file_too_large')
    expect(tooBig.message).toMatch(/over the .* limit/)
    expect(tooBig.message).toContain('maxFileBytes')
    // The per-call option raises the limit.
    server.reply = () => ok({ process_type: 'async', job_reference: 'j' })
    await c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: big }] }, { maxFileBytes: 11 })
    expect(server.seen).toHaveLength(1)
    server.seen = []

    const defaultLimit = await failure(
      client().aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: big }] }, { maxFileBytes: 5 }),
    )
    expect(defaultLimit.message).toContain('"eleven.pdf" is 11 bytes, over the 5 bytes limit')
    expect(DEFAULT_MAX_FILE_BYTES).toBe(25 * 1024 * 1024)
    expect(client().maxFileBytes).toBe(DEFAULT_MAX_FILE_BYTES)

    const empty = await failure(
      c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: file('empty.pdf', Buffer.alloc(0)) }] }),
    )
    expect(empty.errorCode).toBe('validation_error')
    expect(empty.message).toContain('attachments.0.file: file must not be empty')
    expect(server.seen).toHaveLength(0)
  })

  it('applies the same prompt and name rules as a JSON AI create', async () => {
    const p = file('statement.txt', randomBytes(5))
    const c = client()
    const bank = await failure(
      c.aiCreateFromFiles('bank-transactions', { prompt: 'Jan', files: [{ path: p }] }),
    )
    expect(bank.message).toContain('attachments.0.name: "statement.txt" is not an accepted statement file')
    const noPrompt = await failure(
      c.aiCreateFromFiles('bank-transactions', { prompt: '', files: [{ path: p, name: 's.csv' }] }),
    )
    expect(noPrompt.message).toContain('prompt is required on a bank statement upload')
    const tooMany = await failure(
      c.aiCreateFromFiles('expenses', {
        prompt: 'p',
        files: Array.from({ length: 11 }, () => ({ path: p, name: 'r.pdf' })),
      }),
    )
    expect(tooMany.message).toContain('at most 10 attachments')
    expect(server.seen).toHaveLength(0)
  })
})
