/**
 * The system's proxy as a PAC answer ("PROXY a:3128; PROXY b:3128; DIRECT"), used as browsers use
 * it (issue 31): the first proxy that can be reached, the next one when it cannot, and a direct
 * connection only where the answer says DIRECT. A SOCKS proxy is not supported: it is passed over,
 * and an answer that names nothing else is an error that says so, never a silent direct connection.
 */
import net from 'node:net'

export type PacEntry =
  | { kind: 'proxy'; url: string }
  | { kind: 'direct' }
  /** SOCKS (or a kind unknown here), as written in the answer: "SOCKS5 proxy:1080". */
  | { kind: 'unsupported'; text: string }

/**
 * The entries of a PAC answer, in order: `PROXY h:p` → http://h:p, `HTTPS h:p` → https://h:p,
 * `DIRECT` → direct, anything else (SOCKS) → unsupported. An empty answer means direct.
 */
export function parsePacResult(pac: string): PacEntry[] {
  const out: PacEntry[] = []
  for (const part of pac.split(';')) {
    const text = part.trim()
    if (text === '') continue
    const [kind, hostPort] = text.split(/\s+/)
    const k = (kind ?? '').toUpperCase()
    if (k === 'DIRECT') out.push({ kind: 'direct' })
    else if ((k === 'PROXY' || k === 'HTTP') && hostPort) out.push({ kind: 'proxy', url: `http://${hostPort}` })
    else if (k === 'HTTPS' && hostPort) out.push({ kind: 'proxy', url: `https://${hostPort}` })
    else out.push({ kind: 'unsupported', text: text.slice(0, 100) })
  }
  return out.length > 0 ? out : [{ kind: 'direct' }]
}

/** A proxy that answers no TCP connection within this long is passed over for the next one. */
export const PROBE_TIMEOUT_MS = 5000
/** How long a proxy that could not be reached is passed over (as Chromium does), unless it is the last. */
export const BAD_PROXY_MS = 5 * 60_000

/** Whether a TCP connection to the proxy opens. */
export function proxyAnswers(proxy: string, timeoutMs = PROBE_TIMEOUT_MS): Promise<boolean> {
  const u = new URL(proxy)
  const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80))
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname.replace(/^\[|\]$/g, ''), port })
    const done = (ok: boolean): void => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
  })
}

/** The errors of a connection that never reached the proxy (the next proxy is worth a try). */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

export function unreachableProxy(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code
  return typeof code === 'string' && UNREACHABLE.has(code)
}

/** Chooses among the entries of a PAC answer, remembering the proxies that could not be reached. */
export class ProxyChooser {
  readonly #bad = new Map<string, number>()
  readonly #answers: (proxy: string) => Promise<boolean>

  constructor(answers: (proxy: string) => Promise<boolean> = (p) => proxyAnswers(p)) {
    this.#answers = answers
  }

  /**
   * The proxy to use (null: direct). Each proxy but the last is tried with a TCP connection first;
   * one that fails is passed over for BAD_PROXY_MS. The last usable entry is used as it is: its
   * own error is what the person reads. Throws when the answer names only SOCKS proxies.
   */
  async choose(entries: PacEntry[]): Promise<string | null> {
    const usable = entries.filter((e): e is Exclude<PacEntry, { kind: 'unsupported' }> => e.kind !== 'unsupported')
    if (usable.length === 0) {
      const named = entries.map((e) => (e.kind === 'unsupported' ? e.text : '')).filter(Boolean)
      throw new Error(
        `The system's proxy settings name only ${named.join(', ')}: SOCKS proxies are not supported, and Bookdrop ` +
          'does not connect directly instead. Ask for an http proxy, or set one (or none) in Settings → Connection.',
      )
    }
    for (const [i, e] of usable.entries()) {
      if (e.kind === 'direct') return null
      if (i === usable.length - 1) return e.url
      const until = this.#bad.get(e.url)
      if (until !== undefined && until > Date.now()) continue
      if (await this.#answers(e.url)) {
        this.#bad.delete(e.url)
        return e.url
      }
      this.down(e.url)
    }
    return null // not reached: the last entry returns above
  }

  /** A connection to this proxy failed: pass it over for a while. */
  down(proxy: string): void {
    this.#bad.set(proxy, Date.now() + BAD_PROXY_MS)
  }

  clear(): void {
    this.#bad.clear()
  }
}
