/**
 * Where a request goes and whom it trusts (issue 22): direct or through a proxy, and which
 * certificate authorities sign a server the client believes.
 *
 * - Loopback (the emulator, a local gateway) is never proxied and needs no lookup: the fast path.
 * - The proxy of a URL: none, a manual one (Settings), or the system's. The system's is the OS's
 *   answer (the desktop app hands in Electron's `session.resolveProxy`, which applies the OS
 *   settings and PAC files, as VS Code does) or, without one (headless, web host), the environment:
 *   HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and NO_PROXY (read by `proxy-from-env`).
 * - A proxied connection is a CONNECT tunnel made by `hpagent`: an http(s).Agent subclass, so the
 *   keep-alive pools of ./http.ts work through it unchanged. Both load with the first request that
 *   needs a proxy, never at idle.
 * - A PAC answer is used as browsers use it: the first proxy that can be reached, DIRECT only where
 *   it says so, SOCKS named as not supported (./network/pac.ts).
 * - Trust: Node's own authorities, the OS store's where it can be read, and an optional PEM
 *   (Settings or `--ca-file`), built once into one secure context that checks the server and an
 *   https:// proxy alike (./network/trust.ts).
 *
 * A proxy's password (from the keychain or the proxy URL) goes into the agent only; `Route.proxy`
 * and every message name the proxy without it.
 */
import type { Agent as HttpAgent } from 'node:http'
import https from 'node:https'
import type tls from 'node:tls'
import type { ProxyAgentRequestOptions } from 'hpagent'
import { isLoopbackHost } from './base-url'
import { http } from './network/node-http'
import { ProxyChooser, parsePacResult, unreachableProxy } from './network/pac'
import { type SystemCaReader, type Trust, buildTrust, readCaPem } from './network/trust'

export { CertificateFileError, MAX_CA_PEM_BYTES, nameOf, readCaPem, type SystemCaReader } from './network/trust'
export { type PacEntry, parsePacResult } from './network/pac'

export type ProxySetting = { mode: 'system' } | { mode: 'manual'; url: string } | { mode: 'none' }

export interface ProxyCredentials {
  username: string
  password: string
}

export interface NetworkOptions {
  /** Default: the system's. */
  proxy?: ProxySetting
  /**
   * The OS's proxy for a URL as a PAC result ("PROXY host:port; DIRECT"): the desktop app's
   * Electron session. Without it, the system's proxy is the environment's.
   */
  systemProxy?: (url: string) => Promise<string>
  /** The user name and password of a proxy (its origin, e.g. http://proxy:3128): the keychain's. */
  proxyCredentials?: (proxyOrigin: string) => Promise<ProxyCredentials | null>
  /** Extra trusted certificates, PEM text (Settings, or the file of `--ca-file`). */
  extraCaPem?: string | null
  /** Trust the OS certificate store as well as Node's own list (default true). */
  systemCa?: boolean
  /** Where the OS store is read from (default `tls.getCACertificates('system')`; tests give their own). */
  readSystemCa?: SystemCaReader
}

export interface Route {
  /** The kept-alive pool of this route. */
  agent: HttpAgent
  /**
   * A one-off agent on the same route (same proxy, same trust) for a connection of its own: a
   * streamed body, or the second try after a kept connection was found closed. Closed after use.
   */
  fresh(): HttpAgent
  /** The proxy used, without credentials (`http://proxy:3128`), or null for a direct connection. */
  proxy: string | null
}

/** A proxy URL as shown to people: scheme, host and port, never a user name or password. */
export function shownProxy(url: string): string {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}`
  } catch {
    return 'the proxy'
  }
}

/** Checks a proxy URL typed by a person (Settings) or given in the environment. */
export function checkProxyUrl(raw: string): string {
  const text = raw.trim()
  let u: URL
  try {
    u = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`)
  } catch {
    throw new Error(`"${text.slice(0, 100)}" is not a proxy address: write it as http://proxy.example.com:3128.`)
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new Error(`The proxy must be an http:// or https:// proxy (got ${u.protocol}); SOCKS is not supported.`)
  if (u.pathname !== '/' || u.search || u.hash)
    throw new Error('The proxy address is a host and a port only, such as http://proxy.example.com:3128.')
  return u.href.replace(/\/$/, '')
}

