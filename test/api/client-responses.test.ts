/**
 * Unit tests of the API client that need no emulator (2/2): error mapping of responses, secrets
 * never leaking, and the streamed file body.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, openSync, ftruncateSync, closeSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inspect } from 'node:util'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import type {
  ApiError} from '../../src-main/core/api';
import {
  BookkeepingClient,
  DEFAULT_MAX_FILE_BYTES,
  base64Chunks,
  base64Length,
  streamedJsonBody,
  type ResponseInfo,
} from '../../src-main/core/api'
import { FileBodyError } from '../../src-main/core/api/stream-body'
import { type PurchaseOrderInput } from '../../schemas'
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
  record,
} from './client-unit'
import { useTempDir } from './temp-dir'

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
    // A web page is not the API's answer at all: the path's problem, not a malformed answer.
    server.reply = () => ({ raw: '<html>ok</html>' })
    expect((await failure(client().validateKey())).errorCode).toBe('not_api')
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

  it('uses Retry-After as an HTTP date; a 5xx without the API JSON is the server or a gateway failing (waited for), retryable', async () => {
    server.reply = () => ({
      status: 503,
      headers: { 'retry-after': new Date(Date.now() + 20_000).toUTCString() },
      raw: '<h1>down</h1>',
    })
    const e = await failure(client().validateKey())
    expect(e).toMatchObject({ status: 503, errorCode: 'server_error_page', retryable: true, connection: 'unreachable' })
    expect(e.message).toMatch(/the server answered 503 Service Unavailable \(a web page, not the API\)/)
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
    // Not followed, and not a refusal by the API either: the path's problem, tried again later.
    expect(e).toMatchObject({ status: 302, errorCode: 'redirect_refused', retryable: true, connection: 'not_api' })
    expect(server.seen.map((s) => s.url)).toEqual(['/v1/auth/validate'])
    const dir = mkdtempSync(join(tmpdir(), 'bookdrop-redirect-'))
    try {
      writeFileSync(join(dir, 'r.pdf'), 'receipt')
      const up = await failure(
        client().aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: join(dir, 'r.pdf') }] }),
      )
      expect(up).toMatchObject({ errorCode: 'redirect_refused', retryable: true, connection: 'not_api' })
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
  const tmp = useTempDir('bookdrop-client-')

  function file(name: string, bytes: Buffer): string {
    const p = tmp.join(name)
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

  it('streams a file through its open descriptor, one read buffer for every chunk, byte for byte', async () => {
    const bytes = randomBytes(1000)
    const sha256 = createHash('sha256').update(bytes).digest('hex')
    const handle = await open(file('opened.bin', bytes), 'r')
    try {
      for (const chunk of [1, 2, 3, 5, 7, 64, 999]) {
        const body = streamedJsonBody({ prompt: 'p' }, [{ path: 'elsewhere.pdf', name: 'o.pdf', size: 1000, sha256, handle }], chunk)
        const out = await collect(body.stream)
        expect(out.length).toBe(body.contentLength)
        expect(Buffer.from(JSON.parse(out.toString('utf8')).attachments[0].file, 'base64').equals(bytes), `chunk ${chunk}`).toBe(true)
      }
      // The hash is of the bytes as read: another recorded sha256 fails the body.
      const wrong = streamedJsonBody({}, [{ path: 'x', name: 'o.pdf', size: 1000, sha256: '0'.repeat(64), handle }], 7)
      await expect(collect(wrong.stream)).rejects.toBeInstanceOf(FileBodyError)
      expect(wrong.failure()?.kind).toBe('superseded')
    } finally {
      await handle.close()
    }
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
    const p = tmp.join('huge.pdf')
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
      c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: tmp.join('nope.pdf') }] }),
    )
    expect(missing).toMatchObject({ status: 0, errorCode: 'file_not_found', retryable: false })
    expect(missing.message).toContain('nope.pdf')

    mkdirSync(tmp.join('folder.pdf'))
    expect(
      (
        await failure(
          c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: tmp.join('folder.pdf') }] }),
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
