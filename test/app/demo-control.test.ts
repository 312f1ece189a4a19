/**
 * The embedded emulator is not a door (issue 23). In demo mode the emulator runs inside the app,
 * and its control routes (/_sandbox/*: the log of every upload, fault injection, the clock) answer
 * only a request to the loopback address that carries this run's secret, which the app holds and
 * uses. Any other local program, or a web page that rebinds a name to 127.0.0.1, is refused. The
 * standalone emulator (`npm run sandbox`) keeps them open on loopback: scripts and tests drive it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { type Sandbox, startSandbox } from '../../sandbox'
import { type WebHost, buildRenderer, rendererBuilt } from '../../src-main/web-host'
import { b64, fixtures, receiptText, startDemoWebHost, waitFor } from './helpers'

/** GET or POST with exactly these headers (Host included). */
function raw(
  origin: string,
  path: string,
  headers: Record<string, string>,
  method = 'GET',
  body?: string,
): Promise<{ status: number; body: string }> {
  const u = new URL(origin)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: Number(u.port),
        method,
        path,
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        setHost: false,
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (c: string) => (text += c))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

let host: WebHost | null = null
let sb: Sandbox | null = null
let dir = ''
afterEach(async () => {
  await host?.stop()
  await sb?.stop()
  host = null
  sb = null
  if (dir) await rm(dir, { recursive: true, force: true })
  dir = ''
})

describe('the emulator inside the app (demo mode)', () => {
  it('answers its control routes only with this run’s secret and the loopback Host; the app uses them with it', async () => {
    if (!rendererBuilt()) expect(buildRenderer()).toBe(true)
    dir = await mkdtemp(join(tmpdir(), 'bookdrop-demo-control-'))
    host = await startDemoWebHost(dir)
    const control = host.service.demoControl!
    expect(control.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const port = new URL(control.origin).port
    const own = `127.0.0.1:${port}`
    const secret = control.headers

    // Any local program without the secret: the log of uploads and the faults are closed.
    for (const path of [
      '/_sandbox/creates',
      '/_sandbox/faults',
      '/_sandbox/stats',
      '/%5Fsandbox/creates',
      '/_sandbox/%63reates',
    ]) {
      const r = await raw(control.origin, path, { Host: own })
      expect(r.status, path).not.toBe(200)
      expect([403, 404], path).toContain(r.status)
    }
    const inject = await raw(
      control.origin,
      '/_sandbox/faults',
      { Host: own },
      'POST',
      JSON.stringify({ fail_next: 5 }),
    )
    expect(inject.status).toBe(403)
    expect(inject.body).toMatch(/control routes need the x-sandbox-control header/)
    // With the secret but another name for 127.0.0.1 (DNS rebinding) or a wrong secret: refused.
    for (const h of [`evil.example:${port}`, 'evil.example', `127.0.0.1:${Number(port) + 1}`]) {
      expect((await raw(control.origin, '/_sandbox/creates', { Host: h, ...secret })).status, h).toBe(403)
    }
    const wrong = Object.fromEntries(Object.keys(secret).map((k) => [k, 'not-the-secret']))
    expect((await raw(control.origin, '/_sandbox/creates', { Host: own, ...wrong })).status).toBe(403)
    // The faults are as they were: nothing was injected.
    const faults = JSON.parse(
      (await raw(control.origin, '/_sandbox/faults', { Host: own, ...secret })).body,
    ) as { data: { fail_next: number } }
    expect(faults.data.fail_next).toBe(0)

    // The app's demo, holding the secret, reads the log of what it sent.
    const added = await host.service.addFileContents({
      files: [{ name: 'r.txt', base64: b64(receiptText('ctl')) }],
      target: 'expenses',
    })
    expect(added[0]?.kind).toBe('queued')
    await waitFor('the upload in the emulator’s log', async () => {
      const r = await raw(control.origin, '/_sandbox/creates', { Host: `localhost:${port}`, ...secret })
      expect(r.status).toBe(200)
      return (JSON.parse(r.body) as { data: { attachments: { name: string }[] }[] }).data.some(
        (c) => c.attachments[0]?.name === 'r.txt',
      )
    })
    // The secret is one of the secrets the app redacts from every message.
    expect(host.service.redact(`x ${Object.values(secret)[0]} y`)).not.toContain(Object.values(secret)[0])
  }, 120_000)
})

describe('the standalone emulator (npm run sandbox, tests)', () => {
  it('keeps its control routes open to loopback clients, without a secret', async () => {
    sb = await startSandbox({ fixtures: fixtures(), port: 0 })
    const r = await raw(sb.origin, '/_sandbox/creates', { Host: `127.0.0.1:${sb.port}` })
    expect(r.status).toBe(200)
    const set = await raw(
      sb.origin,
      '/_sandbox/faults',
      { Host: `127.0.0.1:${sb.port}` },
      'POST',
      JSON.stringify({ fail_next: 1 }),
    )
    expect(set.status).toBe(200)
  })
})
