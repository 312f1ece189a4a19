/**
 * The web host's trust boundary, probed as a hostile local program would: raw sockets (no client-side
 * URL normalisation), many spellings of the API paths, each without a token, with a wrong one and
 * with an empty bearer; plus foreign Host and Origin headers with the right token. Every probe must be
 * refused (400, 401, 403 or 404) and no call handler may run, no event stream may open.
 */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CALL_NAMES } from '../../contract'
import { type WebHost, buildRenderer, rendererBuilt } from '../../src-main/web-host'
import { startDemoWebHost } from './helpers'

let host: WebHost
let dir = ''
/** Calls that reached a handler, by name, and event streams that subscribed. */
const ran: string[] = []
let subscriptions = 0
/** The service's own handlers, to look at its state without counting as a probe's call. */
const real: Record<string, (req: unknown) => Promise<unknown>> = {}

beforeAll(async () => {
  if (!rendererBuilt()) expect(buildRenderer()).toBe(true)
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-probe-'))
  host = await startDemoWebHost(dir)
  // Instrument the real service: every handler notes that it ran, then runs as usual.
  const service = host.service as unknown as Record<string, (req: unknown) => Promise<unknown>>
  for (const name of CALL_NAMES) {
    const handler = service[name]!.bind(host.service)
    real[name] = handler
    service[name] = async (req: unknown) => {
      ran.push(name)
      return handler(req)
    }
  }
  const onEvent = host.service.onEvent.bind(host.service)
  host.service.onEvent = (listener) => {
    subscriptions++
    return onEvent(listener)
  }
  await mkdir(join(dir, 'data', 'exports'), { recursive: true })
  await writeFile(join(dir, 'data', 'exports', 'x.csv'), 'secret,history\n')
}, 180_000)

afterAll(async () => {
  await host?.stop()
  if (dir) await rm(dir, { recursive: true, force: true })
})

interface Probe {
  method: string
  target: string
  headers: Record<string, string>
  body?: string
}

/** Sends exactly these bytes and reads the status line (an open event stream never ends by itself). */
function send(p: Probe): Promise<{ status: number; head: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(host.port, '127.0.0.1')
    let text = ''
    const finish = () => {
      const m = /^HTTP\/1\.1 (\d{3})/.exec(text)
      socket.destroy()
      if (m) resolve({ status: Number(m[1]), head: text.split('\r\n\r\n')[0]! })
      else reject(new Error(`no status line for ${p.method} ${p.target}: ${JSON.stringify(text.slice(0, 200))}`))
    }
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => {
      text += chunk
      if (text.includes('\r\n\r\n')) finish()
    })
    socket.on('end', finish)
    socket.on('error', reject)
    const body = p.body ?? ''
    const lines = [`${p.method} ${p.target} HTTP/1.1`]
    for (const [k, v] of Object.entries(p.headers)) lines.push(`${k}: ${v}`)
    if (body) lines.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`)
    lines.push('Connection: close')
    socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`)
  })
}

