/**
 * Per-profile gates of the upload queue: a profile's state (active, paused, rate limited, waiting
 * for a key, a subscription or credits), its 429 pause, and pacing by the rate-limit window its
 * responses report (one budget per key: uploads, polls and the person's own calls).
 */
import { coded } from '../../../contract/coded'
import type { Coded } from '../../../contract/message'
import { MAIN_ERRORS as E } from '../../../contract/main-messages'
import { CREDITS_FIX } from '../../../schemas/assumptions'
import type { ConnectionProblem } from '../api/errors'
import type { RateLimit } from '../api/ratelimit'
import type { EngineEmitter, ProfileState } from '../events'
import { type BackoffOptions, connectionDelay } from './backoff'
import {
  type ClientFailure,
  CONNECTION_STATES,
  type Gate,
  HELD_STATES,
  type Work,
  isOutOfCredits,
} from './types'

/** "POST /expenses: a web page …" → "A web page …": the same text whichever request saw it. */
export function withoutRequest(message: string): string {
  const m = message.replace(/^(GET|POST|PUT|PATCH|DELETE) \S+?:\s+/, '')
  return m.charAt(0).toUpperCase() + m.slice(1)
}

export class ProfileGates {
  private readonly gates = new Map<string, Gate>()

  constructor(
    private readonly events: EngineEmitter,
    private readonly now: () => number,
    /** A profile's state changed (the queue looks whether it became idle). */
    private readonly onStateChange: () => void,
    /** The server refused the key (401) or there is none: the profile's client must be made anew. */
    private readonly onAuthLost: (profileId: string) => void,
    /** The connection backoff and the recheck of a problem only settings can fix (QueueOptions). */
    private readonly retry: () => { backoff: BackoffOptions; configurationRecheckMs: number } = () => ({
      backoff: { baseMs: 1000, capMs: 30_000 },
      configurationRecheckMs: 300_000,
    }),
  ) {}

  /** Every profile the queue knows, with its gate. */
  all(): IterableIterator<[string, Gate]> {
    return this.gates.entries()
  }

  gate(profileId: string): Gate {
    let g = this.gates.get(profileId)
    if (!g) {
      g = {
        state: 'active',
        conn: null,
        message: null,
        coded: null,
        pausedUntil: 0,
        limit: null,
        remaining: null,
        resetAt: null,
        inFlight: 0,
      }
      this.gates.set(profileId, g)
    }
    return g
  }

  /** A profile's state, pause and the last rate-limit window its responses reported (null: none yet). */
  state(profileId: string): {
    state: ProfileState
    message: string | null
    messageCoded: Coded | null
    pausedUntil: number | null
    rateLimit: RateLimit | null
  } {
    const g = this.gate(profileId)
    const known = g.limit !== null || g.remaining !== null || g.resetAt !== null
    return {
      state: g.state,
      message: g.message,
      messageCoded: g.coded,
      pausedUntil: g.pausedUntil > this.now() ? g.pausedUntil : null,
      rateLimit: known ? { limit: g.limit, remaining: g.remaining, resetAt: g.resetAt } : null,
    }
  }

  /** A profile's state and why (English text, or a Coded whose text is the English). */
  setState(profileId: string, state: ProfileState, said: string | Coded | null): void {
    const g = this.gate(profileId)
    const message = said === null || typeof said === 'string' ? said : said.text
    const coded = said === null || typeof said === 'string' ? null : said
    if (g.state === state && g.message === message && g.coded?.code === coded?.code) return
    g.state = state
    g.message = message
    g.coded = coded
    this.events.emit('profile', { profileId, state, message, ...(coded ? { messageCoded: coded } : {}) })
    this.onStateChange()
  }

  /**
   * The rate-limit headers of any response of this profile's key (uploads, polls, and the person's
   * own calls: one budget per key), kept here and nowhere else.
   */
  noteRateLimit(profileId: string, rl: RateLimit): void {
    const g = this.gate(profileId)
    const now = this.now()
    g.limit = rl.limit ?? g.limit
    if (g.remaining !== null && g.resetAt !== null && g.resetAt > now && rl.remaining !== null) {
      // Same window: responses of concurrent requests arrive in any order, so the smallest
      // remaining count is the true one.
      g.remaining = Math.min(g.remaining, rl.remaining)
      g.resetAt = Math.max(g.resetAt, rl.resetAt ?? g.resetAt)
    } else {
      g.remaining = rl.remaining ?? g.remaining
      g.resetAt = rl.resetAt ?? g.resetAt
    }
    this.emitRate(profileId)
  }

