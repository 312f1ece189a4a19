/**
 * The IMAP side of mail intake, through imapflow (a maintained IMAP client: IDLE, UID FETCH of
 * BODYSTRUCTURE, chunked part downloads with backpressure, modified UTF-7 mailbox names). Loaded
 * only when an IMAP account runs (`import('./imap')`), so an engine without mail never pays for it.
 *
 * TLS is implicit (`tls`) or STARTTLS that must succeed (`starttls`); plain IMAP only on loopback
 * (config.ts refuses it elsewhere). Certificates are checked by Node's default rules (the OS's
 * and Node's CAs, NODE_EXTRA_CA_CERTS). No log is written: imapflow's logger is off, and every
 * error is turned into a MailError whose message names the account and what to do, never the
 * password.
 */
import type { Readable } from 'node:stream'
import { ImapFlow, type FetchMessageObject, type MessageStructureObject } from 'imapflow'
import type { MailAccountConfig } from '../../../contract/types'
import { isLoopbackHost } from '../api/base-url'
import { coded } from '../../../contract/coded'
import { MAIL_STATES as S } from '../../../contract/main-states'
import { MailError } from './provider'
import type { MailMeta, MailPart, MailServer, MailSession, MailboxInfo } from './provider'

/** TLS certificate errors of Node and OpenSSL: the server's certificate is not trusted. */
const CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
])

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ETIMEOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'NoConnection',
  'EConnectionClosed',
  'ClosedAfterConnectText',
  'ClosedAfterConnectTLS',
  'CONNECT_TIMEOUT',
  'GREETING_TIMEOUT',
  'UPGRADE_TIMEOUT',
])

interface ImapErrorLike {
  code?: string
  message?: string
  authenticationFailed?: boolean
  tlsFailed?: boolean
  serverResponseCode?: string
  responseText?: string
  cause?: unknown
}

function codesOf(e: unknown): string[] {
  const out: string[] = []
  for (
    let cur: unknown = e, i = 0;
    cur && typeof cur === 'object' && i < 5;
    cur = (cur as ImapErrorLike).cause, i++
  ) {
    const c = (cur as ImapErrorLike).code
    if (typeof c === 'string') out.push(c)
  }
  return out
}

/** An imapflow or socket error as a MailError that names the account and what to do. */
export function classifyImapError(
  e: unknown,
  a: Pick<MailAccountConfig, 'label' | 'host' | 'port' | 'user'>,
  mailbox?: string,
): MailError {
  if (e instanceof MailError) return e
  const err = (e ?? {}) as ImapErrorLike
  const codes = codesOf(e)
  const where = `${a.host}:${a.port}`
  if (
    err.authenticationFailed ||
    err.serverResponseCode === 'AUTHENTICATIONFAILED' ||
    err.serverResponseCode === 'AUTHORIZATIONFAILED'
  ) {
    return new MailError(
      'auth',
      coded(S.auth, { label: a.label, user: a.user }),
    )
  }
  if (
    codes.some((c) => CERT_CODES.has(c)) ||
    (err.tlsFailed && /certificate|self.signed|issuer/i.test(err.message ?? ''))
  ) {
    return new MailError(
      'certificate',
      coded(S.certificate, { label: a.label, where, code: codes.find((c) => CERT_CODES.has(c)) ?? 'TLS' }),
    )
  }
  if (err.tlsFailed || codes.includes('ERR_SSL_WRONG_VERSION_NUMBER') || codes.includes('EPROTO')) {
    return new MailError(
      'certificate',
      coded(S.tls, { label: a.label, where }),
    )
  }
  if (
    err.serverResponseCode === 'NONEXISTENT' ||
    (mailbox &&
      /doesn.?t exist|not exist|unknown mailbox|no such mailbox/i.test(err.responseText ?? err.message ?? ''))
  ) {
    return new MailError(
      'mailbox',
      coded(S.noMailbox, { label: a.label, mailbox: mailbox ?? '?' }),
    )
  }
  if (codes.some((c) => UNREACHABLE_CODES.has(c))) {
    return new MailError(
      'unreachable',
      coded(S.unreachable, { label: a.label, where, code: codes[0] ?? '' }),
    )
  }
  const detail = (err.responseText || err.message || String(e)).slice(0, 200)
  return new MailError(
    'protocol',
    coded(S.protocol, { label: a.label, detail }),
  )
}