const SYSTEM_PROXY_TTL_MS = 30_000

export class Network {
  #opts: NetworkOptions
  /** The direct pools, each made at its protocol's first request (an https one builds the trust). */
  #direct: { http?: HttpAgent; https?: https.Agent } = {}
  #directRoutes: { http?: Route; https?: Route } = {}
  readonly #proxied = new Map<string, HttpAgent>()
  #trust: Trust | undefined
  /** The system's choice per origin (a proxy, null for direct, or the error of a SOCKS-only answer). */
  readonly #systemCache = new Map<string, { at: number; choice: Promise<string | null> }>()
  readonly #chooser = new ProxyChooser()
  readonly #credentials = new Map<string, ProxyCredentials | null>()

  constructor(opts: NetworkOptions = {}) {
    this.#opts = { ...opts }
    if (opts.extraCaPem) readCaPem(opts.extraCaPem)
  }

  get proxySetting(): ProxySetting {
    return this.#opts.proxy ?? { mode: 'system' }
  }

  /** The extra trusted certificates in force (PEM), or null. */
  get extraCaPem(): string | null {
    return this.#opts.extraCaPem ?? null
  }

  /**
   * New settings (Settings, a saved proxy password): the connections made under the old ones are
   * closed, the next request makes new ones.
   */
  update(change: Partial<Pick<NetworkOptions, 'proxy' | 'extraCaPem' | 'systemCa'>>): void {
    if (change.extraCaPem) readCaPem(change.extraCaPem)
    if (change.proxy?.mode === 'manual') checkProxyUrl(change.proxy.url)
    this.#opts = { ...this.#opts, ...change }
    this.reset()
  }