/** Spellings of the paths of a call, the event stream and a download: none of them is the plain one. */
function spellings(origin: string): { method: 'GET' | 'POST'; target: string }[] {
  const call = (t: string) => ({ method: 'POST' as const, target: t })
  const get = (t: string) => ({ method: 'GET' as const, target: t })
  return [
    // the plain paths themselves
    call('/api/call/setSettings'),
    get('/api/events'),
    get('/api/download/x.csv'),
    // percent-encoded letters
    call('/%61pi/call/setSettings'),
    call('/a%70i/call/setSettings'),
    call('/%61%70%69/call/setSettings'),
    call('/api/c%61ll/setSettings'),
    call('/api/call/%73etSettings'),
    get('/%61pi/events'),
    get('/api/%65vents'),
    get('/api/download/%78.csv'),
    // percent-encoded slashes
    call('/api%2Fcall/setSettings'),
    call('/api%2fcall%2fsetSettings'),
    get('/api%2fevents'),
    // double encoding
    call('/%2561pi/call/setSettings'),
    call('/api/call/%2573etSettings'),
    call('/api%252fcall/setSettings'),
    // dot segments, plain and encoded
    call('/./api/call/setSettings'),
    call('/api/./call/setSettings'),
    call('/x/../api/call/setSettings'),
    call('/api/x/../call/setSettings'),
    call('/%2e/api/call/setSettings'),
    call('/assets/%2e%2e/api/call/setSettings'),
    get('/assets/../api/events'),
    // duplicate and trailing slashes
    call('//api/call/setSettings'),
    call('/api//call/setSettings'),
    call('/api/call//setSettings'),
    call('/api/call/setSettings/'),
    get('/api/events/'),
    get('//api/events'),
    // ; parameters
    call('/api/call/setSettings;x=1'),
    call('/api;x/call/setSettings'),
    call('/api/call;/setSettings'),
    get('/api/events;token=1'),
    // upper and mixed case
    call('/API/call/setSettings'),
    call('/Api/Call/setSettings'),
    call('/api/CALL/setSettings'),
    get('/API/EVENTS'),
    // absolute form
    call(`${origin}/api/call/setSettings`),
    call(`${origin.replace('127.0.0.1', 'localhost')}/api/call/setSettings`),
    call(`${origin.toUpperCase()}/%61pi/call/setSettings`),
    get(`${origin}/api/events`),
    get(`${origin}/api/download/x.csv`),
    // odd bytes
    call('/api/call/setSettings%00'),
    call('/api/call/setSettings%20'),
    call('/api\\call/setSettings'),
  ]
}

const BODY = JSON.stringify({ theme: 'dark' })

