/**
 * The phone listener (issue 25): plain HTTP on one private-network address of this computer, for
 * the phone's page and its upload call only. Never the bridge's calls, the event stream or the
 * app's own page and scripts: every other request is answered 404.
 *
 * Every request, before its route: an origin-form target of bounded length, `Host` exactly this
 * listener's address and port (DNS rebinding), `Origin` (when sent; always for a POST) exactly its
 * origin, `Sec-Fetch-Site` same-origin when sent, and a rate limit per remote address. Then:
 * pairing needs the one-time token, everything else the session cookie from the same address and
 * browser, and uploads a session the desktop allowed. Bodies are bounded (1 KB of JSON to pair, 40 MB
 * per photo, declared up front) and photos are taken by what their bytes are. A refused request
 * leaves no trace but a counter: no log line, no file, no row.
 */
import { open, rm } from 'node:fs/promises'
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http'
import {
  MAX_DOCUMENT_PAGES,
  MAX_PHONE_NOTE,
  MAX_PHONE_PHOTO_BYTES,
  PHONE_TARGETS,
  PHONE_NOT_PAIRED,
  type PhoneOutcome,
  type PhonePhotoProgress,
  type PhoneRefusal,
  type PhoneSessionView,
  type PhoneTarget,
} from '../../../contract/phone'
import { isStorageError } from '../store/storage-errors'
import { type SniffedKind, sniffKind } from '../prepare/sniff'
import { authority } from './addresses'
import { SERVER_LIMITS, limitConnections } from './connections'
import { deviceName } from './device'
import { PHONE_KINDS, type PhoneInbox } from './inbox'
import type { PhonePage } from './page'
import { SentPhotos, progressOf } from './progress'
import { RateLimiter } from './rate'
import type { Pairing, PhoneClient, PhoneSession } from './sessions'
import type { UploadView } from '../../../contract/types'

export const COOKIE = 'bookdrop_phone'
/** How long GET /state?wait=1 holds a pending phone's request for the desktop's answer. */
const WAIT_MS = 20_000

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const HEADERS: Record<string, string> = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Content-Security-Policy': CSP,
}

/** Content types a photo upload may declare (what it is, is decided by its bytes). */
const UPLOAD_TYPES = /^(image\/[a-z0-9.+-]+|application\/pdf|application\/octet-stream)(;.*)?$/i
const ID = /^[A-Za-z0-9_-]{8,64}$/

export interface ListenerDeps {
  pairing: Pairing
  page: PhonePage
  inbox: PhoneInbox
  /** The business name for the phone's page (allowed sessions). */
  businessName(profileId: string | null): string | null
  /** An upload (history row) of the computer, to tell a phone what became of its photo. */
  upload(id: number): UploadView | undefined
  /** Something the desktop's panel shows changed (a phone paired, sent a photo). */
  changed(): void
  /** One request was refused. */
  refused(): void
  now?: () => number
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly kind: PhoneRefusal['kind'],
    message: string,
  ) {
    super(message)
  }
}

function cookieOf(req: IncomingMessage): string | undefined {
  const header = req.headers.cookie
  if (typeof header !== 'string' || header.length > 4096) return undefined
  for (const part of header.split(';')) {
    const i = part.indexOf('=')
    if (i > 0 && part.slice(0, i).trim() === COOKIE) return part.slice(i + 1).trim()
  }
  return undefined
}

function clientOf(req: IncomingMessage): PhoneClient {
  const ua = req.headers['user-agent']
  return { address: req.socket.remoteAddress ?? '', userAgent: typeof ua === 'string' ? ua.slice(0, 512) : '' }
}

async function readJson(req: IncomingMessage, limit: number): Promise<unknown> {
  const type = req.headers['content-type']
  if (typeof type !== 'string' || !/^application\/json(;|$)/i.test(type))
    throw new Refusal(415, 'request', 'Send JSON.')
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > limit) throw new Refusal(413, 'limit', 'The request is too large.')
    chunks.push(chunk as Buffer)
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    throw new Refusal(400, 'request', 'The request is not JSON.')
  }
}