  /** Drops every connection, cached proxy answer and credential (the network changed). */
  reset(): void {
    this.#direct.http?.destroy()
    this.#direct.https?.destroy()
    this.#direct = {}
    this.#directRoutes = {}
    for (const a of this.#proxied.values()) a.destroy()
    this.#proxied.clear()
    this.#trust = undefined
    this.#systemCache.clear()
    this.#chooser.clear()
    this.#credentials.clear()
  }

  /**
   * The connections of a request to `url`: at once (no promise) for loopback, which is never
   * proxied, so the engine's requests to the local emulator cost nothing more than before.
   */
  route(url: URL): Route | Promise<Route> {
    if (isLoopbackHost(url.hostname)) return this.directRoute(url)
    return this.lookup(url)
  }

  private async lookup(url: URL): Promise<Route> {
    const proxy = await this.proxyFor(url)
    if (proxy === null) return this.directRoute(url)
    const withAuth = await this.withCredentials(proxy)
    const { HttpsProxyAgent, HttpProxyAgent } = await import('hpagent')
    const make = (keepAlive: boolean): HttpAgent => {
      // The same trust checks the server's certificate and an https:// proxy's own: hpagent hands
      // proxyRequestOptions to the proxy's https.request (typed with `ca` only; one context is cheaper).
      const trust = this.tlsOptions()
      const proxyRequestOptions: ProxyAgentRequestOptions & typeof trust = trust
      const options = { keepAlive, scheduling: 'lifo' as const, proxy: withAuth, proxyRequestOptions, ...trust }
      const agent = url.protocol === 'https:' ? new HttpsProxyAgent(options) : new HttpProxyAgent(options)
      return this.watched(agent, proxy)
    }
    const key = `${url.protocol}${withAuth}`
    let agent = this.#proxied.get(key)
    if (!agent) {
      agent = make(true)
      this.#proxied.set(key, agent)
    }
    return { agent, fresh: () => make(false), proxy: shownProxy(proxy) }
  }

  /** The direct route of a protocol, made once per generation of settings. */
  private directRoute(url: URL): Route {
    const https_ = url.protocol === 'https:'
    const cached = https_ ? this.#directRoutes.https : this.#directRoutes.http
    if (cached) return cached
    const route: Route = {
      agent: this.direct(url),
      fresh: () => (https_ ? new https.Agent({ ...this.tlsOptions() }) : new http.Agent()),
      proxy: null,
    }
    if (https_) this.#directRoutes.https = route
    else this.#directRoutes.http = route
    return route
  }

  /** The proxy of `url` under the current setting, or null for direct. */
  async proxyFor(url: URL): Promise<string | null> {
    const setting = this.proxySetting
    if (setting.mode === 'none' || isLoopbackHost(url.hostname)) return null
    if (setting.mode === 'manual') return checkProxyUrl(setting.url)
    const systemProxy = this.#opts.systemProxy
    if (systemProxy) {
      const key = url.origin
      const hit = this.#systemCache.get(key)
      if (hit && Date.now() - hit.at < SYSTEM_PROXY_TTL_MS) return hit.choice
      const choice = systemProxy(url.href)
        .catch(() => 'DIRECT')
        .then((pac) => this.#chooser.choose(parsePacResult(pac)))
      this.#systemCache.set(key, { at: Date.now(), choice })
      return choice
    }
    const { getProxyForUrl } = await import('proxy-from-env')
    const fromEnv = getProxyForUrl(url.href)
    return fromEnv ? checkProxyUrl(fromEnv) : null
  }

  private direct(url: URL): HttpAgent {
    // Kept for the next request (one pool per protocol), and an idle one never keeps the process
    // alive (node unrefs free sockets). Each is made at its protocol's first request: an http://
    // emulator never reads the system's certificate store.
    if (url.protocol === 'https:')
      return (this.#direct.https ??= new https.Agent({ keepAlive: true, scheduling: 'lifo', ...this.tlsOptions() }))
    return (this.#direct.http ??= new http.Agent({ keepAlive: true, scheduling: 'lifo' }))
  }

  /** The proxy URL with its user name and password from the keychain, when the URL has none. */
  private async withCredentials(proxy: string): Promise<string> {
    const u = new URL(proxy)
    if (u.username || !this.#opts.proxyCredentials) return proxy
    const origin = `${u.protocol}//${u.host}`
    let creds = this.#credentials.get(origin)
    if (creds === undefined) {
      creds = await this.#opts.proxyCredentials(origin).catch(() => null)
      this.#credentials.set(origin, creds)
    }
    if (!creds) return proxy
    u.username = encodeURIComponent(creds.username)
    u.password = encodeURIComponent(creds.password)
    return u.href.replace(/\/$/, '')
  }

  /**
   * A proxy's agent that reports a connection that never reached the proxy: the system's next
   * proxy (a PAC list) is chosen for the next request.
   */
  private watched(agent: HttpAgent, proxy: string): HttpAgent {
    type Done = (err: Error | null, socket?: unknown) => void
    const a = agent as unknown as { createConnection(o: object, cb: Done): unknown }
    const connect = a.createConnection.bind(a)
    a.createConnection = (o, cb) =>
      connect(o, (err, socket) => {
        if (err && unreachableProxy(err)) {
          this.#chooser.down(proxy)
          this.#systemCache.clear()
        }
        cb(err, socket)
      })
    return agent
  }

  /** The trust of every TLS connection: one secure context, built at the first https request. */
  private tlsOptions(): { secureContext?: tls.SecureContext } {
    const context = this.trust().context
    return context ? { secureContext: context } : {}
  }

  private trust(): Trust {
    this.#trust ??= buildTrust(this.#opts)
    return this.#trust
  }

  /** What a person is told about the trust in force (`--check`, Test connection): what was really read. */
  trustSummary(): string {
    return this.trust().summary
  }
}

let shared: Network | null = null

/** The network of clients given none: the system's proxy (the environment's here) and trust. */
export function defaultNetwork(): Network {
  shared ??= new Network()
  return shared
}
