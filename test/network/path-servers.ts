/**
 * The networks a laptop meets (issue 22), as real servers on 127.0.0.1: something in front of the
 * emulator that passes requests on or answers in its place (a Wi-Fi portal, an ingress's error
 * page, a redirect, a foreign JSON, compressed answers, a black hole, a stall, an answer of 600 MB,
 * an outage), a CONNECT proxy (with or without a password), and a certificate authority of its own
 * (openssl) for https. Every server is stopped by the test that starts it.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import http, { type IncomingMessage, type ServerResponse } from 'node:http'
import https from 'node:https'
import net, { type AddressInfo, type Socket } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import zlib from 'node:zlib'

export type Behaviour =
  /** Passed on to the emulator, answered as it answers. */
  | 'pass'
  /** Passed on, the answer compressed with this encoding (Content-Encoding set). */
  | { encode: 'gzip' | 'deflate' | 'br' }
  /** A web page (a Wi-Fi login, an ingress's error page), with headers of its own (Retry-After). */
  | { html: string; status?: number; title?: string; headers?: Record<string, string> }
  /** A body of this text, with this type (an empty 200: text ''). */
  | { text: string; status?: number; type?: string }
  /** These bytes with these headers (a gzip bomb: a few KB that decode to gigabytes). */
  | { bytes: Buffer; headers: Record<string, string>; status?: number }
  /** JSON that is not the emulator's answer. */
  | { json: unknown; status?: number }
  | { redirect: string; status?: number }
  /** The connection is accepted and nothing ever comes back. */
  | 'blackhole'
  /** The headers and half a body come, then nothing. */
  | 'stall'
  /** An answer of `bytes` bytes of JSON-looking text, chunked (no Content-Length), written as fast as it is read. */
  | { huge: number }
  /** The connection is closed at once, before any answer. */
  | 'reset'

export interface SeenRequest {
  method: string
  url: string
  idempotencyKey: string | undefined
  /** When it arrived (Date.now()). */
  at: number
  /** Bytes of its body received so far. */
  bytes: number
}

export interface Front {
  /** Base URL ending in /v1. */
  url: string
  port: number
  seen: SeenRequest[]
  /** What the front does with a request; default: pass everything. */
  behave: (req: SeenRequest) => Behaviour
  /** Bytes of huge answers written to sockets so far. */
  hugeWritten: () => number
  /** Stops listening and drops every connection (connections are refused), until up(). */
  down(): Promise<void>
  up(): Promise<void>
  stop(): Promise<void>
}

const HTML_PAGE = (title: string) =>
  `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><form action="/login"><input name="room"></form></body></html>`

/**
 * A server in front of `target` (the emulator's origin, e.g. http://127.0.0.1:4010). With `tls`,
 * it is https with that certificate; `host` is the name in its base URL (default 127.0.0.1).
 */
export async function startFront(
  target: string,
  opts: { tls?: { key: string; cert: string }; host?: string } = {},
): Promise<Front> {
  const sockets = new Set<Socket>()
  let written = 0
  const front: Front = {
    url: '',
    port: 0,
    seen: [],
    behave: () => 'pass',
    hugeWritten: () => written,
    down: async () => {},
    up: async () => {},
    stop: async () => {},
  }

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const seen: SeenRequest = {
      method: req.method ?? '',
      url: req.url ?? '',
      idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      at: Date.now(),
      bytes: 0,
    }
    req.on('data', (c: Buffer) => (seen.bytes += c.length))
    front.seen.push(seen)
    const b = front.behave(seen)
    if (b === 'blackhole') {
      req.resume()
      return
    }
    if (b === 'reset') {
      req.socket.destroy()
      return
    }
    if (b === 'stall') {
      req.resume()
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' })
        res.write('{"status":"success","message":"ok","data":{"job_reference":"')
      })
      return
    }
    if (b !== 'pass' && !('encode' in b)) {
      req.resume()
      req.on('end', () => {
        if ('html' in b) {
          res.writeHead(b.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...b.headers })
          res.end(b.html || HTML_PAGE(b.title ?? 'Welcome'))
        } else if ('text' in b) {
          res.writeHead(b.status ?? 200, b.type ? { 'content-type': b.type } : {})
          res.end(b.text)
        } else if ('bytes' in b) {
          res.writeHead(b.status ?? 200, { ...b.headers, 'content-length': String(b.bytes.length) })
          res.end(b.bytes)
        } else if ('json' in b) {
          res.writeHead(b.status ?? 200, { 'content-type': 'application/json' })
          res.end(JSON.stringify(b.json))
        } else if ('redirect' in b) {
          res.writeHead(b.status ?? 302, { location: b.redirect, 'content-type': 'text/html' })
          res.end('<a href="' + b.redirect + '">moved</a>')
        } else {
          res.writeHead(200, { 'content-type': 'application/json' })
          const chunk = Buffer.alloc(1024 * 1024, 'x')
          let left = b.huge
          res.write('{"status":"success","message":"')
          const more = (): void => {
            while (left > 0) {
              const n = Math.min(left, chunk.length)
              left -= n
              written += n
              if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void res.once('drain', more)
            }
            res.end('"}')
          }
          res.on('close', () => (left = 0))
          more()
        }
      })
      return
    }
    const encode = b === 'pass' ? null : b.encode
    const t = new URL(target)
    const headers = { ...req.headers, host: t.host }
    delete headers['accept-encoding']
    const up = http.request(
      { host: t.hostname, port: t.port, method: req.method, path: req.url, headers },
      (ans) => {
        const h = { ...ans.headers }
        if (!encode) {
          res.writeHead(ans.statusCode ?? 502, h)
          ans.pipe(res)
          return
        }
        const chunks: Buffer[] = []
        ans.on('data', (c: Buffer) => chunks.push(c))
        ans.on('end', () => {
          const raw = Buffer.concat(chunks)
          const body =
            encode === 'gzip' ? zlib.gzipSync(raw) : encode === 'br' ? zlib.brotliCompressSync(raw) : zlib.deflateSync(raw)
          delete h['content-length']
          delete h['transfer-encoding']
          res.writeHead(ans.statusCode ?? 502, { ...h, 'content-encoding': encode, 'content-length': String(body.length) })
          res.end(body)
        })
      },
    )
    up.on('error', () => res.destroy())
    req.pipe(up)
  }

  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, handler) : http.createServer(handler)
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  const listen = (port: number) => new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()))
  await listen(0)
  front.port = (server.address() as AddressInfo).port
  front.url = `${opts.tls ? 'https' : 'http'}://${opts.host ?? '127.0.0.1'}:${front.port}/v1`
  let listening = true
  front.down = async () => {
    if (!listening) return
    listening = false
    const closed = new Promise<void>((r) => server.close(() => r()))
    for (const s of sockets) s.destroy()
    await closed
  }
  front.up = async () => {
    if (listening) return
    await listen(front.port)
    listening = true
  }
  front.stop = async () => {
    for (const s of sockets) s.destroy()
    if (listening) await new Promise<void>((r) => server.close(() => r()))
    listening = false
  }
  return front
}

