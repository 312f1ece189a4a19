/**
 * The engine on the networks a laptop meets (issue 22): real files, real SQLite, the emulator over
 * HTTP behind a real server that answers in its place (a portal, an ingress page, a redirect, a
 * foreign JSON, an answer of 600 MB, an outage), and an https server signed by an authority of its
 * own. A receipt ends only on the API's own word; without it, it waits and is sent once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BookkeepingClient } from '../../src-main/core/api'
import { Network } from '../../src-main/core/api/network'
import type { ClientProvider } from '../../src-main/core/queue/queue'
import { type Sandbox, startSandbox } from '../../sandbox'
import { KEY, PROFILE, type Rig, createdBySha, fixtures, receipt, rig, waitFor } from '../engine/helpers'
import { type Behaviour, type Front, makeTestCa, startFront } from './path-servers'

/** Waiting for the path: tries every 20–100 ms here, where a person's laptop waits 1–30 s. */
const FAST_PATH = { connectionRetry: { baseMs: 20, capMs: 100 }, jobNotFoundGraceMs: 50 }

let sb: Sandbox
let front: Front
let r: Rig | undefined
const cleanups: (() => Promise<void> | void)[] = []

beforeEach(async () => {
  sb = await startSandbox({ fixtures: fixtures({ job_delay_ms: 30 }), port: 0 })
  front = await startFront(sb.origin)
})

afterEach(async () => {
  await r?.close()
  r = undefined
  for (const c of cleanups.splice(0)) await c()
  await front.stop()
  await sb.stop()
})

function provider(baseUrl: string, network?: Network): ClientProvider {
  return {
    clientFor: async (_id, onRateLimit) =>
      new BookkeepingClient({
        environment: 'custom',
        baseUrl,
        auth: { key: KEY },
        ...(network ? { network } : {}),
        onResponse: (i) => i.rateLimit && onRateLimit(i.rateLimit),
      }),
  }
}

async function start(queue: Record<string, unknown> = {}, clients = provider(front.url)): Promise<Rig> {
  r = await rig({ sandbox: sb, clients, engine: { queue: { ...FAST_PATH, ...queue } } })
  return r
}

const drop = (paths: string[]) => r!.engine.addFiles(paths, { profileId: PROFILE, target: 'expenses' })
const rows = () => r!.engine.history({ order: 'asc' }).rows
const posts = () => front.seen.filter((s) => s.method === 'POST').length
const polls = () => front.seen.filter((s) => s.url.startsWith('/v1/jobs/')).length
/** The front answers the first create with `b`, and passes everything else. */
function firstCreate(b: Behaviour): void {
  let first = true
  front.behave = (q) => {
    if (q.method !== 'POST' || !first) return 'pass'
    first = false
    return b
  }
}

