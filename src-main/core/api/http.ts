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
 * - the connection goes where `route` says (direct, or a proxy's CONNECT tunnel: ./network.ts);
 * - gzip, deflate and br answers are asked for and decoded (Node's zlib); any other encoding is
 *   an error of its own;
 * - an answer larger than `maxResponseBytes` (as sent, and once decoded) is not read further: the
 *   exchange ends there with ResponseTooLarge, so no answer can exhaust memory or a string.
 */
import type { ClientRequest, IncomingHttpHeaders } from 'node:http'
import https from 'node:https'
import type { TLSSocket } from 'node:tls'
import zlib from 'node:zlib'
import { nameOf, type Route } from './network'
import { http } from './network/node-http'

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
  /** Where the connection goes (./network.ts). */
  route: Route
  /** The largest answer read, in bytes, as sent and once decoded. */
  maxResponseBytes: number
  /** Report the issuer of the server's certificate (Test connection). */
  wantPeer?: boolean
}

export interface HttpResponse {
  status: number
  statusText: string
  headers: IncomingHttpHeaders
  /** The body, decoded (Content-Encoding) and read as UTF-8. */
  text: string
  /** Who signed the server's certificate (https, when asked for). */
  issuer?: string | null
}

/** The deadline of HttpRequest.timeoutMs passed. */
export class HttpTimeout extends Error {
  override readonly name = 'HttpTimeout'
}

/** The caller's signal aborted the exchange. */
export class HttpAborted extends Error {
  override readonly name = 'HttpAborted'
}

/** The answer was larger than HttpRequest.maxResponseBytes: it was not read further. */
export class ResponseTooLarge extends Error {
  override readonly name = 'ResponseTooLarge'
  constructor(
    readonly status: number,
    readonly limit: number,
    readonly headers: IncomingHttpHeaders,
  ) {
    super(`the answer is larger than ${limit} bytes`)
  }
}

/** The answer's Content-Encoding is unknown, or its bytes do not decode. */
export class BadEncoding extends Error {
  override readonly name = 'BadEncoding'
  constructor(
    readonly status: number,
    readonly encoding: string,
    readonly headers: IncomingHttpHeaders,
  ) {
    super(`the answer's ${encoding} encoding could not be decoded`)
  }
}

/** The proxy refused to open the tunnel (CONNECT answered with this status, e.g. 407). */
export class ProxyRefused extends Error {
  override readonly name = 'ProxyRefused'
  constructor(readonly status: number) {
    super(`the proxy answered ${status} to CONNECT`)
  }
}

/** What a request asks for; identity is always acceptable. */
export const ACCEPT_ENCODING = 'gzip, deflate, br'

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

/** hpagent reports a refused CONNECT as "Bad response: <status>". */
function proxyRefusal(e: Error): ProxyRefused | null {
  const m = /^Bad response: (\d{3})$/.exec(e.message)
  return m ? new ProxyRefused(Number(m[1])) : null
}

function exchange(req: HttpRequest, deadline: number, fresh = false): Promise<HttpResponse> {
  const { url, signal } = req
  return new Promise<HttpResponse>((resolve, reject) => {
    const streamed = req.body instanceof ReadableStream
    // A new connection for the retry (the pool may hold more the server closed), and for a
    // streamed body, which cannot be sent twice: a kept connection may turn out to be closed.
    const own = fresh || streamed ? req.route.fresh() : null
    // Built first: if node refuses the request outright, nothing below was set up to leak.
    let r: ClientRequest
    try {
      r = (url.protocol === 'https:' ? https : http).request(url, {
        method: req.method,
        headers: req.headers,
        agent: own ?? req.route.agent,
      })
    } catch (e) {
      own?.destroy()
      throw e
    }
    let settled = false
    let answered = false
    const finish = (err: Error | null, res?: HttpResponse): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', onAbort)
      // An answer that came before the whole body was written (413, 401): that connection cannot
      // carry another request, and a stream body must stop being read. An answer not read to its
      // end (too large) cannot either.
      if (err || !r.writableFinished) r.destroy()
      // A one-off agent closes its socket once the answer is read (no keep-alive).
      if (own) setImmediate(() => own.destroy())
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
      const refused = proxyRefusal(e)
      if (refused) return finish(refused)
      const stale = !fresh && req.replayable && r.reusedSocket && STALE_SOCKET.has(e.code ?? '')
      finish(stale ? new StaleSocket(e) : e)
    })
    r.on('response', (res) => {
      answered = true
      const issuer = req.wantPeer ? issuerOf(res.socket) : undefined
      const status = res.statusCode ?? 0
      const limit = req.maxResponseBytes
      const tooLarge = (): void => finish(new ResponseTooLarge(status, limit, res.headers))
      const declared = Number(res.headers['content-length'])
      if (Number.isFinite(declared) && declared > limit) return tooLarge()
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (c: Buffer) => {
        if (settled) return
        size += c.length
        // Past the limit nothing more is kept or read: the connection is closed by finish().
        if (size > limit) return tooLarge()
        chunks.push(c)
      })
      const cutOff = (): void =>
        finish(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' }))
      res.on('error', cutOff)
      res.on('close', () => {
        if (!res.complete) cutOff()
      })
      res.on('end', () => {
        if (settled) return
        if (!res.complete) return cutOff()
        const encoding = String(res.headers['content-encoding'] ?? 'identity').trim().toLowerCase()
        let body: Buffer
        try {
          body = decode(Buffer.concat(chunks), encoding, limit)
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return tooLarge()
          return finish(new BadEncoding(status, encoding, res.headers))
        }
        finish(null, {
          status,
          statusText: res.statusMessage ?? '',
          headers: res.headers,
          text: body.toString('utf8'),
          ...(issuer !== undefined ? { issuer } : {}),
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

/** The body as sent, decoded: at most `limit` bytes come out (else ERR_BUFFER_TOO_LARGE). */
function decode(raw: Buffer, encoding: string, limit: number): Buffer {
  const opts = { maxOutputLength: limit }
  switch (encoding) {
    case '':
    case 'identity':
      return raw
    case 'gzip':
    case 'x-gzip':
      return zlib.gunzipSync(raw, opts)
    case 'br':
      return zlib.brotliDecompressSync(raw, opts)
    case 'deflate':
      // "deflate" is meant to be zlib-wrapped, but some servers send it raw: the first byte says.
      return raw.length > 0 && (raw[0]! & 0x0f) === 0x08 ? zlib.inflateSync(raw, opts) : zlib.inflateRawSync(raw, opts)
    default:
      throw new Error(`unknown encoding ${encoding}`)
  }
}

function issuerOf(socket: unknown): string | null {
  const s = socket as Partial<TLSSocket> | null
  if (!s || typeof s.getPeerCertificate !== 'function') return null
  const cert = s.getPeerCertificate()
  return cert && cert.issuer ? nameOf(cert.issuer as unknown as Record<string, unknown>) : null
}

/**
 * Writes a stream into the request as the socket takes it; a failed stream fails the request.
 * Before each write the event loop looks at the socket once: a server that answers early (413,
 * 401) and closes is heard before a write into the closed connection (EPIPE) would lose its answer;
 * once the exchange is over the stream is cancelled, so the file is closed.
 */
async function pump(body: ReadableStream<Uint8Array>, r: ClientRequest): Promise<void> {
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
