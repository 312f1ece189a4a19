/**
 * The web host over real HTTP on 127.0.0.1: token, Origin and Host guards, calls, server-sent
 * events, downloads, static files with their headers, and the CLI's ready line.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { DOWNLOAD_TICKET_TTL_MS, type WebHost, WEB_HOST_CSP, buildRenderer, rendererBuilt } from '../../src-main/web-host'
import { createHttpBridge } from '../../src-renderer/lib/bridge'
import { SECRET_SHAPE, b64, freePort, receiptText, startDemoWebHost, waitFor } from './helpers'

const ROOT = join(import.meta.dirname, '..', '..')

beforeAll(() => {
  // The host serves the built renderer: build it once if this checkout has none yet.
  if (!rendererBuilt()) expect(buildRenderer()).toBe(true)
}, 180_000)

let host: WebHost | null = null
let dir = ''
afterEach(async () => {
  await host?.stop()
  host = null
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = ''
})

async function start(): Promise<WebHost> {
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-web-'))
  host = await startDemoWebHost(dir)
  return host
}

interface Raw {
  status: number
  headers: Record<string, string | string[] | undefined>
  body: string
}

/** A request with exactly the headers given (Host included), which fetch would not allow. */
function raw(
  port: number,
  opts: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: opts.method ?? 'GET',
        path: opts.path,
        headers: opts.headers,
        setHost: false,
      },
      (res) => {
        let body = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (body += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end(opts.body)
  })
}