function toPart(s: MessageStructureObject | undefined): MailPart | null {
  if (!s) return null
  const params = (s.parameters ?? {}) as Record<string, string>
  const dparams = (s.dispositionParameters ?? {}) as Record<string, string>
  const filename = dparams.filename ?? params.name ?? null
  return {
    part: s.part ?? '',
    type: (s.type ?? 'application/octet-stream').toLowerCase(),
    disposition: s.disposition ? s.disposition.toLowerCase() : null,
    filename: filename ? String(filename) : null,
    size: typeof s.size === 'number' ? s.size : 0,
    contentId: s.id ? String(s.id).replace(/^<|>$/g, '') : null,
    encoding: s.encoding ? s.encoding.toLowerCase() : null,
    ...(s.childNodes?.length ? { children: s.childNodes.map((c) => toPart(c)!).filter(Boolean) } : {}),
  }
}

function toMeta(m: FetchMessageObject): MailMeta {
  const env = m.envelope
  return {
    uid: m.uid,
    messageId: env?.messageId?.trim() || null,
    from: (env?.from ?? []).map((f) => ({ name: f.name ?? '', address: f.address ?? '' })),
    subject: env?.subject ?? '',
    receivedAt: m.internalDate ? new Date(m.internalDate).getTime() : null,
    size: m.size ?? 0,
    structure: toPart(m.bodyStructure),
  }
}

class ImapSession implements MailSession {
  private selected: string[] | null = null
  private closed = false
  private onClose: Array<(e: Error) => void> = []

  constructor(
    private readonly client: ImapFlow,
    private readonly account: MailAccountConfig,
  ) {
    client.on('close', () => {
      this.closed = true
      const e = classifyImapError({ code: 'NoConnection' }, account)
      for (const f of this.onClose.splice(0)) f(e)
    })
  }

  get canIdle(): boolean {
    return this.client.capabilities.has('IDLE')
  }

  private mailboxName(): string {
    return this.selected?.join('/') ?? ''
  }

  private async guard<T>(fn: () => Promise<T>, mailbox?: string): Promise<T> {
    try {
      return await fn()
    } catch (e) {
      throw classifyImapError(e, this.account, mailbox)
    }
  }

  async open(mailbox: string[]): Promise<MailboxInfo> {
    const name = mailbox.join('/')
    const mb = await this.guard(() => this.client.mailboxOpen(mailbox), name)
    this.selected = mailbox
    return { uidValidity: String(mb.uidValidity), uidNext: mb.uidNext ?? null, exists: mb.exists }
  }

  async search(o: { afterUid: number; since: string }): Promise<number[]> {
    const found = await this.guard(() =>
      this.client.search(
        { uid: `${o.afterUid + 1}:*`, since: new Date(`${o.since}T00:00:00Z`) },
        { uid: true },
      ),
    )
    // `N:*` always matches the mailbox's last mail, even below N.
    return (found || []).filter((u) => u > o.afterUid).sort((a, b) => a - b)
  }

  async fetchMeta(uids: number[]): Promise<MailMeta[]> {
    if (uids.length === 0) return []
    return this.guard(async () => {
      const out: MailMeta[] = []
      for await (const m of this.client.fetch(
        uids.join(','),
        { uid: true, envelope: true, bodyStructure: true, internalDate: true, size: true },
        { uid: true },
      )) {
        out.push(toMeta(m))
      }
      return out.sort((a, b) => a.uid - b.uid)
    })
  }

  async download(uid: number, part: string, o: { maxBytes: number }): Promise<Readable | null> {
    // BINARY (where the server has it) leaves the Base64 decoding to the server: fewer bytes on the
    // wire, none decoded here. Fetched in partial chunks of 512 KiB: one round trip for a receipt,
    // and never more than a chunk of a large attachment in memory.
    const d = await this.guard(() =>
      this.client.download(String(uid), part, {
        uid: true,
        maxBytes: o.maxBytes,
        binary: true,
        chunkSize: 512 * 1024,
      }),
    )
    return (d?.content as Readable | undefined) ?? null
  }

