/**
 * Per-profile gates of the upload queue: a profile's state (active, paused, rate limited, waiting
 * for a key, a subscription or credits), its 429 pause, and pacing by the rate-limit window its
 * responses report (one budget per key: uploads, polls and the person's own calls).
 */
import { CREDITS_FIX } from '../../../schemas/assumptions'
import { CLIENT_ERROR_CODES } from '../api/errors'
import type { RateLimit } from '../api/ratelimit'
import type { EngineEmitter, ProfileState } from '../events'
import { type ClientFailure, type Gate, HELD_STATES, type Work, isOutOfCredits } from './types'

// ---- connection truth (issue 26, minimal: the issue-22 branch brings the fuller version) ------------

/** States that say the API cannot be reached; the first answer of the API clears them. */
const CONNECTION_STATES: readonly ProfileState[] = ['unreachable', 'not_api', 'offline']

/** A request that got no answer at all: refused, DNS, reset, timeout (status 0, not a local refusal). */
export function isNoAnswer(f: ClientFailure): boolean {
  return f.status === 0 && (f.errorCode === CLIENT_ERROR_CODES.network || f.errorCode === CLIENT_ERROR_CODES.timeout)
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
        message: null,
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
    pausedUntil: number | null
    rateLimit: RateLimit | null
  } {
    const g = this.gate(profileId)
    const known = g.limit !== null || g.remaining !== null || g.resetAt !== null
    return {
      state: g.state,
      message: g.message,
      pausedUntil: g.pausedUntil > this.now() ? g.pausedUntil : null,
      rateLimit: known ? { limit: g.limit, remaining: g.remaining, resetAt: g.resetAt } : null,
    }
  }

  setState(profileId: string, state: ProfileState, message: string | null): void {
    const g = this.gate(profileId)
    if (g.state === state && g.message === message) return
    g.state = state
    g.message = message
    this.events.emit('profile', { profileId, state, message })
    this.onStateChange()
  }

  /**
   * A request of this profile got no answer (isNoAnswer): the profile is 'unreachable' until the
   * API answers again. Nothing is held: each file keeps its own retry. A state that waits for a
   * person (paused, a key, a subscription, credits) or a 429 pause is not overwritten.
   */
  noAnswer(profileId: string, f: ClientFailure): void {
    if (!isNoAnswer(f)) return
    const g = this.gate(profileId)
    if (g.state !== 'active' && !CONNECTION_STATES.includes(g.state)) return
    this.setState(
      profileId,
      'unreachable',
      `${f.message.replace(/\.?\s*$/, '.')} Bookdrop keeps trying by itself; nothing is lost.`,
    )
  }

  /** The API answered a request of this profile: 'unreachable' (and the like) is over. */
  answered(profileId: string): void {
    const g = this.gates.get(profileId)
    if (g && CONNECTION_STATES.includes(g.state)) this.setState(profileId, 'active', null)
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
   * pay for holds it until credits are granted and a person resumes; no answer at all marks it
   * 'unreachable' (held nothing). Otherwise nothing.
   */
  hold(profileId: string, f: ClientFailure, defaultWaitMs: number): number | null {
    if (isNoAnswer(f)) {
      this.noAnswer(profileId, f)
      return null
    }
    if (f.status === 429) {
      const g = this.gate(profileId)
      g.pausedUntil = Math.max(g.pausedUntil, this.now() + (f.retryAfterMs ?? defaultWaitMs))
      g.remaining = 0
      g.resetAt = g.pausedUntil
      this.setState(
        profileId,
        'rate_limited',
        'The server asked Bookdrop to slow down; uploads resume automatically.',
      )
      this.emitRate(profileId)
      return g.pausedUntil
    }
    if (isOutOfCredits(f)) {
      this.setState(profileId, 'out_of_credits', `${f.message.replace(/\.?\s*$/, '.')} ${CREDITS_FIX}`)
    } else if (f.status === 401 || f.errorCode === 'no_key') {
      const message =
        f.status === 401 ? 'The server refused the API key (401). Enter a new key to continue.' : f.message
      this.setState(profileId, 'auth_required', message)
      this.onAuthLost(profileId)
    } else if (f.status === 403) {
      this.setState(profileId, 'forbidden', f.message)
    }
    return null
  }

  /** Profiles that wait for a person (paused, a new key, a subscription change, credits). */
  held(): string[] {
    return [...this.gates.entries()].filter(([, g]) => HELD_STATES.includes(g.state)).map(([id]) => id)
  }
}
