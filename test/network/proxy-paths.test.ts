/**
 * The system's proxy and trust as a laptop meets them (issue 31), with real servers on 127.0.0.1:
 * a PAC list is tried in order as browsers do; a SOCKS proxy is named as not supported and never
 * turns into a direct connection; an https:// proxy's own certificate is checked with the same
 * trust as the server's; the OS certificate store is trusted when it can be read, and the trust
 * summary says so only then. The base URL is on api.bookdrop.test, a name only the proxies can
 * reach (they resolve every name to 127.0.0.1).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { BookkeepingClient, type ClientOptions } from '../../src-main/core/api'
import { Network, type NetworkOptions } from '../../src-main/core/api/network'
import { failure } from '../api/failure'
import { KEY } from '../engine/helpers'
import { usePathRig } from './path-rig'
import { type ConnectProxy, type Front, startConnectProxy, startFront } from './path-servers'

const rig = usePathRig()
let tlsFront: Front

beforeAll(async () => {
  tlsFront = await startFront(rig.sb.origin, { tls: { key: rig.ca.key, cert: rig.ca.cert }, host: 'api.bookdrop.test' })
})

afterAll(async () => {
  await tlsFront.stop()
})

afterEach(async () => {
  tlsFront.seen.length = 0
})

function client(network: Network, baseUrl = tlsFront.url): BookkeepingClient {
  return new BookkeepingClient({ environment: 'custom', baseUrl, auth: { key: KEY }, network } as ClientOptions)
}

/** A network whose system proxy (the desktop's `session.resolveProxy`) answers `pac`. */
const pacNetwork = (pac: string, extra: Partial<NetworkOptions> = {}) =>
  new Network({ systemProxy: async () => pac, extraCaPem: rig.ca.caPem, ...extra })

