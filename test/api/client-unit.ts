/**
 * The client unit tests' shared parts (test/api/client-*.test.ts): a tiny node:http server that
 * records what the client sent and answers what the test says, started once per test file, and
 * the clients and fixtures the tests use.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { BookkeepingClient, type ClientAuth, type ResponseInfo } from '../../src-main/core/api'
import { type PurchaseOrderInput } from '../../schemas'

export { failure } from './failure'

export const BUSINESS_KEY = 'svc_sk_unit_business_5ecret_0123456789'
export const PARTNER_KEY = 'svc_partner_sk_unit_partner_5ecret_987'
export const OAUTH_TOKEN = 'oauth_access_token_5ecret_abcdef'

// ---------------------------------------------------------------------------------------------
// A tiny HTTP server that records what the client sent and answers what the test says
// ---------------------------------------------------------------------------------------------

export interface Seen {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: Buffer
  bodyBytes: number
}

export interface Reply {
  status?: number
  headers?: Record<string, string>
  body?: unknown
  /** Sent as is (not JSON-encoded). */
  raw?: string
  /** Never answer (timeouts). */
  hang?: boolean
}

export const server = {
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

export function client(
  auth: ClientAuth = { key: BUSINESS_KEY },
  extra: Partial<{ timeoutMs: number; maxFileBytes: number; onResponse: (i: ResponseInfo) => void }> = {},
) {
  return new BookkeepingClient({ environment: 'custom', baseUrl: server.url, auth, ...extra })
}

export const partner = () => client({ key: PARTNER_KEY })
export const oauth = () => client({ mode: 'oauth', appKey: BUSINESS_KEY, accessToken: OAUTH_TOKEN })

export function ok(data: unknown, meta?: Record<string, unknown>): Reply {
  return { body: { status: 'success', message: 'ok', data, ...(meta ? { meta } : {}) } }
}

export const goodPo: PurchaseOrderInput = {
  date: '2026-01-05',
  vendor: 'Flour Mills',
  items: [{ name: 'Flour 50kg', quantity: 2, price: 25_000 }],
}

export const poData = {
  uuid: 'po1',
  transaction_type: 'purchase_order',
  status: 'draft',
  document_number: 'PO-00001',
  narration: '',
  amount: 50_000,
  currency: 'NGN',
}

export const record = {
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
