/**
 * One HTTP exchange on node:http / node:https, for the transport (./transport.ts).
 *
 * Why not fetch: on the engine's traffic (hundreds of JSON bodies of a few hundred KB, and small
 * GETs) fetch cost the headless process 1.83 s of CPU where node:http costs 1.19 s, for 300
 * receipts (issue 14): every body went through a WHATWG stream that copied it, and a string body
 * was measured and UTF-8 encoded again. node:http writes a Buffer body to the socket as it is.
 *
 * The rules the transport relies on:
 * - redirects are never followed (a 3xx is an answer like any other: the key must not go elsewhere);
 * - one deadline covers the whole exchange, connect to last byte of the answer;
 * - a caller's AbortSignal ends it at once;
 * - a kept-alive connection the server had closed while idle (ECONNRESET/EPIPE before any answer)
 *   is replaced once by a new one, for a request that may reach the server twice (`replayable`);
 *   a streamed body (large files), which cannot be sent twice, always gets a connection of its own;
 * - no compression is asked for, so the answer is the bytes the server sent.
 */
import http, { type IncomingHttpHeaders } from 'node:http'
import https from 'node:https'

export interface HttpRequest {
  method: string
  url: URL
  headers: Record<string, string>
  /** Bytes sent as they are, or a stream read as the socket takes it (Content-Length set by the caller). */
  body?: Uint8Array | ReadableStream<Uint8Array>
  /** The whole exchange must end within this time, else it fails with HttpTimeout. */
  timeoutMs: number
  signal?: AbortSignal
  /**
   * It may reach the server twice (a read, or a write the server deduplicates by its
   * Idempotency-Key): then a kept-alive connection found closed is replaced and the request sent again.
   */
  replayable: boolean
}

export interface HttpResponse {
  status: number
  statusText: string
  headers: IncomingHttpHeaders
  /** The body, decoded as UTF-8. */
  text: string
}

/** The deadline of HttpRequest.timeoutMs passed. */
export class HttpTimeout extends Error {
  override readonly name = 'HttpTimeout'
}

/** The caller's signal aborted the exchange. */
export class HttpAborted extends Error {
  override readonly name = 'HttpAborted'
}

// Connections are kept for the next request (one pool per protocol, like fetch's), and an idle one
// never keeps the process alive (node unrefs free sockets).
const agents = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
}

/** Codes of a kept-alive connection the server closed while it sat idle. */
const STALE_SOCKET = new Set(['ECONNRESET', 'EPIPE'])

export async function httpRequest(req: HttpRequest): Promise<HttpResponse> {
  const deadline = Date.now() + req.timeoutMs
  try {
    return await exchange(req, deadline)
  } catch (e) {
    if (!(e instanceof StaleSocket)) throw e
    return exchange(req, deadline, true)
  }
}

/** Thrown by `exchange` when a reused connection turned out to be closed: the request never got there. */
class StaleSocket extends Error {
  constructor(cause: Error) {
    super(cause.message, { cause })
  }
}

function exchange(req: HttpRequest, deadline: number, fresh = false): Promise<HttpResponse> {
  const { url, signal } = req
  const lib = url.protocol === 'https:' ? https : http
  const agent = url.protocol === 'https:' ? agents['https:'] : agents['http:']
  return new Promise<HttpResponse>((resolve, reject) => {
    const streamed = req.body instanceof ReadableStream
    // Built first: if node refuses the request outright, nothing below was set up to leak.
    const r = lib.request(url, {
      method: req.method,
      headers: req.headers,
      // A new connection for the retry (the pool may hold more the server closed), and for a
      // streamed body, which cannot be sent twice: a kept connection may turn out to be closed.
      agent: fresh || streamed ? false : agent,
    })
    let settled = false
    let answered = false
    const finish = (err: Error | null, res?: HttpResponse): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      // An answer that came before the whole body was written (413, 401): that connection cannot
      // carry another request, and a stream body must stop being read.
      if (err || !r.writableFinished) r.destroy()
      if (err) reject(err)
      else resolve(res!)
    }
    const timer = setTimeout(
      () => finish(new HttpTimeout(`no complete answer within ${req.timeoutMs} ms`)),
      Math.max(0, deadline - Date.now()),
    )
    const onAbort = (): void => finish(new HttpAborted('aborted'))
    signal?.addEventListener('abort', onAbort, { once: true })

    r.on('error', (e: NodeJS.ErrnoException) => {
      // The server may answer (413, 401) and close before it read the whole body: the answer counts.
      if (answered) return
      const stale = !fresh && req.replayable && r.reusedSocket && STALE_SOCKET.has(e.code ?? '')
      finish(stale ? new StaleSocket(e) : e)
    })
    r.on('response', (res) => {
      answered = true
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      const cutOff = (): void =>
        finish(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }))
      res.on('error', cutOff)
      res.on('close', () => {
        if (!res.complete) cutOff()
      })
      res.on('end', () => {
        if (!res.complete) return cutOff()
        finish(null, {
          status: res.statusCode ?? 0,
          statusText: res.statusMessage ?? '',
          headers: res.headers,
          text: Buffer.concat(chunks).toString('utf8'),
        })
      })
    })
    // Already cancelled: ended here, once the listeners above can hear what destroy() reports.
    if (signal?.aborted) onAbort()
    if (settled) return

    const body = req.body
    if (body === undefined) r.end()
    else if (!(body instanceof ReadableStream)) r.end(body)
    else void pump(body, r).catch((e: unknown) => finish(e instanceof Error ? e : new Error(String(e))))
  })
}

/**
 * Writes a stream into the request as the socket takes it; a failed stream fails the request.
 * Before each write the event loop looks at the socket once: a server that answers early (413,
 * 401) and closes is heard before a write into the closed connection (EPIPE) would lose its answer;
 * once the exchange is over the stream is cancelled, so the file is closed.
 */
async function pump(body: ReadableStream<Uint8Array>, r: http.ClientRequest): Promise<void> {
  const reader = body.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      // Two turns: the second starts after a fresh look at every socket (the loop's poll phase).
      await new Promise((resolve) => setImmediate(resolve))
      await new Promise((resolve) => setImmediate(resolve))
      if (r.destroyed) {
        await reader.cancel().catch(() => undefined)
        return
      }
      if (!r.write(value)) {
        await new Promise<void>((resolve) => {
          const go = (): void => {
            r.off('drain', go)
            r.off('close', go)
            resolve()
          }
          r.on('drain', go)
          r.on('close', go)
        })
      }
    }
    r.end()
  } catch (e) {
    await reader.cancel().catch(() => undefined)
    throw e
  } finally {
    reader.releaseLock()
  }
}