describe('only the API’s own word ends a receipt', () => {
  it('a Wi-Fi login page (HTML 200) or an empty 200 on a create: the files wait, no attempt used, then are sent once', async () => {
    await start()
    let n = 0
    front.behave = (q) =>
      q.method === 'POST' ? (n++ % 2 === 0 ? { html: '', title: 'Hotel WiFi Login' } : { text: '' }) : 'pass'
    const a = await receipt(r!.inbox, 'a.txt')
    const b = await receipt(r!.inbox, 'b.txt')
    await drop([a.path, b.path])
    await waitFor('several tries through the portal', () => posts() >= 8)
    for (const u of rows()) {
      expect(u.status).toBe('waiting_retry')
      expect(u.attempts).toBe(0)
      expect(u.lastError).toMatch(/a web page \("Hotel WiFi Login"\)|an empty answer/)
      expect(u.lastError).toMatch(/same Idempotency-Key/)
    }
    const state = r!.engine.profileState(PROFILE)
    expect(state.state).toBe('not_api')
    expect(state.message).toMatch(/instead of the API's answer.*nothing is lost/)
    // Every try of a file carried its one key.
    const keys = new Set(front.seen.filter((s) => s.method === 'POST').map((s) => s.idempotencyKey))
    expect(keys.size).toBe(2)

    front.behave = () => 'pass'
    await r!.engine.whenIdle()
    expect(rows().map((u) => u.status)).toEqual(['completed', 'completed'])
    expect(rows().every((u) => u.recordUuid)).toBe(true)
    const made = await createdBySha(sb)
    expect(made.get(a.sha256)).toBe(1)
    expect(made.get(b.sha256)).toBe(1)
    expect(r!.engine.profileState(PROFILE).state).toBe('active')
    expect(r!.events.profile.map((p) => p.state)).toEqual(['not_api', 'active'])
  })

  it('a portal’s 302 or an ingress’s HTML 404 while a job is followed: still followed past the 404 grace, then linked to its record', async () => {
    await start()
    let n = 0
    front.behave = (q) =>
      q.url.startsWith('/v1/jobs/')
        ? n++ % 2 === 0
          ? { redirect: 'http://portal.hotel.example/login' }
          : { html: '', status: 404, title: '404 Not Found' }
        : 'pass'
    const f = await receipt(r!.inbox, 'job.txt')
    await drop([f.path])
    await waitFor('polls through the deploy, past the 404 grace', () => polls() >= 8)
    await new Promise((s) => setTimeout(s, 100))
    const waiting = rows()[0]!
    expect(waiting.status).toBe('processing')
    expect(waiting.recordUuid).toBeNull()
    expect(waiting.lastError).toMatch(/redirect \(302\)|a web page/)
    expect(r!.engine.profileState(PROFILE).state).toBe('not_api')

    front.behave = () => 'pass'
    await r!.engine.whenIdle()
    const done = rows()[0]!
    expect(done.status).toBe('completed')
    expect(done.recordUuid).toBeTruthy()
    expect(done.errorCode).toBeNull()
    expect((await createdBySha(sb)).get(f.sha256)).toBe(1)
  })

  it('a 200 that is JSON but not the API’s answer ("Scheduled maintenance"), on the create and then on the poll: nothing ends', async () => {
    await start()
    const maintenance = { json: { status: 'success', message: 'Scheduled maintenance' } } as const
    front.behave = (q) => (q.method === 'POST' ? maintenance : 'pass')
    const f = await receipt(r!.inbox, 'm.txt')
    await drop([f.path])
    // Four tries seen by the front, the last one answered (between tries the row waits; during one
    // it is uploading, whose answer the engine has not read yet when the front counts the POST).
    await waitFor('tries of the create', () => posts() >= 4 && rows()[0]?.status === 'waiting_retry')
    expect(rows()[0]).toMatchObject({ status: 'waiting_retry', attempts: 0 })
    expect(rows()[0]!.lastError).toMatch(/"Scheduled maintenance"/)
    expect(await createdBySha(sb)).toEqual(new Map())

    // The create gets through; now the job's answers are the maintenance notice (more polls than the
    // unknown-status limit of 10).
    front.behave = (q) => (q.url.startsWith('/v1/jobs/') ? maintenance : 'pass')
    await waitFor('polls answered by the notice', () => polls() >= 14, 20_000)
    expect(rows()[0]).toMatchObject({ status: 'processing', recordUuid: null })

    front.behave = () => 'pass'
    await r!.engine.whenIdle()
    expect(rows()[0]).toMatchObject({ status: 'completed', errorCode: null })
    expect(rows()[0]!.recordUuid).toBeTruthy()
    expect((await createdBySha(sb)).get(f.sha256)).toBe(1)
  })
})

describe('the status code speaks first', () => {
  const probes = () => front.seen.filter((s) => s.url === '/v1/auth/validate').length
  const page503 = (headers: Record<string, string>) =>
    ({ html: '', status: 503, title: 'Down for maintenance', headers }) as const

  it('an ingress’s HTML 503 with Retry-After (3 s, then an HTTP date): nothing is asked before it, a light probe goes instead of the file, the banner names the 503', async () => {
    await start()
    let until = 0
    front.behave = () => page503({ 'retry-after': '3' })
    const f = await receipt(r!.inbox, 'down.txt')
    await drop([f.path])
    await waitFor('the try after Retry-After', () => front.seen.length >= 2, 10_000)
    const [first, second] = front.seen
    expect(first!.method).toBe('POST')
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(2990)
    // The try after the page is a light question, not the file again.
    expect(second).toMatchObject({ method: 'GET', url: '/v1/auth/validate', bytes: 0 })
    const state = r!.engine.profileState(PROFILE)
    expect(state.state).toBe('unreachable')
    expect(state.message).toMatch(/^The server answered 503 Service Unavailable \(a web page \("Down for maintenance"\), not the API\)/)
    expect(state.message).toMatch(/failing.*tries again by itself.*nothing is lost/)
    expect(state.message).not.toMatch(/Wi-Fi|login page|proxy/)
    expect(rows()[0]).toMatchObject({ status: 'waiting_retry', attempts: 0, errorCode: 'server_error_page' })

    // An HTTP date, 3 to 4 s ahead of the answer.
    front.behave = () => {
      until ||= (Math.floor(Date.now() / 1000) + 4) * 1000
      return page503({ 'retry-after': new Date(until).toUTCString() })
    }
    const n = front.seen.length
    await waitFor('the try after the date', () => front.seen.length >= n + 2, 10_000)
    expect(front.seen[n + 1]!.at).toBeGreaterThanOrEqual(until - 10)
    expect(posts()).toBe(1)

    front.behave = () => 'pass'
    await r!.engine.whenIdle()
    expect(rows()[0]).toMatchObject({ status: 'completed', attempts: 1 })
    expect((await createdBySha(sb)).get(f.sha256)).toBe(1)
    expect(posts()).toBe(2)
    expect(r!.engine.profileState(PROFILE).state).toBe('active')
  })

  it('while a 502 page lasts, each try is a light probe: the file is sent once before and once after, not on every try', async () => {
    await start()
    front.behave = () => ({ html: '', status: 502, title: '502 Bad Gateway' })
    const f = await receipt(r!.inbox, 'gw.txt', Buffer.alloc(200 * 1024, 'r'))
    await drop([f.path])
    await waitFor('tries through the outage', () => probes() >= 8)
    expect(posts()).toBe(1)
    const sent = front.seen.filter((s) => s.method === 'POST').reduce((n, s) => n + s.bytes, 0)
    expect(sent).toBeGreaterThan(200 * 1024)
    expect(sent).toBeLessThan(2 * 200 * 1024)
    expect(rows()[0]).toMatchObject({ status: 'waiting_retry', attempts: 0 })
    expect(r!.engine.profileState(PROFILE).message).toMatch(/^The server answered 502 Bad Gateway \(a web page \("502 Bad Gateway"\), not the API\)/)

    front.behave = () => 'pass'
    await r!.engine.whenIdle()
    expect(rows()[0]!.status).toBe('completed')
    expect(posts()).toBe(2)
    expect((await createdBySha(sb)).get(f.sha256)).toBe(1)
  })

  it('a 503 page met by a person’s own call holds the uploads the same way: its Retry-After, then a probe before the file', async () => {
    await start()
    const client = new BookkeepingClient({
      environment: 'custom',
      baseUrl: front.url,
      auth: { key: KEY },
      onConnection: (e) => r!.engine.noteConnection(PROFILE, e),
    })
    front.behave = () => page503({ 'retry-after': '2' })
    await expect(client.getJob('job_1')).rejects.toMatchObject({ errorCode: 'server_error_page' })
    const answered = Date.now()
    expect(r!.engine.profileState(PROFILE).message).toMatch(/^The server answered 503 Service Unavailable/)
    front.behave = () => 'pass'
    const f = await receipt(r!.inbox, 'after-call.txt')
    await drop([f.path])
    await r!.engine.whenIdle()
    const [, probe, create] = front.seen
    expect(probe).toMatchObject({ method: 'GET', url: '/v1/auth/validate' })
    expect(probe!.at - answered).toBeGreaterThanOrEqual(1990)
    expect(create).toMatchObject({ method: 'POST' })
    expect(rows()[0]).toMatchObject({ status: 'completed', attempts: 1 })
  })

  it('a Retry-After longer than the usual wait is named, and obeyed until the network comes back', async () => {
    await start()
    front.behave = () => page503({ 'retry-after': '150' })
    const f = await receipt(r!.inbox, 'later.txt')
    await drop([f.path])
    await waitFor('the wait', () => r!.engine.profileState(PROFILE).state === 'unreachable')
    expect(r!.engine.profileState(PROFILE).message).toMatch(/tries again by itself in 3 min, as the server asked; nothing is lost/)
    await new Promise((s) => setTimeout(s, 300))
    expect(front.seen).toHaveLength(1)
    front.behave = () => 'pass'
    r!.engine.networkChanged(true)
    await r!.engine.whenIdle()
    expect(rows()[0]!.status).toBe('completed')
  })

  it('an HTML 413 ends the row as failed, too large for the server, with its size; not sent again', async () => {
    await start()
    front.behave = (q) => (q.method === 'POST' ? { html: '', status: 413, title: '413 Request Entity Too Large' } : 'pass')
    const f = await receipt(r!.inbox, 'big.txt', Buffer.alloc(1536 * 1024, 'b'))
    await drop([f.path])
    await r!.engine.whenIdle()
    await new Promise((s) => setTimeout(s, 300))
    const u = rows()[0]!
    expect(u).toMatchObject({ status: 'failed', errorCode: 'request_too_large', httpStatus: 413 })
    expect(u.lastError).toMatch(/^Too large for the server: 1\.5 MB\. The server answered 413 Payload Too Large \(a web page/)
    expect(u.lastError).toMatch(/Send a smaller file/)
    expect(posts()).toBe(1)
    expect(r!.engine.profileState(PROFILE).state).toBe('active')
    expect(await createdBySha(sb)).toEqual(new Map())
  })

  it('the API’s own JSON 500 keeps its rule: an attempt used, retried without a probe, the profile stays active', async () => {
    await start()
    firstCreate({ json: { status: 'failed', message: 'Internal error' }, status: 500 })
    const f = await receipt(r!.inbox, 'api500.txt')
    await drop([f.path])
    await r!.engine.whenIdle()
    expect(rows()[0]).toMatchObject({ status: 'completed', attempts: 2 })
    expect(probes()).toBe(0)
    expect(r!.events.profile.map((p) => p.state)).toEqual([])
    expect((await createdBySha(sb)).get(f.sha256)).toBe(1)
  })
})

describe('offline is waiting, not failing', () => {
  it('an outage far longer than the retry policy (connections dropped ~100 times): every receipt is sent once, none failed', async () => {
    await start({ maxAttempts: 25, connectionRetry: { baseMs: 5, capMs: 20 } })
    front.behave = () => 'reset'
    const files = await Promise.all(['o1.txt', 'o2.txt', 'o3.txt'].map((n) => receipt(r!.inbox, n)))
    await drop(files.map((f) => f.path))
    // Three files × 25 attempts would have failed them all by now. (Rows go back to uploading for
    // each try, every few ms: the check is made at a moment when none is on its way.)
    await waitFor(
      'an outage of about 100 tries',
      () => front.seen.length >= 100 && rows().every((u) => u.status !== 'uploading'),
      30_000,
    )
    expect(rows().map((u) => u.status)).toEqual(['waiting_retry', 'waiting_retry', 'waiting_retry'])
    expect(rows().every((u) => u.attempts === 0)).toBe(true)
    expect(r!.engine.profileState(PROFILE)).toMatchObject({ state: 'unreachable' })
    expect(r!.engine.profileState(PROFILE).message).toMatch(/Could not reach 127\.0\.0\.1.*tries again by itself/)

    front.behave = () => 'pass'
    await r!.engine.whenIdle()
    expect(rows().map((u) => u.status)).toEqual(['completed', 'completed', 'completed'])
    const made = await createdBySha(sb)
    for (const f of files) expect(made.get(f.sha256)).toBe(1)
  })

  it('the OS saying the network is back resumes at once, without waiting for the next try (30 s here)', async () => {
    await start({ connectionRetry: { baseMs: 30_000, capMs: 30_000 } })
    await front.down()
    const f = await receipt(r!.inbox, 'back.txt')
    await drop([f.path])
    await waitFor('unreachable', () => r!.engine.profileState(PROFILE).state === 'unreachable')
    r!.engine.networkChanged(false)
    expect(r!.engine.profileState(PROFILE)).toMatchObject({ state: 'offline' })
    expect(r!.engine.profileState(PROFILE).message).toMatch(/offline.*nothing is lost/)
    await front.up()
    const back = Date.now()
    r!.engine.networkChanged(true)
    await r!.engine.whenIdle()
    expect(Date.now() - back).toBeLessThan(5000)
    expect(rows()[0]!.status).toBe('completed')
    expect((await createdBySha(sb)).get(f.sha256)).toBe(1)
  })
})

describe('bounded answers', () => {
  it('an answer of 600 MB to a create: read to 16 MB, counted as a server problem, nothing crashes; sent once afterwards', async () => {
    await start()
    firstCreate({ huge: 600 * 1024 * 1024 })
    const f = await receipt(r!.inbox, 'huge.txt')
    await drop([f.path])
    await r!.engine.whenIdle()
    const u = rows()[0]!
    expect(u.status).toBe('completed')
    expect(front.hugeWritten()).toBeLessThan(80 * 1024 * 1024)
    // The first try met the huge answer: it was the server's answer, so it used an attempt.
    expect(u.attempts).toBe(2)
    expect((await createdBySha(sb)).get(f.sha256)).toBe(1)
  })
})

describe('certificates', () => {
  it('a server signed by an authority this computer does not trust: the file waits (not retried, not failed) with the issuer named; trusting it sends the file', async () => {
    const ca = makeTestCa()
    cleanups.push(() => ca.dispose())
    const tls = await startFront(sb.origin, { tls: { key: ca.key, cert: ca.cert }, host: 'localhost' })
    cleanups.push(() => tls.stop())
    const network = new Network({ proxy: { mode: 'none' } })
    await start({}, provider(tls.url, network))
    const f = await receipt(r!.inbox, 'tls.txt')
    await drop([f.path])
    await waitFor('the certificate problem', () => r!.engine.profileState(PROFILE).state === 'not_api')
    const state = r!.engine.profileState(PROFILE)
    expect(state.message).toMatch(/signed by Bookdrop Test CA \(Bookdrop Tests\), which this computer does not trust/)
    expect(state.message).toMatch(/Uploads wait until this is fixed/)
    await new Promise((s) => setTimeout(s, 500))
    // One handshake, no retries (a setting must change first), and the file is not failed.
    expect(rows()[0]).toMatchObject({ status: 'waiting_retry', attempts: 0, errorCode: 'certificate_error' })
    expect(tls.seen).toEqual([])

    network.update({ extraCaPem: ca.caPem })
    r!.engine.networkChanged(true)
    await r!.engine.whenIdle()
    expect(rows()[0]!.status).toBe('completed')
    expect((await createdBySha(sb)).get(f.sha256)).toBe(1)
  })
})
