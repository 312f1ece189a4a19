/**
 * `npm run sandbox` as a person runs it: a real child process (`node --import tsx sandbox/cli.ts`)
 * on a real port, talked to over real HTTP with fetch, like curl would. Every child is stopped with
 * SIGTERM after its test, and the test waits until it has really exited.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { type Server, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox } from '../../sandbox/index'
import { isLoopback } from '../../sandbox/server'

const ROOT = resolve(import.meta.dirname, '../..')
const START_TIMEOUT_MS = 20_000

interface Child {
  proc: ChildProcessWithoutNullStreams
  stdout: () => string
  stderr: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

const children: Child[] = []
let tmp: string

beforeAll(() => {
  tmp = mkdtempSync(join(tmpdir(), 'bookdrop-cli-'))
})
afterAll(() => {
  rmSync(tmp, { recursive: true, force: true })
})

afterEach(async () => {
  for (const child of children.splice(0)) await stopChild(child)
})

function runCli(args: string[]): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'sandbox/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: '' },
    stdio: 'pipe',
  })
  let out = ''
  let err = ''
  proc.stdout.setEncoding('utf8').on('data', (s: string) => (out += s))
  proc.stderr.setEncoding('utf8').on('data', (s: string) => (err += s))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    proc.once('close', (code, signal) => done({ code, signal })),
  )
  const child = { proc, stdout: () => out, stderr: () => err, exited }
  children.push(child)
  return child
}

function hasExited(child: Child): boolean {
  return child.proc.exitCode !== null || child.proc.signalCode !== null
}

/** SIGTERM, then SIGKILL if it is still there after 5 s; resolves once the process is gone. */
async function stopChild(child: Child): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (!hasExited(child)) child.proc.kill('SIGTERM')
  const timer = setTimeout(() => {
    if (!hasExited(child)) child.proc.kill('SIGKILL')
  }, 5_000)
  try {
    return await child.exited
  } finally {
    clearTimeout(timer)
  }
}

/** Resolves when stdout holds a line matching `re` (returning the match); rejects if the child exits first. */
function waitForLine(child: Child, re: RegExp, timeoutMs = START_TIMEOUT_MS): Promise<RegExpMatchArray> {
  return new Promise((done, fail) => {
    const check = () => {
      const m = child.stdout().match(re)
      if (m) {
        cleanup()
        done(m)
        return true
      }
      return false
    }
    const onExit = () => {
      if (check()) return
      cleanup()
      fail(
        new Error(
          `sandbox exited before printing ${re}\nstdout: ${child.stdout()}\nstderr: ${child.stderr()}`,
        ),
      )
    }
    const timer = setTimeout(() => {
      cleanup()
      fail(new Error(`timed out waiting for ${re}\nstdout: ${child.stdout()}\nstderr: ${child.stderr()}`))
    }, timeoutMs)
    const cleanup = () => {
      clearTimeout(timer)
      child.proc.stdout.off('data', check)
      child.proc.off('close', onExit)
    }
    child.proc.stdout.on('data', check)
    child.proc.once('close', onExit)
    check()
  })
}

function listen(port = 0): Promise<Server> {
  return new Promise((done, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(port, '127.0.0.1', () => done(server))
  })
}

function close(server: Server): Promise<void> {
  return new Promise((done) => server.close(() => done()))
}

