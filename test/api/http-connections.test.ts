/**
 * The client's connections (src-main/core/api/http.ts), against a real node:http server that
 * misbehaves at the socket level: kept-alive connections are reused, one the server dropped is
 * replaced without the caller seeing it (only when the request may reach the server twice), an
 * answer that comes before the upload was read is that answer, and an answer cut off midway is a
 * retryable network error.
 */
import { randomBytes } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BookkeepingClient } from '../../src-main/core/api'
import { failure } from './failure'
import { useTempDir } from './temp-dir'

const KEY = 'svc_sk_unit_connections_0123456789'
const JOB = { status: 'success', message: 'ok', data: { job_reference: 'job_1', status: 'completed' } }
const ACCEPTED = {
  status: 'success',
  message: 'accepted',
  data: { job_reference: 'job_1', process_type: 'async' },
}

interface Hit {
  method: string
  url: string
  idempotencyKey: string | undefined
  /** Which request this is on its connection (1: the first). */
  nth: number
  connection: number
}

let srv: Server
let base = ''
const tmp = useTempDir('bookdrop-conn-')
const hits: Hit[] = []
let connections = 0
/** What the server does with a request; the default answers JSON once the body is read. */
let handle: (req: IncomingMessage, res: ServerResponse, hit: Hit) => void = answer

function answer(req: IncomingMessage, res: ServerResponse): void {
  req.resume()
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(req.method === 'GET' ? JOB : ACCEPTED))
  })
}

beforeAll(async () => {
  const perSocket = new WeakMap<Socket, { id: number; n: number }>()
  srv = createServer((req, res) => {
    let s = perSocket.get(req.socket)
    if (!s) {
      s = { id: ++connections, n: 0 }
      perSocket.set(req.socket, s)
    }
    s.n++
    const hit: Hit = {
      method: req.method ?? '',
      url: req.url ?? '',
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      nth: s.n,
      connection: s.id,
    }
    hits.push(hit)
    handle(req, res, hit)
  })
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r))
  base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v1`
})

afterAll(async () => {
  srv.closeAllConnections()
  await new Promise<void>((r) => srv.close(() => r()))
})

afterEach(() => {
  hits.length = 0
  handle = answer
  srv.closeAllConnections() // each test starts without kept connections
})

const client = () =>
  new BookkeepingClient({ environment: 'custom', baseUrl: base, auth: { key: KEY }, timeoutMs: 5000 })

function receipt(name: string, bytes: number): string {
  const p = tmp.join(name)
  writeFileSync(p, randomBytes(bytes))
  return p
}

describe('connections', () => {
  it('a run of requests shares one kept-alive connection', async () => {
    const c = client()
    const before = connections
    for (let i = 0; i < 10; i++) await c.getJob('job_1')
    await c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: receipt('a.pdf', 2000) }] })
    expect(hits).toHaveLength(11)
    expect(connections - before).toBe(1)
    expect(hits.map((h) => h.nth)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])
  })

  it('a kept connection the server dropped is replaced: the create goes through once more, same key', async () => {
    const c = client()
    const file = receipt('b.pdf', 5000)
    await c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: file }] })
    // The server now drops any connection on its second request, without an answer (as one that
    // closed an idle connection just as the request was sent).
    handle = (req, res, hit) => {
      if (hit.nth > 1) req.socket.destroy()
      else answer(req, res)
    }
    const res = await c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: file }] })
    expect(res).toMatchObject({ process_type: 'async', job_reference: 'job_1' })
    const posts = hits.filter((h) => h.method === 'POST')
    expect(posts).toHaveLength(3)
    expect(posts[1]!.connection).toBe(posts[0]!.connection) // the kept one, dropped
    expect(posts[2]!.connection).not.toBe(posts[1]!.connection) // a new one
    expect(posts[2]!.idempotencyKey).toBe(posts[1]!.idempotencyKey) // the server can tell it is the same create
    // A read is replaced the same way.
    await c.getJob('job_1')
    expect(await c.getJob('job_1')).toMatchObject({ status: 'completed' })
  })

  it('a connection dropped again on the new one is a retryable network error, not a loop', async () => {
    const c = client()
    await c.getJob('job_1')
    handle = (req) => req.socket.destroy()
    const e = await failure(c.getJob('job_1'))
    expect(e).toMatchObject({ status: 0, errorCode: 'network_error', retryable: true })
    expect(hits).toHaveLength(3) // the first, the dropped one, and one replacement
  })

  it.each([
    ['a whole body', 1536 * 1024],
    ['a body streamed from disk', 3 * 1024 * 1024], // over the 2 MiB of a whole body
  ])('an answer given before the upload was read (413) is that answer, at once: %s', async (_what, size) => {
    const c = client()
    const file = receipt(`big-${size}.pdf`, size)
    // Answers on the headers and closes, the body unread: the kernel resets the connection.
    handle = (_req, res) => {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' })
      res.end(
        JSON.stringify({
          status: 'failed',
          message: 'The file is too large.',
          error_code: 'payload_too_large',
        }),
      )
    }
    for (let i = 0; i < 5; i++) {
      const started = Date.now()
      const e = await failure(c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: file }] }))
      expect(e).toMatchObject({
        status: 413,
        errorCode: 'payload_too_large',
        message: 'The file is too large.',
      })
      expect(Date.now() - started).toBeLessThan(4000) // not the 5 s timeout
    }
    handle = answer
    expect(await c.getJob('job_1')).toMatchObject({ status: 'completed' }) // the next request is fine
  })

  it('a call cancelled before it starts sends nothing and says it was cancelled', async () => {
    const e = await failure(client().getJob('job_1', { signal: AbortSignal.abort() }))
    expect(e).toMatchObject({ status: 0, errorCode: 'aborted', retryable: false })
    await new Promise((r) => setTimeout(r, 50))
    expect(hits).toHaveLength(0)
  })

  it('an answer cut off midway is a retryable network error', async () => {
    handle = (req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' })
      res.write('{"status":"succ')
      setTimeout(() => req.socket.destroy(), 20)
    }
    const e = await failure(client().getJob('job_1'))
    expect(e).toMatchObject({ status: 0, errorCode: 'network_error', retryable: true })
  })
})