function callReq(
  h: WebHost,
  name: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Raw> {
  return raw(h.port, {
    method: 'POST',
    path: `/api/call/${name}`,
    headers: {
      Host: `127.0.0.1:${h.port}`,
      'Content-Type': 'application/json',
      Authorization: `Bearer ${h.token}`,
      ...headers,
    },
    body: JSON.stringify(body),
  })
}

describe('web host', () => {
  it('refuses requests without the token (401), from other origins (403) and with other Host headers (403)', async () => {
    const h = await start()
    const noToken = await fetch(`${h.origin}/api/call/getAppInfo`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    })
    expect(noToken.status).toBe(401)
    expect(await noToken.json()).toMatchObject({ ok: false, error: { code: 'unauthorized' } })
    const wrongToken = await callReq(h, 'getAppInfo', {}, { Authorization: 'Bearer nope' })
    expect(wrongToken.status).toBe(401)
    const events = await fetch(`${h.origin}/api/events`)
    expect(events.status).toBe(401)

    const foreign = await callReq(h, 'getAppInfo', {}, { Origin: 'http://evil.example' })
    expect(foreign.status).toBe(403)
    expect(JSON.parse(foreign.body)).toMatchObject({ ok: false, error: { code: 'forbidden_origin' } })
    const otherPort = await callReq(h, 'getAppInfo', {}, { Origin: `http://127.0.0.1:${h.port + 1}` })
    expect(otherPort.status).toBe(403)

    for (const badHost of ['evil.example', `evil.example:${h.port}`, `127.0.0.1:${h.port + 1}`, '']) {
      const r = await callReq(h, 'getAppInfo', {}, { Host: badHost })
      expect(r.status, badHost).toBe(403)
    }
    const staticRebind = await raw(h.port, { path: '/', headers: { Host: `rebind.example:${h.port}` } })
    expect(staticRebind.status).toBe(403)
    expect(staticRebind.body).not.toContain('<div id="root">')
  })

  it('answers calls with the Result of the bridge, same origin or localhost', async () => {
    const h = await start()
    const r = await callReq(h, 'getAppInfo', {}, { Origin: h.origin })
    expect(r.status).toBe(200)
    expect(r.headers['cache-control']).toBe('no-store')
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, value: { host: 'web', demo: true } })
    const viaLocalhost = await callReq(
      h,
      'listProfiles',
      {},
      { Host: `localhost:${h.port}`, Origin: `http://localhost:${h.port}` },
    )
    expect(JSON.parse(viaLocalhost.body).value.profiles).toHaveLength(2)
    const invalid = await callReq(h, 'retryUpload', { id: 'x' })
    expect(JSON.parse(invalid.body)).toMatchObject({ ok: false, error: { code: 'invalid_request' } })
    const unknown = await callReq(h, 'doesNotExist', {})
    expect(unknown.status).toBe(404)
    expect(JSON.parse(unknown.body)).toMatchObject({ ok: false, error: { code: 'unknown_call' } })
    const notJson = await callReq(h, 'getAppInfo', {}, { 'Content-Type': 'text/plain' })
    expect(notJson.status).toBe(415)
    expect(JSON.parse(notJson.body).ok).toBe(false)
  })

  it("the renderer's HTTP bridge works against it, and a dead host is a 'network' Result", async () => {
    const h = await start()
    const api = createHttpBridge({ baseUrl: h.origin, token: h.token })
    const list = await api.listProfiles({})
    expect(list.ok && list.value.profiles.map((p) => p.name)).toEqual([
      'Demo Bakery (demo)',
      'Demo Partner (demo)',
    ])
    const invoices = await api.listInvoices({ page: 1, limit: 2 })
    expect(invoices.ok && invoices.value.meta).toMatchObject({ page: 1, limit: 2, total: 3 })
    const refused = await createHttpBridge({ baseUrl: h.origin, token: 'wrong' }).getAppInfo({})
    expect(refused.ok ? null : refused.error.code).toBe('unauthorized')
    const port = await freePort()
    const dead = await createHttpBridge({ baseUrl: `http://127.0.0.1:${port}`, token: 'x' }).getAppInfo({})
    expect(dead.ok ? null : dead.error.code).toBe('network')
  })

  it('server-sent events deliver an upload event after addFileContents', async () => {
    const h = await start()
    const ctrl = new AbortController()
    const res = await fetch(`${h.origin}/api/events?token=${h.token}`, { signal: ctrl.signal })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/)
    let text = ''
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    const pump = (async () => {
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) return
          text += decoder.decode(value, { stream: true })
        }
      } catch {
        // aborted
      }
    })()
    await waitFor('the stream to open', () => text.includes(': connected'))
    const add = await callReq(h, 'addFileContents', {
      target: 'expenses',
      files: [{ name: 'sse.txt', base64: b64(receiptText('sse')) }],
    })
    expect(JSON.parse(add.body).ok).toBe(true)
    await waitFor('a completed upload event', () => /event: upload\ndata: .*"status":"completed"/.test(text))
    const first = /event: upload\ndata: (.*)\n\n/.exec(text)
    expect(JSON.parse(first![1]!)).toMatchObject({ upload: { name: 'sse.txt' }, previous: null })
    expect(text).toMatch(/event: session\ndata: /)
    expect(text).not.toMatch(SECRET_SHAPE)
    ctrl.abort()
    await pump
  })

  it('exports history as a CSV the browser downloads by a single-use ticket, the token in no URL', async () => {
    const h = await start()
    const res = JSON.parse((await callReq(h, 'exportHistory', { filter: {} })).body)
    expect(res).toMatchObject({ ok: true, value: { rows: 0 } })
    const url: string = res.value.downloadUrl
    // The link names a ticket, never the token (download history, the file's "where from").
    expect(url).toMatch(/^\/api\/download\/[A-Za-z0-9_-]{32}$/)
    expect(url).not.toContain(h.token)
    const dl = await fetch(`${h.origin}${url}`)
    expect(dl.status).toBe(200)
    expect(dl.headers.get('content-disposition')).toMatch(/^attachment; filename="history-[\w.-]+\.csv"$/)
    expect(dl.headers.get('cache-control')).toBe('no-store')
    expect((await dl.text()).split('\r\n')[0]).toMatch(/^id,created_at,file,/)
    // Once: the same link (kept in the browser's history) opens nothing any more.
    const again = await fetch(`${h.origin}${url}`)
    expect(again.status).toBe(404)
    expect(((await again.json()) as { error: { message: string } }).error.message).toMatch(/used already or has expired: export the history again/)
    // No other way in: a file name, a traversal, a made-up ticket, the token itself.
    const file = (dl.headers.get('content-disposition') ?? '').replace(/^.*filename="|"$/g, '')
    for (const path of [`/api/download/${file}`, `/api/download/${file}?token=${h.token}`, '/api/download/..%2F..%2Fprofiles.json', `/api/download/${h.token}`, `/api/download/${'A'.repeat(32)}`]) {
      const r = await raw(h.port, { path, headers: { Host: `127.0.0.1:${h.port}` } })
      expect(r.status, path).toBe(404)
    }
    // A HEAD does not spend a ticket.
    const second: string = JSON.parse((await callReq(h, 'exportHistory', { filter: {} })).body).value.downloadUrl
    expect((await raw(h.port, { method: 'HEAD', path: second, headers: { Host: `127.0.0.1:${h.port}` } })).status).toBe(401)
    expect((await fetch(`${h.origin}${second}`)).status).toBe(200)
  })

  it('a download link expires unused', async () => {
    const h = await start()
    const url: string = JSON.parse((await callReq(h, 'exportHistory', { filter: {} })).body).value.downloadUrl
    const realNow = Date.now
    Date.now = () => realNow() + DOWNLOAD_TICKET_TTL_MS + 1000
    try {
      expect((await fetch(`${h.origin}${url}`)).status).toBe(404)
    } finally {
      Date.now = realNow
    }
  })

  it('serves the built renderer with the CSP, nosniff and no-referrer, and nothing outside it', async () => {
    const h = await start()
    const page = await fetch(h.url)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(page.headers.get('content-security-policy')).toBe(WEB_HOST_CSP)
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('referrer-policy')).toBe('no-referrer')
    const html = await page.text()
    expect(html).toContain('<div id="root">')
    const script = /src="\.?(\/assets\/[^"]+\.js)"/.exec(html)?.[1]
    expect(script).toBeTruthy()
    const js = await fetch(`${h.origin}${script}`)
    expect(js.status).toBe(200)
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/)
    // A client-side route gets the page; a missing file is a 404; nothing outside out/renderer.
    expect((await fetch(`${h.origin}/history`)).status).toBe(200)
    expect((await fetch(`${h.origin}/assets/missing.js`)).status).toBe(404)
    // The browser's automatic icon request is answered with the app icon (no 404 in the console).
    const icon = await fetch(`${h.origin}/favicon.ico`)
    expect(icon.status).toBe(200)
    expect(icon.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await icon.arrayBuffer()).subarray(1, 4).toString()).toBe('PNG')
    for (const path of [
      '/../../package.json',
      '/..%2f..%2fpackage.json',
      '/%2e%2e/%2e%2e/package.json',
      '/assets/..%2f..%2f..%2fpackage.json',
    ]) {
      const r = await raw(h.port, { path, headers: { Host: `127.0.0.1:${h.port}` } })
      expect(r.body, path).not.toContain('"name": "bookdrop"')
    }
  })
})

