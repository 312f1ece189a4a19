/**
 * The client on the networks a laptop meets (issue 22), with real servers: only the API's own JSON
 * envelope is its word; a portal, an ingress page, a redirect, a foreign JSON, a black hole or a
 * stall is the path's problem; compressed answers are read; an answer of 600 MB is not; a CONNECT
 * proxy and a certificate authority of one's own work, and their failures say plainly what to do.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import zlib from 'node:zlib'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BookkeepingClient, type ClientOptions } from '../../src-main/core/api'
import { Network } from '../../src-main/core/api/network'
import { failure } from '../api/failure'
import { KEY } from '../engine/helpers'
import { usePathRig } from './path-rig'
import { type ConnectProxy, type Front, startFront } from './path-servers'

const rig = usePathRig()
let front: Front
let dir: string

beforeAll(async () => {
  front = await startFront(rig.sb.origin)
  dir = mkdtempSync(join(tmpdir(), 'bookdrop-paths-'))
  writeFileSync(join(dir, 'r.txt'), 'Receipt\nTotal 12.00\n')
})

afterAll(async () => {
  await front.stop()
  rmSync(dir, { recursive: true, force: true })
})

afterEach(async () => {
  front.behave = () => 'pass'
  front.seen.length = 0
})

function client(baseUrl = front.url, extra: Partial<ClientOptions> = {}): BookkeepingClient {
  return new BookkeepingClient({ environment: 'custom', baseUrl, auth: { key: KEY }, ...extra } as ClientOptions)
}

const upload = (c: BookkeepingClient) =>
  c.aiCreateFromFiles('expenses', { prompt: 'p', files: [{ path: join(dir, 'r.txt') }] })

describe('only the API’s own word is an answer', () => {
  it.each([
    ['a Wi-Fi login page (200, HTML)', { html: '', title: 'Hotel WiFi Login' }, /a web page \("Hotel WiFi Login"\) \(HTTP 200\)/],
    ['an empty 200', { text: '' }, /an empty answer \(HTTP 200\)/],
    ['an ingress error page (404, HTML)', { html: '', status: 404, title: '404 Not Found' }, /a web page .*\(HTTP 404\)/],
    ['a proxy’s refusal (403, plain text)', { text: 'Access denied', status: 403, type: 'text/plain' }, /not JSON \(text\/plain, HTTP 403\)/],
    ['JSON of another service', { json: { ok: true, items: [] } }, /JSON that is not the API's answer/],
    ['a maintenance notice in the envelope, without data', { json: { status: 'success', message: 'Scheduled maintenance' } }, /without the data an AI create returns .*\("Scheduled maintenance"\)/],
  ] as const)('%s on a create is not_api, retryable, and says what came', async (_what, b, seen) => {
    front.behave = () => b
    const e = await failure(upload(client()))
    expect(e).toMatchObject({ errorCode: 'not_api', connection: 'not_api', retryable: true })
    expect(e.message).toMatch(seen)
    expect(e.message).toMatch(/Wi-Fi login page, a proxy/)
    expect(e.message).not.toContain(KEY)
  })

  it('the status code speaks first: a 5xx page is the server failing (Retry-After kept), a 413 page a refusal of the size', async () => {
    front.behave = () => ({ text: 'Bad gateway', status: 502, type: 'text/plain' })
    let e = await failure(upload(client()))
    expect(e).toMatchObject({ status: 502, errorCode: 'server_error_page', connection: 'unreachable', retryable: true })
    expect(e.message).toMatch(/the server answered 502 Bad Gateway \(an answer that is not JSON, text\/plain, not the API\)/)
    expect(e.message).not.toMatch(/Wi-Fi|proxy/)
    front.behave = () => ({ html: '', status: 503, title: 'Maintenance', headers: { 'retry-after': '7' } })
    e = await failure(client().getJob('job_1'))
    expect(e).toMatchObject({ errorCode: 'server_error_page', connection: 'unreachable', retryAfterMs: 7000 })
    front.behave = () => ({ html: '', status: 413, title: '413 Request Entity Too Large' })
    e = await failure(upload(client()))
    expect(e).toMatchObject({ status: 413, errorCode: 'request_too_large', retryable: false, connection: undefined })
    expect(e.message).toMatch(/the server answered 413 Payload Too Large \(a web page \("413 Request Entity Too Large"\), not the API\)/)
    // A 413 to a request without a body is no refusal of a size: something else answered.
    e = await failure(client().getJob('job_1'))
    expect(e).toMatchObject({ errorCode: 'not_api', connection: 'not_api' })
  })

  it('a 302 to a portal is not followed, and is the path’s problem', async () => {
    front.behave = () => ({ redirect: 'http://portal.hotel.example/login?mac=aa' })
    const e = await failure(client().getJob('job_1'))
    expect(e).toMatchObject({ status: 302, errorCode: 'redirect_refused', connection: 'not_api', retryable: true })
    expect(e.message).toMatch(/redirect \(302\) to portal\.hotel\.example/)
    expect(front.seen).toHaveLength(1)
  })

  it('a job answer without a job (a maintenance notice) is not the API’s, nor is a 404 page; the API’s own 404 is', async () => {
    front.behave = () => ({ json: { status: 'success', message: 'Scheduled maintenance' } })
    expect(await failure(client().getJob('job_1'))).toMatchObject({ errorCode: 'not_api', connection: 'not_api' })
    front.behave = () => ({ html: '', status: 404, title: 'Not Found' })
    expect(await failure(client().getJob('job_1'))).toMatchObject({ status: 404, connection: 'not_api' })
    front.behave = () => 'pass'
    const own = await failure(client().getJob('job_nobody_knows'))
    expect(own.status).toBe(404)
    expect(own.connection).toBeUndefined()
  })

  it('the API’s own refusal in its envelope is its word (not a path problem)', async () => {
    const e = await failure(
      new BookkeepingClient({ environment: 'custom', baseUrl: front.url, auth: { key: 'svc_sk_nobody_has_this' } }).validateKey(),
    )
    expect(e.status).toBe(401)
    expect(e.connection).toBeUndefined()
  })
})

describe('encodings', () => {
  it.each(['gzip', 'deflate', 'br'] as const)('a %s answer is decoded: creates and polls work', async (encode) => {
    front.behave = () => ({ encode })
    const c = client()
    const created = await upload(c)
    expect(created.process_type).toBe('async')
    const job = await c.getJob(created.process_type === 'async' ? created.job_reference : '')
    expect(job.job_reference).toBeTruthy()
    expect(front.seen.length).toBeGreaterThanOrEqual(2)
  })

  it('a raw deflate answer (no zlib header) is read too; an unknown encoding is not_api', async () => {
    const body = Buffer.from(JSON.stringify({ status: 'success', message: 'ok', data: { business_uuid: 'b1' } }))
    front.behave = () => ({ bytes: zlib.deflateRawSync(body), headers: { 'content-type': 'application/json', 'content-encoding': 'deflate' } })
    expect(await client().validateKey()).toMatchObject({ business_uuid: 'b1' })
    front.behave = () => ({ bytes: body, headers: { 'content-type': 'application/json', 'content-encoding': 'zstd' } })
    const e = await failure(client().validateKey())
    expect(e).toMatchObject({ errorCode: 'not_api', connection: 'not_api' })
    expect(e.message).toMatch(/encoding Bookdrop cannot read \(zstd/)
  })
})

describe('bounded answers', () => {
  it('an answer of 600 MB is not read past the limit: a server problem, retryable, nothing crashes', async () => {
    front.behave = () => ({ huge: 600 * 1024 * 1024 })
    const before = process.memoryUsage().rss
    const started = Date.now()
    const e = await failure(upload(client()))
    expect(e).toMatchObject({ errorCode: 'response_too_large', status: 200, retryable: true })
    expect(e.connection).toBeUndefined()
    expect(e.message).toMatch(/larger than 16 MB/)
    // Reading stopped at the limit: the server could write little more than it before the close.
    await new Promise((r) => setTimeout(r, 200))
    expect(front.hugeWritten()).toBeLessThan(80 * 1024 * 1024)
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * 1024 * 1024)
    expect(Date.now() - started).toBeLessThan(20_000)
  })

  it('a gzip bomb (a few hundred KB that decode to 256 MB) stops at the limit once decoded', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(256 * 1024 * 1024, 0x20), { level: 9 })
    expect(bomb.length).toBeLessThan(1024 * 1024)
    front.behave = () => ({ bytes: bomb, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } })
    const e = await failure(client().validateKey())
    expect(e).toMatchObject({ errorCode: 'response_too_large' })
  })
})

describe('no answer at all', () => {
  it('a black hole (accepts, never answers) ends at the timeout, whose message names how to set it', async () => {
    front.behave = () => 'blackhole'
    const started = Date.now()
    const e = await failure(upload(client(front.url, { timeoutMs: 400, timeoutHint: '--timeout' })))
    expect(Date.now() - started).toBeLessThan(5000)
    expect(e).toMatchObject({ errorCode: 'timeout', connection: 'unreachable', retryable: true })
    expect(e.message).toMatch(/within 0\.4 s \(--timeout\)/)
  })

  it('a stall mid-body ends at the timeout too', async () => {
    front.behave = () => 'stall'
    const e = await failure(client(front.url, { timeoutMs: 400 }).getJob('job_1'))
    expect(e).toMatchObject({ errorCode: 'timeout', connection: 'unreachable' })
  })

  it('a refused connection is unreachable', async () => {
    await front.down()
    try {
      const e = await failure(client().validateKey())
      expect(e).toMatchObject({ errorCode: 'network_error', connection: 'unreachable', retryable: true })
      expect(e.message).toMatch(/ECONNREFUSED/)
    } finally {
      await front.up()
    }
  })
})

describe('proxies and certificates', () => {
  let tlsFront: Front
  let proxy: ConnectProxy

  beforeAll(async () => {
    tlsFront = await startFront(rig.sb.origin, { tls: { key: rig.ca.key, cert: rig.ca.cert }, host: 'api.bookdrop.test' })
  })
  afterAll(async () => {
    await tlsFront.stop()
  })

  const local = () => tlsFront.url.replace('api.bookdrop.test', 'localhost')

  it('a server signed by an authority this computer does not trust: a configuration error naming it, not retried', async () => {
    const e = await failure(client(local(), { network: new Network({ proxy: { mode: 'none' } }) }).validateKey())
    expect(e).toMatchObject({ errorCode: 'certificate_error', connection: 'not_api', configuration: true, retryable: false })
    expect(e.message).toMatch(
      /The server's certificate is signed by Bookdrop Test CA \(Bookdrop Tests\), which this computer does not trust/,
    )
    expect(e.message).toMatch(/Settings → Connection, or --ca-file/)
  })

  it('with that authority’s PEM added (Settings, --ca-file) the same server works', async () => {
    const network = new Network({ proxy: { mode: 'none' }, extraCaPem: rig.ca.caPem })
    expect(await client(local(), { network }).validateKey()).toBeTruthy()
    const report = await client(local(), { network }).checkConnection()
    expect(report).toMatchObject({ api: true, keyAccepted: true, proxy: null, issuer: 'Bookdrop Test CA (Bookdrop Tests)' })
    expect(report.roundTripMs).toBeGreaterThanOrEqual(0)
  })

  it('through a CONNECT proxy: a name this computer cannot look up is reached, the proxy sees only CONNECT', async () => {
    proxy = await rig.proxy()
    const direct = await failure(client(tlsFront.url, { network: new Network({ proxy: { mode: 'none' }, extraCaPem: rig.ca.caPem }) }).validateKey())
    expect(direct.connection).toMatch(/unreachable|offline/)
    const network = new Network({ proxy: { mode: 'manual', url: proxy.url }, extraCaPem: rig.ca.caPem })
    const c = client(tlsFront.url, { network })
    const created = await upload(c)
    expect(created.process_type).toBe('async')
    expect(proxy.connects.every((t) => t === `api.bookdrop.test:${tlsFront.port}`)).toBe(true)
    // Kept alive through the tunnel: a second call needs no new CONNECT.
    const before = proxy.connects.length
    await c.validateKey()
    expect(proxy.connects.length).toBe(before)
    const report = await c.checkConnection()
    expect(report).toMatchObject({ api: true, proxy: proxy.url, issuer: 'Bookdrop Test CA (Bookdrop Tests)' })
  })

  it('loopback is never proxied, whatever the setting', async () => {
    proxy = await rig.proxy()
    const network = new Network({ proxy: { mode: 'manual', url: proxy.url } })
    expect(await client(front.url, { network }).validateKey()).toBeTruthy()
    expect(proxy.connects).toEqual([])
  })

  it('a proxy asking for a password (407) says so and is a configuration error; with the keychain’s credentials it works', async () => {
    proxy = await rig.proxy({ auth: { user: 'ann', password: 's3cret-proxy-pw' } })
    const bare = new Network({ proxy: { mode: 'manual', url: proxy.url }, extraCaPem: rig.ca.caPem })
    const e = await failure(client(tlsFront.url, { network: bare }).validateKey())
    expect(e).toMatchObject({ errorCode: 'proxy_auth_required', configuration: true, retryable: false })
    expect(e.message).toMatch(/asks for a user name and password \(407\)/)
    const withCreds = new Network({
      proxy: { mode: 'manual', url: proxy.url },
      extraCaPem: rig.ca.caPem,
      proxyCredentials: async (origin) => (origin === proxy.url ? { username: 'ann', password: 's3cret-proxy-pw' } : null),
    })
    const c = client(tlsFront.url, { network: withCreds })
    expect(await c.validateKey()).toBeTruthy()
    const report = await c.checkConnection()
    expect(JSON.stringify(report)).not.toContain('s3cret-proxy-pw')
    expect(report.proxy).toBe(proxy.url)
  })
})
