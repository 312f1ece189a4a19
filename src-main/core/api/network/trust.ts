/**
 * Whom a TLS connection trusts (issue 22, issue 31): Node's own authorities, the OS store's where
 * it can be read (for a corporate TLS inspection), and an optional PEM (Settings or `--ca-file`),
 * built once into one secure context. The same context checks the API's server and an https://
 * proxy's own certificate. The summary a person reads (`--check`, Test connection) says what was
 * really read: a store that could not be read is named as not trusted, with the reason.
 */
import { X509Certificate } from 'node:crypto'
import tls from 'node:tls'

/** A PEM that holds no certificate Node can read. */
export class CertificateFileError extends Error {
  override readonly name = 'CertificateFileError'
}

/** The largest PEM accepted (a bundle of a few hundred certificates is about 250 KB). */
export const MAX_CA_PEM_BYTES = 2 * 1024 * 1024

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g

/**
 * The certificates of a PEM text, each checked by parsing; a clear error when there is none or one
 * is damaged. Returns the PEM blocks and their subjects (for Settings and `--check`).
 */
export function readCaPem(text: string, where = 'The certificate file'): { pems: string[]; subjects: string[] } {
  if (Buffer.byteLength(text) > MAX_CA_PEM_BYTES)
    throw new CertificateFileError(`${where} is larger than 2 MB: it is not a certificate bundle.`)
  const blocks = text.match(PEM_BLOCK) ?? []
  if (blocks.length === 0) {
    throw new CertificateFileError(
      `${where} holds no certificate: it must be PEM text with "-----BEGIN CERTIFICATE-----" blocks.`,
    )
  }
  const subjects: string[] = []
  for (const [i, pem] of blocks.entries()) {
    try {
      subjects.push(nameOf(new X509Certificate(pem).subject))
    } catch {
      throw new CertificateFileError(`${where}: certificate ${i + 1} of ${blocks.length} cannot be read (damaged PEM).`)
    }
  }
  return { pems: blocks, subjects }
}

/** "CN=Corp Root\nO=Corp" → "Corp Root (Corp)". */
export function nameOf(dn: string | Record<string, unknown> | undefined | null): string {
  if (!dn) return 'an unnamed authority'
  const fields: Record<string, string> = {}
  if (typeof dn === 'string') {
    for (const line of dn.split('\n')) {
      const at = line.indexOf('=')
      if (at > 0) fields[line.slice(0, at)] = line.slice(at + 1)
    }
  } else {
    for (const [k, v] of Object.entries(dn)) if (typeof v === 'string') fields[k] = v
  }
  const cn = fields.CN
  const o = fields.O
  if (cn && o && o !== cn) return `${cn} (${o})`
  return cn ?? o ?? 'an unnamed authority'
}

/** The certificates (PEM) of the OS store; throws when they cannot be read. */
export type SystemCaReader = () => readonly string[]

/** The OS store as Node reads it (`tls.getCACertificates('system')`, Node 22.15 and later). */
export const readSystemStore: SystemCaReader = () => {
  if (typeof tls.getCACertificates !== 'function') throw new Error('this version of Node cannot read it')
  return tls.getCACertificates('system')
}

export interface TrustOptions {
  /** Extra trusted certificates, PEM text. */
  extraCaPem?: string | null
  /** Trust the OS store as well (default true). */
  systemCa?: boolean
  /** Where the OS store is read from (default: `readSystemStore`). */
  readSystemCa?: SystemCaReader
}

export interface Trust {
  /** The context of every TLS connection, or null for Node's defaults alone. */
  context: tls.SecureContext | null
  /** What is trusted, in words: "Node's certificate authorities, the system's store (576 certificates), 1 extra certificate". */
  summary: string
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

/** Reads the OS store (once per call) and builds the context and its summary. */
export function buildTrust(opts: TrustOptions): Trust {
  const extra = opts.extraCaPem ? readCaPem(opts.extraCaPem).pems : []
  const parts = ["Node's certificate authorities"]
  let system: readonly string[] = []
  let unread = ''
  if (opts.systemCa !== false) {
    try {
      system = (opts.readSystemCa ?? readSystemStore)()
      parts.push(`the system's store (${plural(system.length, 'certificate')})`)
    } catch (e) {
      // Node's own list (and the extra PEM) still apply; the summary says the store does not.
      const reason = e instanceof Error ? e.message : String(e)
      unread = ` (not the system's store: it could not be read, ${reason.slice(0, 200)})`
    }
  }
  if (extra.length > 0) parts.push(plural(extra.length, 'extra certificate'))
  const summary = parts.join(', ') + unread
  if (system.length === 0 && extra.length === 0) return { context: null, summary }
  const ca = new Set<string>(
    typeof tls.getCACertificates === 'function' ? tls.getCACertificates('default') : tls.rootCertificates,
  )
  for (const c of system) ca.add(c)
  for (const c of extra) ca.add(c)
  return { context: tls.createSecureContext({ ca: [...ca] }), summary }
}