const hostPort = (p: ConnectProxy) => p.url.replace(/^https?:\/\//, '')

describe('a PAC answer is used as browsers use it', () => {
  it('"PROXY dead:1; PROXY live" reaches the API through the second, and Test connection names it', async () => {
    const live = await rig.proxy()
    const c = client(pacNetwork(`PROXY 127.0.0.1:1; PROXY ${hostPort(live)}`))
    expect(await c.validateKey()).toBeTruthy()
    expect(live.connects).toContain(`api.bookdrop.test:${tlsFront.port}`)
    expect(tlsFront.seen.length).toBeGreaterThan(0)
    const report = await c.checkConnection()
    expect(report).toMatchObject({ api: true, keyAccepted: true, proxy: live.url })
  })

  it('a proxy of the list that stops answering is passed over for the next one', async () => {
    const first = await startConnectProxy() // stopped below
    const second = await rig.proxy()
    const network = pacNetwork(`PROXY ${hostPort(first)}; PROXY ${hostPort(second)}`)
    expect(await client(network).validateKey()).toBeTruthy()
    expect(first.connects.length).toBeGreaterThan(0)
    await first.stop()
    // The call in flight may fail ("could not reach the proxy"); the next goes through the second.
    await client(network).validateKey().catch(() => null)
    expect(await client(network).validateKey()).toBeTruthy()
    expect(second.connects.length).toBeGreaterThan(0)
  })

  it('"SOCKS5 x:1" alone never goes direct: the person reads that SOCKS is not supported', async () => {
    const network = pacNetwork('SOCKS5 127.0.0.1:1')
    const e = await failure(client(network).validateKey())
    expect(e).toMatchObject({ errorCode: 'proxy_error', configuration: true, retryable: false })
    expect(e.message).toMatch(/SOCKS5 127\.0\.0\.1:1: SOCKS proxies are not supported/)
    expect(e.message).toMatch(/does not connect directly instead/)
    expect(e.message).not.toMatch(/Could not reach/)
    const report = await client(network).checkConnection()
    expect(report).toMatchObject({ api: false, proxy: null })
    expect(report.message).toMatch(/SOCKS proxies are not supported/)
  })

  it('"SOCKS x; DIRECT" goes direct (where the PAC says DIRECT); "SOCKS x; PROXY live" through the proxy', async () => {
    const direct = pacNetwork('SOCKS 127.0.0.1:1; DIRECT')
    expect(await direct.proxyFor(new URL(tlsFront.url))).toBeNull()
    const report = await client(direct).checkConnection()
    // Direct: this computer cannot look the name up itself (only the proxies can).
    expect(report).toMatchObject({ api: false, proxy: null })
    expect(report.message).toMatch(/Could not reach api\.bookdrop\.test/)
    const live = await rig.proxy()
    const through = client(pacNetwork(`SOCKS 127.0.0.1:1; PROXY ${hostPort(live)}`))
    expect(await through.validateKey()).toBeTruthy()
    expect(live.connects.length).toBeGreaterThan(0)
  })
})

describe('an https:// proxy is checked with the same trust as the server', () => {
  it('its certificate signed by the extra authority (Settings, --ca-file) is trusted', async () => {
    const tlsProxy = await rig.proxy({ tls: { key: rig.ca.key, cert: rig.ca.cert } })
    expect(tlsProxy.url).toMatch(/^https:/)
    const network = new Network({ proxy: { mode: 'manual', url: tlsProxy.url }, extraCaPem: rig.ca.caPem, systemCa: false })
    expect(await client(network).validateKey()).toBeTruthy()
    expect(tlsProxy.connects).toContain(`api.bookdrop.test:${tlsFront.port}`)
  })

  it('its certificate signed by an authority of the OS store is trusted', async () => {
    const tlsProxy = await rig.proxy({ tls: { key: rig.ca.key, cert: rig.ca.cert } })
    const network = new Network({ proxy: { mode: 'manual', url: tlsProxy.url }, readSystemCa: () => [rig.ca.caPem] })
    expect(await client(network).validateKey()).toBeTruthy()
    expect(tlsProxy.connects.length).toBeGreaterThan(0)
  })
})

describe('the OS certificate store', () => {
  const local = () => tlsFront.url.replace('api.bookdrop.test', 'localhost')

  it('a readable store is trusted, and the summary counts it', async () => {
    const network = new Network({ proxy: { mode: 'none' }, readSystemCa: () => [rig.ca.caPem] })
    const report = await client(network, local()).checkConnection()
    expect(report).toMatchObject({ api: true, keyAccepted: true, issuer: 'Bookdrop Test CA (Bookdrop Tests)' })
    expect(report.trust).toBe("Node's certificate authorities, the system's store (1 certificate)")
  })

  it('a store that cannot be read: the summary says it is not trusted and why; Node’s list and the extra PEM still are', async () => {
    const unreadable = () => {
      throw new Error('the keychain refused access')
    }
    const bare = new Network({ proxy: { mode: 'none' }, readSystemCa: unreadable })
    const refused = await client(bare, local()).checkConnection()
    expect(refused.api).toBe(false)
    expect(refused.message).toMatch(/which this computer does not trust/)
    expect(refused.trust).not.toMatch(/the system's store \(/)
    expect(refused.trust).toBe(
      "Node's certificate authorities (not the system's store: it could not be read, the keychain refused access)",
    )
    const withPem = new Network({ proxy: { mode: 'none' }, readSystemCa: unreadable, extraCaPem: rig.ca.caPem })
    const report = await client(withPem, local()).checkConnection()
    expect(report.api).toBe(true)
    expect(report.trust).toMatch(/^Node's certificate authorities, 1 extra certificate \(not the system's store: it could not be read/)
  })

  it('the real store is read by default (where Node can read it) and named in the summary', () => {
    expect(new Network().trustSummary()).toMatch(/^Node's certificate authorities(, the system's store \(\d+ certificates?\)| \(not the system's store)/)
  })
})