describe('npm run web (the CLI)', () => {
  let child: ChildProcess | null = null
  let cliDir = ''
  /** npx → sh → tsx → node: signals go to the whole process group, as a terminal's Ctrl+C does. */
  const groupAlive = (pid: number) => {
    try {
      process.kill(-pid, 0)
      return true
    } catch {
      return false
    }
  }
  afterAll(async () => {
    if (child?.pid && groupAlive(child.pid)) process.kill(-child.pid, 'SIGKILL')
    if (cliDir) await rm(cliDir, { recursive: true, force: true })
  })

  it('prints exactly one line `open http://127.0.0.1:<n>/?token=<token>` once ready, serves, and stops cleanly on SIGTERM', async () => {
    cliDir = await mkdtemp(join(tmpdir(), 'bookdrop-web-cli-'))
    const dataDir = join(cliDir, 'data')
    const port = await freePort()
    child = spawn(
      'npx',
      ['tsx', 'src-main/web-host.ts', '--port', String(port), '--demo', '--data-dir', dataDir],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
        env: { ...process.env, BOOKDROP_API_KEY: '' },
      },
    )
    const pid = child.pid!
    let out = ''
    let err = ''
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (out += c))
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (err += c))
    const line = await waitFor(
      `the ready line (stderr so far: ${err})`,
      () => /^open .*\n/m.exec(out)?.[0],
      60_000,
    )
    expect(line).toMatch(new RegExp(`^open http://127\\.0\\.0\\.1:${port}/\\?token=[A-Za-z0-9_-]{32}\\n$`))
    const token = /token=([A-Za-z0-9_-]+)/.exec(line)![1]!
    const res = await fetch(`http://127.0.0.1:${port}/api/call/listProfiles`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: '{}',
    })
    const body = (await res.json()) as { ok: boolean; value: { profiles: { name: string }[] } }
    expect(body.value.profiles.map((p) => p.name)).toEqual(['Demo Bakery (demo)', 'Demo Partner (demo)'])

    process.kill(-pid, 'SIGTERM')
    await waitFor('every process of the group to exit', () => !groupAlive(pid), 20_000)
    // Stopped by its own handler (engine and emulator closed), not killed by the signal.
    expect(err).toContain('SIGTERM, stopping')
    expect(err).toContain('bookdrop: stopped')
    expect(err).not.toMatch(/Error|at .*\.ts:\d+/)
    expect(out.split('\n').filter(Boolean)).toEqual([line.trim()])
  }, 90_000)
})