/** A port that was free a moment ago: listen on 0, read the port, let it go. */
async function freePort(): Promise<number> {
  const server = await listen(0)
  const addr = server.address()
  await close(server)
  if (!addr || typeof addr === 'string') throw new Error('no port')
  return addr.port
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
const listeningLine = (port: number) =>
  new RegExp(`^listening on ${escape(`http://127.0.0.1:${port}/v1`)}$`, 'm')

async function getJson(url: string, headers: Record<string, string>) {
  const res = await fetch(url, { headers })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

/** The fixtures example of docs/emulator.md (the ```json block under "## Fixtures"), so the docs stay true. */
function readmeFixturesExample(): unknown {
  const readme = readFileSync(join(ROOT, 'docs', 'emulator.md'), 'utf8')
  const section = readme.slice(readme.indexOf('## Fixtures'))
  const m = /```json\n([\s\S]*?)\n```/.exec(section)
  if (!m?.[1]) throw new Error('docs/emulator.md has no ```json example under "## Fixtures"')
  return JSON.parse(m[1])
}

function writeTemp(name: string, text: string): string {
  const path = join(tmp, name)
  writeFileSync(path, text)
  return path
}

describe('npm run sandbox (sandbox/cli.ts)', () => {
  it('with no fixtures: prints the listening line and demo keys that work over HTTP', async () => {
    const port = await freePort()
    const child = runCli(['--port', String(port)])
    await waitForLine(child, listeningLine(port))
    const m = await waitForLine(
      child,
      /^demo business key: (svc_sk_\S+)\ndemo business public key: (svc_pk_\S+)\ndemo partner key: (svc_partner_sk_\S+)$/m,
    )
    const [, businessKey = '', publicKey = '', partnerKey = ''] = m
    const base = `http://127.0.0.1:${port}/v1`

    const validate = await getJson(`${base}/auth/validate`, { 'X-API-Key': businessKey })
    expect(validate.status).toBe(200)
    expect(validate.body).toMatchObject({
      status: 'success',
      data: { business_uuid: 'demo-business-0001', name: 'Demo Bakery Ltd', currency: 'NGN', country: 'NG' },
    })

    const referred = await getJson(`${base}/referred-businesses`, { 'X-API-Key': partnerKey })
    expect(referred.status).toBe(200)
    expect(referred.body).toMatchObject({ data: { total: 1, data: [{ uuid: 'demo-business-0001' }] } })

    // The public key is printed for completeness, but it is not a secret for REST calls.
    const pub = await getJson(`${base}/auth/validate`, { 'X-API-Key': publicKey })
    expect(pub.status).toBe(401)
    expect(child.stderr()).toBe('')
  })

  it('stops on SIGTERM with exit code 0 and frees its port', async () => {
    const port = await freePort()
    const child = runCli(['--port', String(port)])
    await waitForLine(child, listeningLine(port))
    const { code, signal } = await stopChild(child)
    expect({ code, signal }).toEqual({ code: 0, signal: null })
    const server = await listen(port) // would throw EADDRINUSE if the sandbox still held it
    await close(server)
  })

  it('with --fixtures (the README example): its keys work and no demo keys are printed', async () => {
    const path = writeTemp('fixtures.json', JSON.stringify(readmeFixturesExample(), null, 2))
    const port = await freePort()
    const child = runCli(['--port', String(port), '--fixtures', path])
    await waitForLine(child, listeningLine(port))
    const base = `http://127.0.0.1:${port}/v1`

    const validate = await getJson(`${base}/auth/validate`, { 'X-API-Key': 'svc_sk_x' })
    expect(validate.status).toBe(200)
    expect(validate.body).toMatchObject({
      status: 'success',
      data: { business_uuid: 'b1', name: 'B', currency: 'NGN', country: 'NG' },
    })

    const invoice = await getJson(`${base}/invoices/s1`, { 'X-API-Key': 'svc_sk_x' })
    expect(invoice.status).toBe(200)
    expect(invoice.body).toMatchObject({
      data: { uuid: 'i1', total_amount: 100, amount_paid: 40, balance: 60 },
    })

    const referred = await getJson(`${base}/referred-businesses`, { 'X-API-Key': 'svc_partner_sk_x' })
    expect(referred.status).toBe(200)
    expect(referred.body).toMatchObject({ data: { total: 1, data: [{ uuid: 'b1' }] } })

    // oauth_tokens: the app key plus a bearer token acts for the token's business.
    const oauth = await getJson(`${base}/auth/validate`, {
      'X-API-Key': 'svc_sk_x',
      Authorization: 'Bearer tok_x',
    })
    expect(oauth.status).toBe(200)
    const badToken = await getJson(`${base}/auth/validate`, {
      'X-API-Key': 'svc_sk_x',
      Authorization: 'Bearer nope',
    })
    expect(badToken.status).toBe(401)

    // Everything the CLI prints at start-up is out by now (it is written before the server answers).
    expect(child.stdout()).not.toMatch(/demo/i)
    expect(child.stdout().trim().split('\n')).toEqual([`listening on ${base}`])
    expect(child.stderr()).toBe('')
  })

  it('a fixtures file that fails the schema: exit 2, naming the bad field, no stack', async () => {
    const path = writeTemp(
      'bad-schema.json',
      JSON.stringify({ businesses: [{ key: 'sk_live_wrong' }], job_delay_ms: -5 }),
    )
    const child = runCli(['--port', '0', '--fixtures', path])
    const { code } = await child.exited
    expect(code).toBe(2)
    const err = child.stderr()
    expect(err).toContain(`fixtures file ${path} is not valid`)
    expect(err).toContain('businesses.0.key: must be a business secret key starting with svc_sk_')
    expect(err).toContain('job_delay_ms:')
    expect(err).not.toMatch(/^\s+at /m)
    expect(child.stdout()).not.toContain('listening on')
  })

  it('a fixtures file that is not JSON, or is missing: exit 2 with a one-line reason', async () => {
    const notJson = writeTemp('not-json.json', '{ "partners": [ }')
    const a = runCli(['--port', '0', '--fixtures', notJson])
    expect((await a.exited).code).toBe(2)
    expect(a.stderr()).toContain(`fixtures file ${notJson} is not valid JSON`)
    expect(a.stderr()).not.toMatch(/^\s+at /m)

    const missing = join(tmp, 'does-not-exist.json')
    const b = runCli(['--port', '0', '--fixtures', missing])
    expect((await b.exited).code).toBe(2)
    expect(b.stderr()).toContain(`could not read fixtures from ${missing}`)
    expect(b.stderr()).not.toMatch(/^\s+at /m)
  })

  it('a port in use: exit 1 with a clear message', async () => {
    const blocker = await listen(0)
    try {
      const addr = blocker.address()
      if (!addr || typeof addr === 'string') throw new Error('no port')
      const child = runCli(['--port', String(addr.port)])
      const { code } = await child.exited
      expect(code).toBe(1)
      expect(child.stderr().trim()).toBe(
        `port ${addr.port} on 127.0.0.1 is in use: choose another with --port <n>`,
      )
      expect(child.stdout()).toBe('')
    } finally {
      await close(blocker)
    }
  })

  it('bad arguments: exit 2 with the reason and no stack', async () => {
    const a = runCli(['--port', '70000'])
    expect((await a.exited).code).toBe(2)
    expect(a.stderr().trim()).toBe('--port must be a whole number from 0 to 65535, got "70000"')

    const b = runCli(['--port', '12ab'])
    expect((await b.exited).code).toBe(2)
    expect(b.stderr()).toContain('--port must be a whole number')

    const c = runCli(['--nope'])
    expect((await c.exited).code).toBe(2)
    expect(c.stderr()).toContain("Unknown option '--nope'")
    expect(c.stderr()).toContain('usage: npm run sandbox')
    expect(c.stderr()).not.toMatch(/^\s+at /m)
  })

  it('--help prints the usage and exits 0', async () => {
    const child = runCli(['--help'])
    expect((await child.exited).code).toBe(0)
    expect(child.stdout()).toContain('usage: npm run sandbox -- [--port <n>] [--fixtures <file.json>]')
  })
})

describe('/_sandbox control routes answer loopback only', () => {
  it('isLoopback accepts 127.0.0.0/8, ::1 and IPv4-mapped 127.x; nothing else', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(a)).toBe(true)
    for (const a of ['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', 'fe80::1', '0.0.0.0', '', undefined])
      expect(isLoopback(a)).toBe(false)
  })

  it('a non-loopback client gets 403 on /_sandbox, while /v1 still answers it', async () => {
    const sb = await startSandbox({ port: 0 })
    try {
      // inject() never leaves the process; remoteAddress is what the server sees as the client.
      for (const [method, url] of [
        ['GET', '/_sandbox/faults'],
        ['POST', '/_sandbox/clock'],
        ['GET', '/_sandbox/creates'],
      ] as const) {
        const remote = await sb.app.inject({ method, url, remoteAddress: '10.0.0.5', payload: {} })
        expect(remote.statusCode, `${method} ${url}`).toBe(403)
        expect(remote.json()).toMatchObject({ status: 'failed', message: expect.stringMatching(/loopback/) })
      }
      const local = await sb.app.inject({
        method: 'GET',
        url: '/_sandbox/faults',
        remoteAddress: '127.0.0.1',
      })
      expect(local.statusCode).toBe(200)
      const v1 = await sb.app.inject({
        method: 'GET',
        url: '/v1/auth/validate',
        remoteAddress: '10.0.0.5',
        headers: { 'x-api-key': sb.demo?.businessKey ?? '' },
      })
      expect(v1.statusCode).toBe(200)
    } finally {
      await sb.stop()
    }
  })
})
