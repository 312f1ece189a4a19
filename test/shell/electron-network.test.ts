/**
 * The desktop app's network (issue 22): the real src-main/electron/main.ts against the stand-in for
 * `electron` (its session answers resolveProxy as the OS's settings or a PAC file would, and its
 * net/powerMonitor say offline, online or awake) and the real AppService, with real servers: a
 * CONNECT proxy (with and without a password) in front of an https emulator signed by a CA of its
 * own. Settings' connection section and "Test connection" are contract calls.
 */
import { describe, expect, it, vi } from 'vitest'
import { callChannel } from '../../contract'
import type { ConnectionReport, ConnectionSettings, ProfileView, SessionState } from '../../contract'
import { type Sandbox, startSandbox } from '../../sandbox'
import { KEY, fixtures } from '../engine/helpers'
import { type ConnectProxy, type Front, type TestCa, makeTestCa, startConnectProxy, startFront } from '../network/path-servers'
import { FakeBrowserWindow, fake } from './fake-electron'
import { useDesktop } from './desktop'

vi.mock('electron', async () => (await import('./fake-electron')).electronModule())
vi.mock(import('../../src-main/core/secrets'), async (real) =>
  (await import('./desktop')).withMemoryKeychain(await real()),
)

let sb: Sandbox
let ca: TestCa
let tls: Front
const proxies: ConnectProxy[] = []

useDesktop({
  prefix: 'bookdrop-shell-net-',
  prepare: async () => {
    sb = await startSandbox({ fixtures: fixtures(), port: 0 })
    ca = makeTestCa()
    tls = await startFront(sb.origin, { tls: { key: ca.key, cert: ca.cert }, host: 'api.bookdrop.test' })
  },
  ready: () => expect(FakeBrowserWindow.all).toHaveLength(1),
  cleanup: () => {
    void Promise.all([tls.stop(), sb.stop(), ...proxies.map((p) => p.stop())]).then(() => ca.dispose())
  },
})

type Result<T> = { ok: true; value: T } | { ok: false; error: { code: string; message: string; fields?: Record<string, string> } }

async function call<T>(name: Parameters<typeof callChannel>[0], req: unknown = {}): Promise<Result<T>> {
  const win = FakeBrowserWindow.all[0]!
  const handler = fake.ipcHandlers.get(callChannel(name))!
  return (await handler({ sender: win.webContents, senderFrame: win.webContents.mainFrame }, req)) as Result<T>
}

async function value<T>(name: Parameters<typeof callChannel>[0], req: unknown = {}): Promise<T> {
  const r = await call<T>(name, req)
  if (!r.ok) throw new Error(`${name}: ${r.error.code}: ${r.error.message}`)
  return r.value
}

describe('the desktop app on a corporate network', () => {
  it('follows the OS proxy (PAC), trusts a certificate added in Settings, and Test connection says so', async () => {
    const proxy = await startConnectProxy()
    proxies.push(proxy)
    fake.session.proxyAnswer = `PROXY 127.0.0.1:${new URL(proxy.url).port}; DIRECT`
    const conn = await value<ConnectionSettings>('setConnection', { proxyMode: 'system', caPem: ca.caPem })
    expect(conn).toMatchObject({ proxyMode: 'system', extraCertificates: ['Bookdrop Test CA (Bookdrop Tests)'] })

    // The key is validated through the proxy, on a name only the proxy can resolve.
    const profile = await value<ProfileView>('addProfile', {
      name: 'Corp',
      environment: 'custom',
      baseUrl: tls.url,
      kind: 'business',
      secret: KEY,
    })
    await value('setActiveProfile', { id: profile.id })
    expect(proxy.connects).toContain(`api.bookdrop.test:${tls.port}`)
    expect(fake.session.proxyAsked.some((u) => u.startsWith('https://api.bookdrop.test'))).toBe(true)

    const report = await value<ConnectionReport>('testConnection')
    expect(report).toMatchObject({
      baseUrl: tls.url,
      proxy: proxy.url,
      issuer: 'Bookdrop Test CA (Bookdrop Tests)',
      api: true,
      keyAccepted: true,
    })
    expect(report.roundTripMs).toBeGreaterThanOrEqual(0)
  })

  it('a proxy that asks for a password: the 407 is named; the password saved in the keychain is used and never shown', async () => {
    const locked = await startConnectProxy({ auth: { user: 'ann', password: 'pw-never-shown-4711' } })
    proxies.push(locked)
    fake.session.proxyAnswer = `PROXY 127.0.0.1:${new URL(locked.url).port}`
    fake.powerMonitor.emit('resume') // a new network: the OS's proxy is asked again
    const asked = await value<ConnectionReport>('testConnection')
    expect(asked.api).toBe(false)
    expect(asked.message).toMatch(/asks for a user name and password \(407\).*Settings → Connection/)

    const saved = await value<ConnectionSettings>('setProxyCredentials', { username: 'ann', password: 'pw-never-shown-4711' })
    expect(saved).toMatchObject({ proxyUser: 'ann', proxyPasswordSaved: true })
    expect(JSON.stringify(saved)).not.toContain('pw-never-shown-4711')
    const ok = await value<ConnectionReport>('testConnection')
    expect(ok).toMatchObject({ api: true, proxy: locked.url })
    expect(JSON.stringify(ok)).not.toContain('pw-never-shown-4711')
    expect(locked.auths.at(-1)).toBe(`Basic ${Buffer.from('ann:pw-never-shown-4711').toString('base64')}`)
    expect(JSON.stringify(await value('getConnection'))).not.toContain('pw-never-shown-4711')
  })

  it('offline says so and waits; online again or awake, the profile is active', async () => {
    fake.online = false
    fake.powerMonitor.emit('resume')
    await vi.waitFor(async () => expect((await value<SessionState>('getSession')).state).toBe('offline'))
    expect((await value<SessionState>('getSession')).message).toMatch(/offline.*nothing is lost/)
    fake.online = true
    fake.powerMonitor.emit('resume')
    await vi.waitFor(async () => expect((await value<SessionState>('getSession')).state).toBe('active'))
  })

  it('a manual proxy must be an http(s) host and port; a PEM that holds no certificate is refused, naming the field', async () => {
    const none = await call('setConnection', { proxyMode: 'manual' })
    expect(none).toMatchObject({ ok: false, error: { code: 'invalid_request', fields: { proxyUrl: expect.any(String) } } })
    const socks = await call('setConnection', { proxyMode: 'manual', proxyUrl: 'socks5://10.0.0.1:1080' })
    expect(socks.ok ? '' : socks.error.message).toMatch(/SOCKS is not supported/)
    const pem = await call('setConnection', { proxyMode: 'none', caPem: 'not a certificate' })
    expect(pem).toMatchObject({ ok: false, error: { fields: { caPem: expect.stringMatching(/holds no certificate/) } } })
    expect(await value<ConnectionSettings>('setConnection', { proxyMode: 'manual', proxyUrl: 'proxy.corp.example:3128' })).toMatchObject({
      proxyMode: 'manual',
      proxyUrl: 'http://proxy.corp.example:3128',
    })
  })
})