  emitRate(profileId: string): void {
    const g = this.gate(profileId)
    this.events.emit('rateLimit', {
      profileId,
      limit: g.limit,
      remaining: g.remaining,
      resetAt: g.resetAt,
      pausedUntil: g.pausedUntil > this.now() ? g.pausedUntil : null,
    })
  }

  /**
   * When this profile may start another request, or 0 if now. Infinity while paused by a person or
   * an auth problem; a profile out of AI credits still follows its jobs (a poll costs no credit).
   */
  readyAt(profileId: string, now: number, kind: Work = 'upload'): number {
    const g = this.gate(profileId)
    if (HELD_STATES.includes(g.state) && !(kind === 'poll' && g.state === 'out_of_credits')) return Infinity
    if (g.conn) {
      // Waiting for the path to the server: nothing before the next try, then one request at a
      // time (the probe); its end wakes the queue.
      if (now < g.conn.retryAt) return g.conn.retryAt
      if (g.inFlight > 0) return Infinity
    }
    if (g.pausedUntil > now) return g.pausedUntil
    if (g.state === 'rate_limited') this.setState(profileId, 'active', null)
    if (g.resetAt !== null && g.resetAt <= now) {
      // The window has reset: the next response will tell us the new budget.
      g.remaining = null
      g.resetAt = null
    }
    // Pacing: every request in flight will use one of the remaining requests of this window.
    if (g.remaining !== null && g.resetAt !== null && g.remaining - g.inFlight <= 0) return g.resetAt
    // Budget unknown (first request, or a new window): one request at a time until a response says.
    if (g.remaining === null && g.inFlight > 0) return now + 50
    return 0
  }

  blocked(now: number, kind: Work): { blocked: string[]; wakeAt: number } {
    const blocked: string[] = []
    let wakeAt = Infinity
    for (const id of this.gates.keys()) {
      const t = this.readyAt(id, now, kind)
      if (t > 0) {
        blocked.push(id)
        if (t < wakeAt) wakeAt = t
      }
    }
    return { blocked, wakeAt }
  }

  /**
   * A failure that concerns the whole profile, not one file: a 429 pauses the profile's queue
   * until the server's reset (or `defaultWaitMs`) and returns that time; a 401 or a missing key
   * asks for a new key; a 403 holds the profile for the subscription rule; an AI create nobody can
   * pay for holds it until credits are granted and a person resumes. Otherwise nothing.
   */
  hold(profileId: string, f: ClientFailure, defaultWaitMs: number): number | null {
    if (f.status === 429) {
      const g = this.gate(profileId)
      g.pausedUntil = Math.max(g.pausedUntil, this.now() + (f.retryAfterMs ?? defaultWaitMs))
      g.remaining = 0
      g.resetAt = g.pausedUntil
      this.setState(profileId, 'rate_limited', {
        ...coded(E.rateLimitedNow),
        text: 'The server asked Bookdrop to slow down; uploads resume automatically.',
      })
      this.emitRate(profileId)
      return g.pausedUntil
    }
    if (isOutOfCredits(f)) {
      const text = `${f.message.replace(/\.?\s*$/, '.')} ${CREDITS_FIX}`
      this.setState(profileId, 'out_of_credits', f.coded ? { ...f.coded, text } : text)
    } else if (f.status === 401 || f.errorCode === 'no_key') {
      const message =
        f.status === 401
          ? { ...coded(E.keyRefused), text: 'The server refused the API key (401). Enter a new key to continue.' }
          : f.message
      this.setState(profileId, 'auth_required', message)
      this.onAuthLost(profileId)
    } else if (f.status === 403) {
      this.setState(profileId, 'forbidden', f.coded ? { ...f.coded, text: f.message } : f.message)
    }
    return null
  }

  /**
   * Profiles that wait for a person (paused, a new key, a subscription change, credits) or for a
   * setting only a person can change (a certificate to trust, a proxy's password).
   */
  held(): string[] {
    return [...this.gates.entries()]
      .filter(([, g]) => HELD_STATES.includes(g.state) || g.conn?.configuration === true)
      .map(([id]) => id)
  }