describe('web host probe: no token, no call', () => {
  it('has at least 30 spellings of the API paths, and every one is refused without a valid token', async () => {
    const origin = `http://127.0.0.1:${host.port}`
    const list = spellings(origin)
    expect(list.length).toBeGreaterThanOrEqual(30)
    const hostHeader = { Host: `127.0.0.1:${host.port}` }
    const credentials: [string, Record<string, string>, string][] = [
      ['no token', {}, ''],
      ['a wrong token', { Authorization: 'Bearer not-the-token' }, '?token=not-the-token'],
      ['an empty bearer', { Authorization: 'Bearer ' }, '?token='],
      ['a bearer of another scheme', { Authorization: `Basic ${host.token}` }, ''],
    ]
    const accepted: string[] = []
    for (const s of list) {
      for (const [what, headers, query] of credentials) {
        const target = s.method === 'GET' && query ? `${s.target}${query}` : s.target
        const r = await send({
          method: s.method,
          target,
          headers: { ...hostHeader, ...headers },
          ...(s.method === 'POST' ? { body: BODY } : {}),
        })
        if (![400, 401, 403, 404].includes(r.status)) accepted.push(`${s.method} ${target} with ${what}: ${r.status}`)
      }
    }
    expect(accepted).toEqual([])
    expect(ran).toEqual([])
    expect(subscriptions).toBe(0)
  })

  it('other methods and the asterisk form are refused too, without a token', async () => {
    const hostHeader = { Host: `127.0.0.1:${host.port}` }
    const targets = ['/api/call/setSettings', '/%61pi/call/setSettings', '/api/events', '/api/download/x.csv', '/api/']
    for (const method of ['HEAD', 'OPTIONS', 'PUT', 'PATCH', 'DELETE', 'TRACE']) {
      for (const target of targets) {
        const r = await send({ method, target, headers: hostHeader, ...(method === 'PUT' || method === 'PATCH' ? { body: BODY } : {}) })
        expect([400, 401, 403, 404, 405], `${method} ${target}: ${r.status}`).toContain(r.status)
      }
    }
    const star = await send({ method: 'OPTIONS', target: '*', headers: hostHeader })
    expect(star.status).toBe(400)
    // Absolute form is refused even with the right token: the route must be the one the path names.
    const absolute = await send({
      method: 'POST',
      target: `http://127.0.0.1:${host.port}/api/call/setSettings`,
      headers: { ...hostHeader, Authorization: `Bearer ${host.token}` },
      body: BODY,
    })
    expect(absolute.status).toBe(400)
    expect(ran).toEqual([])
    expect(subscriptions).toBe(0)
  })

  it('refuses a foreign Host or Origin even with the right token', async () => {
    const bearer = { Authorization: `Bearer ${host.token}` }
    const own = `127.0.0.1:${host.port}`
    const probes: Probe[] = []
    for (const target of ['/api/call/setSettings', '/%61pi/call/setSettings', `/api/events?token=${host.token}`]) {
      const method = target.includes('events') ? 'GET' : 'POST'
      const body = method === 'POST' ? BODY : undefined
      for (const h of [`evil.example:${host.port}`, 'evil.example', `127.0.0.1:${host.port + 1}`, `0.0.0.0:${host.port}`, '']) {
        probes.push({ method, target, headers: { Host: h, ...bearer }, ...(body ? { body } : {}) })
      }
      for (const o of ['http://evil.example', 'null', `http://127.0.0.1:${host.port + 1}`, `https://127.0.0.1:${host.port}`]) {
        probes.push({ method, target, headers: { Host: own, Origin: o, ...bearer }, ...(body ? { body } : {}) })
      }
    }
    for (const p of probes) {
      const r = await send(p)
      expect(r.status, `${p.method} ${p.target} ${JSON.stringify(p.headers)}`).toBe(403)
    }
    expect(ran).toEqual([])
    expect(subscriptions).toBe(0)
  })

  it('regression: a percent-encoded letter in /api no longer walks around the token check', async () => {
    // Before the API had its own authenticated scope, the check looked at the raw URL ("/%61pi/…"
    // does not start with "/api/") while the router decoded it and ran the call anyway.
    const getSettings = real['getSettings'] as () => Promise<{ theme: string }>
    const before = await getSettings()
    const r = await send({
      method: 'POST',
      target: '/%61pi/call/setSettings',
      headers: { Host: `127.0.0.1:${host.port}` },
      body: JSON.stringify({ theme: before.theme === 'dark' ? 'light' : 'dark' }),
    })
    expect(r.status).toBe(401)
    expect((await getSettings()).theme).toBe(before.theme)
    expect(ran).toEqual([])
    const events = await send({ method: 'GET', target: '/%61pi/events', headers: { Host: `127.0.0.1:${host.port}` } })
    expect(events.status).toBe(401)
    expect(subscriptions).toBe(0)
  })

  it('with the token, the plain spelling still works (the probes were refused for the right reason)', async () => {
    const r = await send({
      method: 'POST',
      target: '/api/call/getAppInfo',
      headers: { Host: `127.0.0.1:${host.port}`, Authorization: `Bearer ${host.token}` },
      body: '{}',
    })
    expect(r.status).toBe(200)
    expect(ran).toEqual(['getAppInfo'])
    ran.length = 0
  })
})

describe('web host limits', () => {
  it('takes at most 1 MiB of body for a call that carries no file, and the file calls keep their limit', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(1024 * 1024), environment: 'custom', kind: 'business', secret: 'x' })
    const r = await send({
      method: 'POST',
      target: '/api/call/addProfile',
      headers: { Host: `127.0.0.1:${host.port}`, Authorization: `Bearer ${host.token}` },
      body: big,
    })
    expect(r.status).toBe(413)
    // 2 MiB of file bytes are fine on a file call (it answers, whatever the engine then decides).
    const file = Buffer.alloc(2 * 1024 * 1024, 65).toString('base64')
    const ok = await send({
      method: 'POST',
      target: '/api/call/addFileContents',
      headers: { Host: `127.0.0.1:${host.port}`, Authorization: `Bearer ${host.token}` },
      body: JSON.stringify({ target: 'expenses', files: [{ name: 'big.txt', base64: file }] }),
    })
    expect(ok.status).toBe(200)
    expect(ran).toEqual(['addFileContents'])
    ran.length = 0
  })
})
