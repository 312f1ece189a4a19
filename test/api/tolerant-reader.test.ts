/**
 * The client against a server that follows api-spec.md but made other choices where the spec says
 * "not shown" or "optional" (issue #11): responses carry only what the spec names, with other field
 * names and unknown extras. A tiny node:http server plays that server; what it answers is the test.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BookkeepingClient } from '../../src-main/core/api'
import { MemorySecretStore, ProfileManager } from '../../src-main/core/secrets'
import { failure } from './failure'
import { useTempDir } from './temp-dir'

const KEY = 'svc_sk_other_server_0123456789'

interface Answer {
  status?: number
  body: unknown
}

const other = {
  http: undefined as Server | undefined,
  url: '',
  answer: (_method: string, _path: string): Answer => ({ body: { status: 'success', message: 'ok' } }),
}

beforeAll(async () => {
  other.http = createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!.replace(/^\/v1/, '')
      const a = other.answer(req.method ?? 'GET', path)
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json' })
      res.end(JSON.stringify(a.body))
    })
  })
  await new Promise<void>((r) => other.http!.listen(0, '127.0.0.1', r))
  other.url = `http://127.0.0.1:${(other.http.address() as AddressInfo).port}/v1`
})

afterAll(async () => {
  other.http?.closeAllConnections()
  await new Promise<void>((r) => other.http!.close(() => r()))
})

afterEach(() => {
  other.answer = () => ({ body: { status: 'success', message: 'ok' } })
})

const ok = (data: unknown, extra: Record<string, unknown> = {}): Answer => ({
  body: { status: 'success', message: 'ok', data, ...extra },
})

const client = () => new BookkeepingClient({ environment: 'custom', baseUrl: other.url, auth: { key: KEY } })

describe('auth/validate: a 200 means the key works', () => {
  const tmp = useTempDir('bookdrop-tolerant-')

  it('a profile is added when the answer has no business fields we know; the user named it', async () => {
    other.answer = () => ok({ valid: true, scopes: ['read', 'write'] })
    const pm = await ProfileManager.open({ dataDir: tmp.join('a'), store: new MemorySecretStore() })
    const p = await pm.add({
      name: 'Acme Ltd',
      environment: 'custom',
      baseUrl: other.url,
      kind: 'business',
      secret: KEY,
    })
    expect(p.name).toBe('Acme Ltd')
    expect(p.business).toEqual({ uuid: null, name: null, currency: null, country: null })
    expect(pm.list().map((x) => x.name)).toEqual(['Acme Ltd'])
  })

  it('takes the business name and uuid when they are recognisable, under other names or nested', async () => {
    other.answer = () =>
      ok({ business: { id: 42, business_name: 'Acme Trading', currency_code: 'KES' }, extra: { x: 1 } })
    expect(await client().validateKey()).toEqual({
      business_uuid: '42',
      name: 'Acme Trading',
      currency: 'KES',
      country: null,
    })
    other.answer = () => ({ body: { status: 'success', message: 'Key is valid' } })
    expect(await client().validateKey()).toEqual({
      business_uuid: null,
      name: null,
      currency: null,
      country: null,
    })
  })
})

describe('lists', () => {
  it('a list without meta is read: the page and limit asked for, and no total', async () => {
    other.answer = () => ok([{ uuid: 'e1', narration: 'Diesel', amount: 12.5 }])
    const page = await client().list('expenses', { page: 2, limit: 5 })
    expect(page.meta).toEqual({ page: 2, limit: 5, total: null })
    expect(page.data).toEqual([
      expect.objectContaining({ uuid: 'e1', narration: 'Diesel', amount: 12.5, date: null, currency: null }),
    ])
  })

  it('an invoice list whose elements have no balance and no source_uuid', async () => {
    other.answer = () =>
      ok(
        [
          {
            uuid: 'i1',
            date: '2026-01-05',
            total_amount: 100,
            amount_paid: 40,
            currency: 'NGN',
            x_note: 'y',
          },
        ],
        {
          meta: { page: 1, limit: 20, total: 1 },
        },
      )
    const page = await client().list('invoices')
    expect(page.meta).toEqual({ page: 1, limit: 20, total: 1 })
    expect(page.data[0]).toMatchObject({ uuid: 'i1', total_amount: 100, amount_paid: 40, source_uuid: null })
    expect(page.data[0]).not.toHaveProperty('x_note')
  })

  it('a list whose data is not a list is still a bad_response, naming it', async () => {
    other.answer = () => ok({ items: [] })
    const e = await failure(client().list('expenses'))
    expect(e).toMatchObject({ errorCode: 'bad_response' })
    expect(e.message).toContain('data')
  })
})

describe('invoice single read (2.9)', () => {
  /** The other server's answer for an invoice dated 2026-01-05, due 2026-02-05, in NGN, with its lines. */
  const invoice = (
    uuid: string,
    narration: string,
    total: number,
    paid: number,
    lines: Record<string, unknown>,
  ) =>
    ok({
      uuid,
      date: '2026-01-05',
      due_date: '2026-02-05',
      narration,
      total_amount: total,
      amount_paid: paid,
      balance: total - paid,
      currency: 'NGN',
      ...lines,
    })

  it('reads an invoice without source_uuid whose items and payments use other field names', async () => {
    other.answer = () =>
      invoice('i1', 'Cake', 100, 40, {
        record_items: [{ description: 'Cake', qty: 2, unit_price: 50, line_total: 100, colour: 'red' }],
        payments: [{ id: 'p1', paid_on: '2026-01-06', value: 40, channel: 'card' }],
      })
    const inv = await client().getInvoice('i1')
    expect(inv).toMatchObject({ uuid: 'i1', source_uuid: null, balance: 60, total_amount: 100 })
    expect(inv.record_items).toEqual([
      { item_name: 'Cake', quantity: 2, selling_price: 50, tax: null, amount: 100 },
    ])
    expect(inv.payments).toEqual([{ uuid: 'p1', date: '2026-01-06', amount: 40, method: 'card' }])
  })

  it('element fields it cannot recognise become empty, never a failure', async () => {
    other.answer = () =>
      invoice('i2', 'n', 10, 0, {
        record_items: [{ sku: 'A-1' }, 'not an object'],
        payments: [{ ref: 'x' }],
      })
    const inv = await client().getInvoice('i2')
    expect(inv.record_items).toEqual([
      { item_name: null, quantity: null, selling_price: null, tax: null, amount: null },
    ])
    expect(inv.payments).toEqual([{ uuid: null, date: null, amount: null, method: null }])
  })
})