export interface ConnectProxy {
  /** http://127.0.0.1:<port> (https:// with `tls`) */
  url: string
  /** The targets of every CONNECT asked for ("api.bookdrop.test:443"), granted or not. */
  connects: string[]
  /** Proxy-Authorization headers received. */
  auths: (string | undefined)[]
  stop(): Promise<void>
}

/**
 * A CONNECT proxy. It resolves every name itself to 127.0.0.1 (so a base URL on a name this
 * computer cannot look up works only through it), and with `auth` it answers 407 until the
 * request carries that user name and password. With `tls` it is an https:// proxy with that
 * certificate (the client's TLS ends at the proxy, then its tunnel carries the server's TLS).
 */
export async function startConnectProxy(
  opts: { auth?: { user: string; password: string }; tls?: { key: string; cert: string } } = {},
): Promise<ConnectProxy> {
  const sockets = new Set<Socket>()
  const p: ConnectProxy = { url: '', connects: [], auths: [], stop: async () => {} }
  const refuse = (_req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(405)
    res.end('CONNECT only')
  }
  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, refuse) : http.createServer(refuse)
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    const target = req.url ?? ''
    p.connects.push(target)
    const auth = req.headers['proxy-authorization']
    p.auths.push(auth)
    if (opts.auth) {
      const want = `Basic ${Buffer.from(`${opts.auth.user}:${opts.auth.password}`).toString('base64')}`
      if (auth !== want) {
        client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n')
        return
      }
    }
    const port = Number(target.split(':').pop())
    const upstream = net.connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      if (head.length) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(upstream)
    upstream.on('close', () => sockets.delete(upstream))
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  p.url = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`
  p.stop = async () => {
    for (const s of sockets) s.destroy()
    await new Promise<void>((r) => server.close(() => r()))
  }
  return p
}

export interface TestCa {
  /** The authority's certificate (PEM): what --ca-file or Settings would be given. */
  caPem: string
  /** A server certificate signed by it, for api.bookdrop.test, localhost and 127.0.0.1. */
  key: string
  cert: string
  /** Where caPem is on disk (for --ca-file). */
  caFile: string
  dispose(): void
}

/** A certificate authority of its own ("Bookdrop Test CA") and a server certificate it signed, made with openssl. */
export function makeTestCa(): TestCa {
  const dir = mkdtempSync(join(tmpdir(), 'bookdrop-ca-'))
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' })
  run(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2',
    '-subj', '/CN=Bookdrop Test CA/O=Bookdrop Tests', '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'])
  run(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=api.bookdrop.test'])
  writeFileSync(
    join(dir, 'ext.cnf'),
    'subjectAltName=DNS:api.bookdrop.test,DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n',
  )
  run(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'ext.cnf'])
  return {
    caPem: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
    caFile: join(dir, 'ca.pem'),
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  }
}