export class PhoneListener {
  private server: Server | null = null
  private host = ''
  private origin = ''
  readonly port: number = 0
  private readonly perAddress: RateLimiter
  private readonly perSessionUploads: RateLimiter
  private readonly pairAttempts: RateLimiter
  /** Outcomes by session and upload id: a retried request gets the first one's answer. */
  private readonly outcomes = new Map<string, Promise<PhoneOutcome>>()
  /** Pending phones waiting on GET /state?wait=1, woken by the desktop's answer. */
  private readonly waiting = new Map<string, Set<() => void>>()
  /** The uploads each session's photos made, for GET /photos. */
  private readonly sent = new SentPhotos()
  private readonly now: () => number

  constructor(private readonly deps: ListenerDeps) {
    this.now = deps.now ?? Date.now
    this.perAddress = new RateLimiter(240, 60, this.now)
    this.perSessionUploads = new RateLimiter(60, 30, this.now)
    this.pairAttempts = new RateLimiter(10, 5, this.now)
  }

  /** Starts listening on `address` (port 0: a free one). Rejects when the address cannot be used. */
  async listen(address: string, port = 0): Promise<number> {
    const server = createServer(SERVER_LIMITS, (req, res) => void this.handle(req, res))
    // A phone needs a handful of connections; more from one peer is someone holding them open.
    limitConnections(server)
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen({ host: address, port, exclusive: true }, () => {
        server.off('error', reject)
        resolve()
      })
    })
    const addr = server.address()
    const bound = typeof addr === 'object' && addr ? addr.port : port
    this.server = server
    ;(this as { port: number }).port = bound
    this.host = authority(address, bound).toLowerCase()
    this.origin = `http://${this.host}`
    return bound
  }

  /** http://<address>:<port> */
  get url(): string {
    return this.origin
  }

  /** Wakes the phone of a session waiting for the desktop's answer. */
  wake(sessionId: string): void {
    const w = this.waiting.get(sessionId)
    this.waiting.delete(sessionId)
    for (const fn of w ?? []) fn()
  }

  /** Forgets the answers kept for a session's retries. */
  forgetSession(sessionId: string): void {
    for (const k of this.outcomes.keys()) if (k.startsWith(`${sessionId}:`)) this.outcomes.delete(k)
    this.sent.forget(sessionId)
    this.wake(sessionId)
  }

  async close(): Promise<void> {
    const s = this.server
    this.server = null
    if (!s) return
    for (const id of [...this.waiting.keys()]) this.wake(id)
    s.closeAllConnections()
    await new Promise<void>((resolve) => s.close(() => resolve()))
  }

  // ---- the boundary -------------------------------------------------------------------------

  private send(res: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
    if (res.headersSent) {
      res.destroy()
      return
    }
    const json = Buffer.from(JSON.stringify(body))
    res.writeHead(status, {
      ...HEADERS,
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': String(json.length),
      'Cache-Control': 'no-store',
      ...extra,
    })
    res.end(json)
  }

  private refuse(req: IncomingMessage, res: ServerResponse, r: Refusal): void {
    this.deps.refused()
    const body: PhoneRefusal = { error: r.message, kind: r.kind }
    // A body not read is not waited for: the connection closes after the answer.
    const unread = !req.complete
    this.send(res, r.status, body, unread ? { Connection: 'close' } : {})
    if (unread) req.resume()
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      await this.route(req, res)
    } catch (e) {
      if (e instanceof Refusal) return this.refuse(req, res, e)
      if (isStorageError(e)) {
        return this.send(res, 507, {
          error: "The computer's disk is full or failing: nothing was kept. Try again later.",
          kind: 'limit',
        } satisfies PhoneRefusal)
      }
      this.send(res, 500, { error: 'Something went wrong on the computer. Try again.', kind: 'request' } satisfies PhoneRefusal)
    }
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? ''
    if (!target.startsWith('/') || target.startsWith('//') || target.length > 2048)
      throw new Refusal(400, 'request', 'Bad request.')
    const host = req.headers.host
    if (typeof host !== 'string' || host.toLowerCase() !== this.host) throw new Refusal(403, 'request', 'Wrong address.')
    const origin = req.headers.origin
    if (origin !== undefined && origin !== this.origin) throw new Refusal(403, 'request', 'Requests from other sites are refused.')
    const site = req.headers['sec-fetch-site']
    if (site !== undefined && site !== 'same-origin' && site !== 'none') throw new Refusal(403, 'request', 'Requests from other sites are refused.')
    if (req.method === 'POST' && origin === undefined) throw new Refusal(403, 'request', 'Requests from other sites are refused.')
    if (!this.perAddress.take(req.socket.remoteAddress ?? '')) throw new Refusal(429, 'limit', 'Too many requests: wait a minute.')

    const q = target.indexOf('?')
    const path = q < 0 ? target : target.slice(0, q)
    const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1))
    const get = req.method === 'GET' || req.method === 'HEAD'

    if (get && path === '/') return this.sendPage(res, this.deps.page.html, 'text/html; charset=utf-8', 'no-store')
    const asset = get ? this.deps.page.assets.get(path) : undefined
    if (asset) return this.sendPage(res, asset.body, asset.type, 'public, max-age=31536000, immutable')
    if (req.method === 'POST' && path === '/pair') return this.pair(req, res)
    if (get && path === '/state') return this.state(req, res, query)
    if (get && path === '/photos') return this.photos(req, res)
    if (req.method === 'POST' && path === '/upload') return this.upload(req, res, query)
    throw new Refusal(404, 'request', 'Not found.')
  }

  private sendPage(res: ServerResponse, body: Buffer, type: string, cache: string): void {
    res.writeHead(200, { ...HEADERS, 'Content-Type': type, 'Content-Length': String(body.length), 'Cache-Control': cache })
    res.end(body)
  }

  private session(req: IncomingMessage, touch = true): PhoneSession {
    const s = this.deps.pairing.find(cookieOf(req), clientOf(req), touch)
    if (!s) throw new Refusal(403, 'session', PHONE_NOT_PAIRED)
    return s
  }

  private view(s: PhoneSession): PhoneSessionView {
    return s.state === 'pending'
      ? { state: 'pending', code: s.code, device: s.device }
      : { state: 'allowed', code: s.code, device: s.device, business: this.deps.businessName(s.profileId), targets: PHONE_TARGETS }
  }

  // ---- pairing ------------------------------------------------------------------------------

  private async pair(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.pairAttempts.take(req.socket.remoteAddress ?? '')) throw new Refusal(429, 'limit', 'Too many attempts: wait a minute.')
    const body = await readJson(req, 1024)
    const token = typeof body === 'object' && body !== null ? (body as { token?: unknown }).token : undefined
    const client = clientOf(req)
    const r = this.deps.pairing.redeem(token, client, deviceName(client.userAgent))
    if (!r.ok) {
      const message =
        r.why === 'expired'
          ? 'This link has expired (links last 10 minutes): choose "New link" on the computer and scan it again.'
          : r.why === 'used'
            ? 'This link was already used (each link pairs one phone once): choose "New link" on the computer.'
            : 'This link is not valid: scan the code the computer shows now.'
      throw new Refusal(r.why === 'unknown' ? 404 : 403, 'link', message)
    }
    this.deps.changed()
    const cookie = `${COOKIE}=${r.secret}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${Math.floor(this.deps.pairing.idleMs / 1000)}`
    this.send(res, 200, this.view(r.session), { 'Set-Cookie': cookie })
  }

  private async state(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
    let s = this.session(req)
    if (s.state === 'pending' && query.get('wait') === '1') {
      const id = s.id
      await new Promise<void>((resolve) => {
        const set = this.waiting.get(id) ?? new Set()
        this.waiting.set(id, set)
        const timer = setTimeout(done, WAIT_MS)
        function done() {
          clearTimeout(timer)
          set.delete(done)
          resolve()
        }
        set.add(done)
        req.once('close', done)
      })
      const now = this.deps.pairing.get(id)
      if (!now) throw new Refusal(403, 'session', 'The computer refused this phone, or the pairing ended: scan a new code on the computer.')
      s = now
    }
    this.send(res, 200, this.view(s))
  }

  /** What became of this session's photos: their uploads' states now (its own, and only theirs). */
  private photos(req: IncomingMessage, res: ServerResponse): void {
    // A poll of the page, not something the person did: it does not restart the 30 idle minutes.
    const s = this.session(req, false)
    const photos: PhonePhotoProgress[] = []
    for (const [id, upload] of this.sent.of(s.id)) {
      const row = this.deps.upload(upload)
      if (row && row.profileId === s.profileId) photos.push(progressOf(id, row))
    }
    this.send(res, 200, { photos })
  }

  // ---- photos -------------------------------------------------------------------------------

  private async upload(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
    const s = this.session(req)
    if (s.state !== 'allowed' || !s.profileId)
      throw new Refusal(403, 'session', 'The computer has not allowed this phone yet: choose Allow on the computer.')
    const id = query.get('id') ?? ''
    const target = query.get('target') ?? ''
    const name = query.get('name') ?? ''
    const note = query.get('note') ?? ''
    if (!ID.test(id)) throw new Refusal(400, 'request', 'Each photo needs its own id.')
    if (!(PHONE_TARGETS as readonly string[]).includes(target)) throw new Refusal(400, 'request', `Send as one of: ${PHONE_TARGETS.join(', ')}.`)
    if (name.length > 255 || note.length > MAX_PHONE_NOTE) throw new Refusal(400, 'request', `The note can be at most ${MAX_PHONE_NOTE} characters.`)
    let doc: { id: string; page: number; pages: number } | undefined
    if (query.has('doc')) {
      const docId = query.get('doc') ?? ''
      const page = Number(query.get('page'))
      const pages = Number(query.get('pages'))
      const ok = ID.test(docId) && Number.isInteger(pages) && pages >= 1 && pages <= MAX_DOCUMENT_PAGES && Number.isInteger(page) && page >= 1 && page <= pages
      if (!ok) throw new Refusal(400, 'request', `A document has 1 to ${MAX_DOCUMENT_PAGES} pages, numbered from 1.`)
      doc = { id: docId, page, pages }
    }
    const type = req.headers['content-type']
    if (typeof type !== 'string' || !UPLOAD_TYPES.test(type)) throw new Refusal(415, 'limit', 'Only photos and PDFs can be sent.')
    const length = Number(req.headers['content-length'])
    if (!Number.isInteger(length) || length <= 0) throw new Refusal(411, 'request', 'The photo is empty.')
    if (length > MAX_PHONE_PHOTO_BYTES)
      throw new Refusal(413, 'limit', `The photo is over ${MAX_PHONE_PHOTO_BYTES / 1024 / 1024} MB: take it again at a lower resolution.`)

    // The same photo sent again (a retry over a flaky connection): the first one's answer, no second row.
    const key = `${s.id}:${id}`
    const earlier = this.outcomes.get(key)
    if (earlier) {
      const outcome = await earlier.catch(() => null)
      if (outcome) {
        req.resume()
        return this.send(res, 200, outcome)
      }
    }
    if (!this.perSessionUploads.take(s.id)) throw new Refusal(429, 'limit', 'Too many photos at once: wait a minute.')
    const work = (async () => {
      const arrived = await this.receive(req, length)
      const outcome = await this.deps.inbox.take(
        { profileId: s.profileId!, sessionId: s.id, target: target as PhoneTarget, name, note, doc },
        arrived,
      )
      if (outcome.status !== 'received') s.photos++
      if (outcome.upload !== undefined) this.sent.add(s.id, id, outcome.upload)
      this.deps.changed()
      return outcome
    })()
    this.outcomes.set(key, work)
    if (this.outcomes.size > 5000) this.outcomes.delete(this.outcomes.keys().next().value!)
    try {
      this.send(res, 200, await work)
    } catch (e) {
      // Not received whole, or refused for what it is: the phone may send it again under the same id.
      if (this.outcomes.get(key) === work) this.outcomes.delete(key)
      throw e
    }
  }

  /** Streams the body into a private temporary file: exactly `length` bytes of a photo or a PDF. */
  private async receive(req: IncomingMessage, length: number): Promise<{ tmp: string; sniffed: SniffedKind }> {
    const tmp = await this.deps.inbox.incomingPath()
    const fh = await open(tmp, 'wx', 0o600)
    let size = 0
    let head: Buffer = Buffer.alloc(0)
    let ok = false
    try {
      for await (const chunk of req) {
        const c = chunk as Buffer
        size += c.length
        if (size > length) throw new Refusal(400, 'request', 'The photo is larger than announced.')
        if (head.length < 64) head = Buffer.concat([head, c.subarray(0, 64 - head.length)])
        await fh.write(c)
      }
      if (size !== length) throw new Refusal(400, 'request', 'The photo did not arrive whole: send it again.')
      const sniffed = sniffKind(head)
      if (!PHONE_KINDS[sniffed]) throw new Refusal(415, 'limit', 'Only photos (JPEG, PNG, HEIC, WebP) and PDFs can be sent.')
      ok = true
      return { tmp, sniffed }
    } finally {
      await fh.close()
      if (!ok) await rm(tmp, { force: true })
    }
  }
}
