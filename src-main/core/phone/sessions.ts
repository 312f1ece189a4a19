/**
 * Pairing a phone (issue 25): a one-time link, then a session the desktop must allow.
 *
 * - The link carries a pairing token of 160 random bits, valid 10 minutes, good for one pairing:
 *   the first phone that presents it spends it, whatever the desktop then decides. "New link"
 *   replaces it (only one link is ever valid).
 * - Presenting it makes a session, `pending` until the person clicks Allow or Refuse on the desktop.
 *   The phone holds the session's secret in an HttpOnly, SameSite=Strict cookie; the session is
 *   also bound to the phone's address and browser (User-Agent): the same cookie from another
 *   address or browser is refused.
 * - A session ends after 30 minutes without a request, when the desktop ends it, or when the panel
 *   closes (endAll). Nothing here is written to disk: a restart forgets every pairing.
 *
 * Tokens and secrets are compared as SHA-256 digests in constant time, and only digests are kept.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'

export const LINK_TTL_MS = 10 * 60_000
export const SESSION_IDLE_MS = 30 * 60_000
/** Random bytes of a pairing token (≥ 128 bits, as the issue asks) and of a session secret. */
const TOKEN_BYTES = 20
const SECRET_BYTES = 32

export interface PhoneClient {
  /** The remote address of the connection (never a header a proxy could set). */
  address: string
  userAgent: string
}

export type SessionState = 'pending' | 'allowed'

export interface PhoneSession {
  /** Public id (the desktop's buttons name it); not the secret. */
  id: string
  state: SessionState
  device: string
  /** Four digits the phone shows and the desktop shows next to Allow: the person checks they match. */
  code: string
  createdAt: number
  lastSeenAt: number
  /** The business the phone's photos go to, fixed when the person allowed it. */
  profileId: string | null
  /** Photos (or documents) received in this session. */
  photos: number
  readonly client: PhoneClient
  readonly secretDigest: Buffer
}

export type Redeemed =
  | { ok: true; session: PhoneSession; secret: string }
  | { ok: false; why: 'expired' | 'used' | 'unknown' }

function digest(s: string): Buffer {
  return createHash('sha256').update(s).digest()
}

function same(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b)
}

export class Pairing {
  private current: { digest: Buffer; expiresAt: number } | null = null
  /** Tokens already spent (or replaced), until they would have expired: to say "used", not "unknown". */
  private spent: { digest: Buffer; expiresAt: number }[] = []
  private readonly sessions = new Map<string, PhoneSession>()

  constructor(
    private readonly now: () => number = Date.now,
    readonly linkTtlMs = LINK_TTL_MS,
    readonly idleMs = SESSION_IDLE_MS,
    /** Told of each session that ended by itself (idle), so what was kept for it goes too. */
    private readonly onIdleEnd: (id: string) => void = () => {},
  ) {}

  /** A new one-time link token (the previous one stops working). */
  newLink(): { token: string; expiresAt: number } {
    if (this.current) this.spent.push(this.current)
    const token = randomBytes(TOKEN_BYTES).toString('base64url')
    const expiresAt = this.now() + this.linkTtlMs
    this.current = { digest: digest(token), expiresAt }
    return { token, expiresAt }
  }

  /** When the current link expires, or null when there is none valid (spent, expired, never made). */
  linkExpiresAt(): number | null {
    return this.current && this.current.expiresAt > this.now() ? this.current.expiresAt : null
  }

  /** Spends the link's token: a pending session for this phone, or why not. */
  redeem(token: unknown, client: PhoneClient, device: string): Redeemed {
    const t = this.now()
    this.spent = this.spent.filter((s) => s.expiresAt > t)
    if (typeof token !== 'string' || token.length < 16 || token.length > 64) return { ok: false, why: 'unknown' }
    const d = digest(token)
    const cur = this.current
    if (!cur || !same(cur.digest, d)) {
      return { ok: false, why: this.spent.some((s) => same(s.digest, d)) ? 'used' : 'unknown' }
    }
    this.current = null
    if (cur.expiresAt <= t) return { ok: false, why: 'expired' }
    this.spent.push(cur)
    const secret = randomBytes(SECRET_BYTES).toString('base64url')
    const session: PhoneSession = {
      id: randomBytes(9).toString('base64url'),
      state: 'pending',
      device,
      code: String(randomInt(0, 10_000)).padStart(4, '0'),
      createdAt: t,
      lastSeenAt: t,
      profileId: null,
      photos: 0,
      client: { address: client.address, userAgent: client.userAgent },
      secretDigest: digest(secret),
    }
    this.sessions.set(session.id, session)
    return { ok: true, session, secret }
  }

  /**
   * The session a request belongs to: its cookie's secret, from the same address and browser, not
   * idle for too long. Touches it (the idle clock restarts) unless `touch` is false (the page's
   * background polls: they do not keep a pairing alive). Null otherwise.
   */
  find(secret: string | undefined, client: PhoneClient, touch = true): PhoneSession | null {
    if (!secret || secret.length > 128) return null
    this.sweep()
    const d = digest(secret)
    for (const s of this.sessions.values()) {
      if (!same(s.secretDigest, d)) continue
      if (s.client.address !== client.address || s.client.userAgent !== client.userAgent) return null
      if (touch) s.lastSeenAt = this.now()
      return s
    }
    return null
  }

  get(id: string): PhoneSession | undefined {
    return this.sessions.get(id)
  }

  /** The person's answer on the desktop: allowed (photos go to `profileId`), or refused (the session ends). */
  decide(id: string, allow: boolean, profileId: string | null): PhoneSession | null {
    const s = this.sessions.get(id)
    if (!s || s.state !== 'pending') return null
    if (!allow) {
      this.sessions.delete(id)
      return null
    }
    s.state = 'allowed'
    s.profileId = profileId
    s.lastSeenAt = this.now()
    return s
  }

  end(id: string): boolean {
    return this.sessions.delete(id)
  }

  /** Ends every session and spends the link (the panel closed). */
  endAll(): void {
    this.sessions.clear()
    if (this.current) this.spent.push(this.current)
    this.current = null
  }

  /** Ends sessions idle for too long; returns how many. */
  sweep(): number {
    const t = this.now()
    let n = 0
    for (const [id, s] of this.sessions) {
      if (t - s.lastSeenAt >= this.idleMs) {
        this.sessions.delete(id)
        this.onIdleEnd(id)
        n++
      }
    }
    return n
  }

  list(): PhoneSession[] {
    return [...this.sessions.values()]
  }
}