  // ---- the path to the server (issue 22) ----------------------------------------------------------

  /**
   * No answer of the API came for a request of this profile (`f.connection` set): the profile waits
   * (state unreachable, not_api or offline, unless a held state has priority) and tries one request
   * after a capped backoff, or later if the answer's Retry-After asks (a 5xx page). Returns when
   * that is. A failure of a request that was already in flight when the wait began does not count
   * as a failed try. After a 5xx page, the try is a light probe before any file is sent again.
   */
  connectionFailed(
    profileId: string,
    f: Pick<ClientFailure, 'connection' | 'configuration' | 'message'> & Partial<Pick<ClientFailure, 'status' | 'retryAfterMs' | 'coded'>>,
  ): number {
    const g = this.gate(profileId)
    const now = this.now()
    const problem: ConnectionProblem = f.connection ?? 'unreachable'
    const configuration = f.configuration === true
    const probe = !g.conn || now >= g.conn.retryAt
    const failures = (g.conn?.failures ?? 0) + (probe ? 1 : 0)
    const { backoff, configurationRecheckMs } = this.retry()
    const asked = f.retryAfterMs ?? 0
    const wait = configuration ? configurationRecheckMs : Math.max(connectionDelay(failures, backoff), asked)
    const retryAt = probe || !g.conn ? now + wait : Math.max(g.conn.retryAt, now + asked)
    const what = withoutRequest(f.message).replace(/[.?!]?\s*$/, (p) => (p.trim() === '?' ? '?' : '.'))
    const doing = configuration
      ? 'Uploads wait until this is fixed; nothing is lost.'
      : asked > backoff.capMs
        ? `Uploads wait and Bookdrop tries again by itself in ${asked < 120_000 ? `${Math.round(asked / 1000)} s` : `${Math.round(asked / 60_000)} min`}, as the server asked; nothing is lost.`
        : `Uploads wait and Bookdrop tries again by itself (at least every ${Math.round(backoff.capMs / 1000)} s); nothing is lost.`
    // Said once: while the same problem lasts, its first words stay (a portal that alternates a
    // page and an empty answer is one problem, not a message per request).
    // A 5xx page after another problem gives its own words (it names what answered).
    const page = (f.status ?? 0) >= 500
    const same = g.conn && g.conn.problem === problem && g.conn.configuration === configuration && (!page || g.conn.light)
    const message = same ? g.conn!.message : `${what} ${doing}`
    const light = page || (same === true && g.conn!.light)
    g.conn = { problem, configuration, failures, retryAt, message, light }
    // Its code: the failure's own (offline, unreachable, a web page, a certificate…), worded where read.
    const said = f.coded && !same ? { ...f.coded, text: message } : same && g.coded ? { ...g.coded, text: message } : message
    if (!HELD_STATES.includes(g.state)) this.setState(profileId, problem, said)
    return retryAt
  }

  /** Whether the next upload of this profile must first ask the API a light question (see connectionFailed). */
  wantsProbe(profileId: string): boolean {
    return this.gates.get(profileId)?.conn?.light === true
  }

  /** The API answered (any answer in its envelope): the wait for the path is over. */
  connectionOk(profileId: string): void {
    const g = this.gates.get(profileId)
    if (!g?.conn) return
    g.conn = null
    if (CONNECTION_STATES.includes(g.state)) this.setState(profileId, 'active', null)
  }

  /**
   * The OS says the network went away (false) or came back, or the computer woke up (true). Gone:
   * every profile waits as offline (tried again at the cap, in case the OS is wrong). Back: every
   * wait for the path ends at once, so what waited goes now.
   */
  networkChanged(online: boolean): void {
    if (online) {
      for (const id of [...this.gates.keys()]) this.connectionOk(id)
      return
    }
    const { backoff } = this.retry()
    for (const [id, g] of this.gates) {
      const message = 'This computer is offline. Uploads wait and resume when the network is back; nothing is lost.'
      g.conn = { problem: 'offline', configuration: false, failures: g.conn?.failures ?? 1, retryAt: this.now() + backoff.capMs, message, light: false }
      if (!HELD_STATES.includes(g.state)) this.setState(id, 'offline', { ...coded(E.offline), text: message })
    }
  }
}