  async fetchParts(uids: number[], part: string, maxBytes: number): Promise<Map<number, Buffer>> {
    const out = new Map<number, Buffer>()
    if (uids.length === 0) return out
    await this.guard(async () => {
      for await (const m of this.client.fetch(
        uids.join(','),
        { uid: true, bodyParts: [part] },
        { uid: true, binary: true },
      )) {
        const b = m.bodyParts?.get(part)
        // BINARY answers decoded bytes; a server without it answers the part as sent (Base64).
        if (b && b.length <= maxBytes && m.binaryParts?.has(part)) out.set(m.uid, b)
      }
    })
    return out
  }

  async markSeen(uids: number[]): Promise<void> {
    if (uids.length === 0) return
    await this.guard(() => this.client.messageFlagsAdd(uids.join(','), ['\\Seen'], { uid: true }))
  }

  async move(uids: number[], to: string[]): Promise<void> {
    if (uids.length === 0) return
    const name = to.join('/')
    await this.guard(async () => {
      // CREATE answers ALREADYEXISTS for a mailbox that is there (imapflow returns created: false).
      await this.client.mailboxCreate(to)
      await this.client.messageMove(uids.join(','), to, { uid: true })
    }, name)
  }

  wait(ms: number, signal: AbortSignal): Promise<void> {
    if (this.closed) return Promise.reject(classifyImapError({ code: 'NoConnection' }, this.account))
    return new Promise<void>((resolve, reject) => {
      let done = false
      const finish = (err?: Error) => {
        if (done) return
        done = true
        clearTimeout(timer)
        signal.removeEventListener('abort', onAbort)
        this.client.off('exists', onExists)
        this.onClose = this.onClose.filter((f) => f !== onLost)
        if (err) reject(err)
        else resolve()
      }
      const onExists = (e: { count: number; prevCount: number }) => {
        if (e.count > e.prevCount) finish()
      }
      const onAbort = () => finish()
      const onLost = (e: Error) => finish(e)
      const timer = setTimeout(() => finish(), ms)
      signal.addEventListener('abort', onAbort, { once: true })
      this.client.on('exists', onExists)
      this.onClose.push(onLost)
      if (!this.account.usePolling && this.canIdle) {
        // IDLE until new mail, the timer, or the next command (which ends IDLE first).
        this.client
          .idle()
          .catch((e: unknown) => finish(classifyImapError(e, this.account, this.mailboxName())))
      } else {
        // Polling: nothing to do until the timer; the next search asks the server.
      }
    })
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    try {
      await Promise.race([this.client.logout(), new Promise((r) => setTimeout(r, 2000))])
    } catch {
      // closing anyway
    }
    this.client.close()
  }
}

export const imapServer: MailServer = {
  async connect(account, password, signal) {
    if (!password) {
      throw new MailError(
        'no_password',
        coded(S.noPassword, { label: account.label, user: account.user }),
      )
    }
    if (account.security === 'plain' && !isLoopbackHost(account.host)) {
      throw new MailError(
        'certificate',
        coded(S.plainRemote, { label: account.label }),
      )
    }
    const client = new ImapFlow({
      host: account.host,
      port: account.port,
      secure: account.security === 'tls',
      doSTARTTLS: account.security === 'starttls' ? true : account.security === 'plain' ? false : undefined,
      auth: { user: account.user, pass: password },
      logger: false,
      // IDLE is started by the runner when it waits (no 15 s delay before new mail is pushed).
      disableAutoIdle: true,
      maxIdleTime: 4 * 60_000,
      connectionTimeout: 20_000,
      greetingTimeout: 15_000,
      socketTimeout: 6 * 60_000,
      tls: { minVersion: 'TLSv1.2' },
      clientInfo: { name: 'Bookdrop' },
      // Bound what a broken or hostile server can make the client hold (an attachment is streamed
      // in 64 KiB partial fetches, so no literal is ever near this).
      maxLiteralSize: 64 * 1024 * 1024,
      maxResponseSize: 128 * 1024 * 1024,
    })
    // Errors surface through the command that meets them, or 'close'.
    client.on('error', () => undefined)
    const abort = () => client.close()
    signal.addEventListener('abort', abort, { once: true })
    try {
      await client.connect()
    } catch (e) {
      client.close()
      throw classifyImapError(e, account)
    } finally {
      signal.removeEventListener('abort', abort)
    }
    return new ImapSession(client, account)
  },
}
