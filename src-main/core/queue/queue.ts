/**
 * The persistent upload queue and job poller.
 *
 * Every row already sits in SQLite before anything here runs. The queue sends due rows with
 * bounded concurrency, retries network errors, 429 and 5xx with backoff (same Idempotency-Key every
 * time, even after a crash), paces each profile so `X-RateLimit-Remaining` never goes below zero,
 * pauses a whole profile on 429/401/403, follows async jobs until their record exists, and only
 * then hands the row to the after-upload step (move the source file).
 */
import {
  AI_CREDITS_EXHAUSTED_STATUS,
  COMPLETION_NOT_REPORTED,
  COMPLETION_NOT_REPORTED_CODE,
  CREDITS_FIX,
  ERROR_CODES,
  UNKNOWN_JOB_STATUS_POLLS,
  type AiTarget,
  type JobRead,
} from '../../../schemas'
import type { RateLimit } from '../api/ratelimit'
import type { EngineEmitter, ProfileState } from '../events'
import type { Upload, UploadStore } from '../store/uploads'
import {
  type BackoffOptions,
  DEFAULT_POLL,
  DEFAULT_RETRY_BACKOFF,
  type PollOptions,
  pollDelay,
  retryDelay,
} from './backoff'

/** What the queue needs of the API client (the real client satisfies it). */
export interface UploadClient {
  aiCreateFromFiles(
    target: AiTarget,
    body: { prompt: string; process_type?: 'async' | 'direct'; files: { path: string; name: string }[] },
    opts: {
      idempotencyKey: string
      maxFileBytes?: number
      onProgress?: (sent: number, total: number) => void
    },
  ): Promise<
    | { process_type: 'async'; job_reference: string }
    | { process_type: 'direct'; record: { uuid: string; resource_type?: string | null } }
    | { process_type: 'untracked' }
  >
  getJob(jobReference: string): Promise<JobRead>
}

/** The shape of a client failure the queue understands (ApiError has it). */
interface ClientFailure {
  status: number
  errorCode: string
  message: string
  retryable: boolean
  retryAfterMs?: number
  rateLimit?: RateLimit
}

function asFailure(e: unknown): ClientFailure {
  if (e && typeof e === 'object' && 'status' in e && 'errorCode' in e && 'retryable' in e) {
    return e as ClientFailure
  }
  return {
    status: 0,
    errorCode: 'internal_error',
    message: e instanceof Error ? e.message : String(e),
    retryable: false,
  }
}

type Work = 'upload' | 'poll'

/** Profile states that wait for a person: nothing of the profile starts while in one (but see readyAt). */
const HELD_STATES: readonly ProfileState[] = ['paused', 'auth_required', 'forbidden', 'out_of_credits']

/** An AI create the business's credits (or its partner's holding) cannot pay for. */
function isOutOfCredits(f: ClientFailure): boolean {
  return f.errorCode === ERROR_CODES.insufficientAiCredits || f.status === AI_CREDITS_EXHAUSTED_STATUS
}

export interface ClientProvider {
  /** The client of a profile, or an explanation of why there is none (no key saved, keychain locked). */
  clientFor(profileId: string, onRateLimit: (rl: RateLimit) => void): Promise<UploadClient>
}

export interface QueueOptions {
  concurrency: number
  maxPollsInFlight: number
  maxFileBytes: number
  /** Give up on a file after this many failed attempts at sending it. */
  maxAttempts: number
  retry: BackoffOptions
  poll: PollOptions
  now: () => number
  random: () => number
}

export const DEFAULT_QUEUE_OPTIONS: QueueOptions = {
  concurrency: 3,
  maxPollsInFlight: 4,
  maxFileBytes: 25 * 1024 * 1024,
  maxAttempts: 25,
  retry: DEFAULT_RETRY_BACKOFF,
  poll: DEFAULT_POLL,
  now: Date.now,
  random: Math.random,
}

/** How overdue a job poll may become while uploads have every slot (see pump). */
const POLL_YIELD_MS = 10_000

interface Gate {
  state: ProfileState
  message: string | null
  /** 429: nothing starts before this time. */
  pausedUntil: number
  limit: number | null
  remaining: number | null
  resetAt: number | null
  inFlight: number
}

/** What happens once a record exists (move the source file); failures are reported, never thrown. */
export type AfterRecord = (row: Upload) => Promise<void>

export class UploadQueue {
  private readonly opts: QueueOptions
  private readonly gates = new Map<string, Gate>()
  private readonly clients = new Map<string, Promise<UploadClient>>()
  private uploadsInFlight = 0
  private pollsInFlight = 0
  private timer: NodeJS.Timeout | null = null
  private pumpScheduled = false
  /** When a saturated pump last looked for overdue jobs. */
  private lastOverdueCheck = 0
  private running = false
  private idleWaiters: (() => void)[] = []
  private readonly pending = new Set<Promise<void>>()

  constructor(
    private readonly store: UploadStore,
    private readonly provider: ClientProvider,
    private readonly events: EngineEmitter,
    private readonly afterRecord: AfterRecord,
    opts: Partial<QueueOptions> = {},
  ) {
    this.opts = { ...DEFAULT_QUEUE_OPTIONS, ...opts }
  }

  get concurrency(): number {
    return this.opts.concurrency
  }

  setConcurrency(n: number): void {
    this.opts.concurrency = Math.max(1, Math.min(16, Math.floor(n)))
    this.kick()
  }

  /** First poll delay of a job (later polls back off from it up to the poll cap). */
  setPollInterval(ms: number): void {
    const firstMs = Math.max(100, Math.floor(ms))
    this.opts.poll = { ...this.opts.poll, firstMs, maxMs: Math.max(firstMs, this.opts.poll.maxMs) }
  }

  /** The largest file sent from now on (the Settings screen changes it live). */
  setMaxFileBytes(n: number): void {
    this.opts.maxFileBytes = Math.max(1, Math.floor(n))
  }

  start(): void {
    if (this.running) return
    this.running = true
    const n = this.store.recoverInterrupted(this.opts.now())
    for (const id of this.store.profilesWithWork()) this.gate(id)
    if (n > 0)
      this.events.emit('notice', {
        level: 'info',
        message: `${n} upload(s) interrupted last time will be retried`,
      })
    this.kick()
  }

  /** Stops starting new work and waits for requests in flight (their rows stay resumable). */
  async stop(): Promise<void> {
    this.running = false
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    await Promise.allSettled([...this.pending])
  }

  /** Something changed (a row was queued, a pause lifted): look for work soon. */
  kick(profileId?: string): void {
    if (profileId !== undefined) this.gate(profileId) // the scheduler looks at the profiles it knows
    if (!this.running || this.pumpScheduled) return
    this.pumpScheduled = true
    setImmediate(() => {
      this.pumpScheduled = false
      this.pump()
    })
  }

  // ---- profile gates: pause, resume, rate-limit pacing ----------------------------------------

  private gate(profileId: string): Gate {
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

  profileState(profileId: string): {
    state: ProfileState
    message: string | null
    pausedUntil: number | null
  } {
    const g = this.gate(profileId)
    return {
      state: g.state,
      message: g.message,
      pausedUntil: g.pausedUntil > this.opts.now() ? g.pausedUntil : null,
    }
  }

  private setState(profileId: string, state: ProfileState, message: string | null): void {
    const g = this.gate(profileId)
    if (g.state === state && g.message === message) return
    g.state = state
    g.message = message
    this.events.emit('profile', { profileId, state, message })
    this.checkIdle()
  }

  pause(profileId: string): void {
    this.setState(profileId, 'paused', 'Paused by you')
  }

  /**
   * Resumes a profile paused by a person, a 401 (after a new key), a 403 (after a subscription
   * change) or a lack of AI credits (after a grant or a purchase).
   */
  resume(profileId: string): void {
    this.clients.delete(profileId) // a rotated key means a new client
    const g = this.gate(profileId)
    g.pausedUntil = 0
    this.setState(profileId, 'active', null)
    this.kick()
  }

  /** Forget a profile's client (its key was rotated or removed). */
  forgetClient(profileId: string): void {
    this.clients.delete(profileId)
  }

  private observeRateLimit(profileId: string, rl: RateLimit): void {
    const g = this.gate(profileId)
    const now = this.opts.now()
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

  private emitRate(profileId: string): void {
    const g = this.gate(profileId)
    this.events.emit('rateLimit', {
      profileId,
      limit: g.limit,
      remaining: g.remaining,
      resetAt: g.resetAt,
      pausedUntil: g.pausedUntil > this.opts.now() ? g.pausedUntil : null,
    })
  }

  /**
   * When this profile may start another request, or 0 if now. Infinity while paused by a person or
   * an auth problem; a profile out of AI credits still follows its jobs (a poll costs no credit).
   */
  private readyAt(profileId: string, now: number, kind: Work = 'upload'): number {
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

  private blockedProfiles(now: number, kind: Work): { blocked: string[]; wakeAt: number } {
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

  private async client(profileId: string): Promise<UploadClient> {
    let c = this.clients.get(profileId)
    if (!c) {
      c = this.provider.clientFor(profileId, (rl) => this.observeRateLimit(profileId, rl))
      this.clients.set(profileId, c)
      c.catch(() => this.clients.delete(profileId))
    }
    return c
  }

  // ---- the pump ------------------------------------------------------------------------------

  private track(p: Promise<void>): void {
    this.pending.add(p)
    void p.finally(() => {
      this.pending.delete(p)
      this.kick()
      this.checkIdle()
    })
  }

  private pump(): void {
    if (!this.running) return
    const now = this.opts.now()
    const held = { upload: this.blockedProfiles(now, 'upload'), poll: this.blockedProfiles(now, 'poll') }
    let wakeAt = Math.min(held.upload.wakeAt, held.poll.wakeAt)
    /** Profiles whose rows may start now; null when none is held back (one query covers all). */
    const allowed = (kind: Work): string[] | null => {
      const blocked = held[kind].blocked
      return blocked.length === 0 ? null : [...this.gates.keys()].filter((id) => !blocked.includes(id))
    }
    const holdBack = (kind: Work, profileId: string, until: number) => {
      held[kind].blocked = [...held[kind].blocked, profileId]
      wakeAt = Math.min(wakeAt, until)
    }

    // Uploads: one row at a time so pacing sees each new request in flight.
    while (this.uploadsInFlight < this.opts.concurrency) {
      const row = this.store.nextDue(now, allowed('upload'))
      if (!row) break
      const ready = this.readyAt(row.profileId, now, 'upload')
      if (ready > 0) {
        holdBack('upload', row.profileId, ready)
        continue
      }
      this.startUpload(row)
    }

    // Polls share the profile's request budget and yield to uploads: while every upload slot is
    // busy, a job is polled only once it is overdue by POLL_YIELD_MS, so a big drop is accepted
    // first and no job waits for ever.
    const saturated = this.uploadsInFlight >= this.opts.concurrency
    const pollCap = saturated ? 1 : this.opts.maxPollsInFlight
    // While saturated, overdue jobs are looked for at most once a second (the pump runs per file).
    const lookForPolls = !saturated || now - this.lastOverdueCheck >= 1000
    if (saturated && lookForPolls) this.lastOverdueCheck = now
    while (lookForPolls && this.pollsInFlight < pollCap) {
      const row = this.store.nextPoll(saturated ? now - POLL_YIELD_MS : now, allowed('poll'))
      if (!row) break
      const ready = this.readyAt(row.profileId, now, 'poll')
      if (ready > 0) {
        holdBack('poll', row.profileId, ready)
        continue
      }
      this.startPoll(row)
    }

    // Sleep until the next row or poll is due, or a pause ends. A full pipe wakes the pump itself
    // (each finished request kicks it), so only ask SQLite when there is room.
    const nextUpload =
      this.uploadsInFlight < this.opts.concurrency ? this.store.nextDueAt(allowed('upload')) : null
    const nextPoll =
      !saturated && this.pollsInFlight < pollCap ? this.store.nextPollAt(allowed('poll')) : null
    const candidates = [wakeAt, nextUpload ?? Infinity, nextPoll ?? Infinity].filter((t) => t > now)
    const next = Math.min(...candidates)
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (Number.isFinite(next)) {
      this.timer = setTimeout(() => this.kick(), Math.max(5, Math.min(next - now, 60_000)))
    }
    this.checkIdle()
  }

  private startUpload(row: Upload): void {
    const g = this.gate(row.profileId)
    const now = this.opts.now()
    this.uploadsInFlight++
    g.inFlight++
    const updated = this.store.update(
      row.id,
      { status: 'uploading', attempts: row.attempts + 1, nextAttemptAt: null },
      now,
    )!
    this.emitUpload(updated, row.status)
    this.track(
      this.sendUpload(updated).finally(() => {
        this.uploadsInFlight--
        g.inFlight--
      }),
    )
  }

  private async sendUpload(row: Upload): Promise<void> {
    let lastEmit = 0
    try {
      const client = await this.client(row.profileId)
      const res = await client.aiCreateFromFiles(
        row.target,
        { prompt: row.prompt, process_type: row.processType, files: [{ path: row.path, name: row.name }] },
        {
          idempotencyKey: row.idempotencyKey,
          maxFileBytes: this.opts.maxFileBytes,
          onProgress: (sent, total) => {
            const t = this.opts.now()
            if (sent === total || t - lastEmit > 100) {
              lastEmit = t
              this.events.emit('progress', { id: row.id, sent, total })
            }
          },
        },
      )
      if (res.process_type === 'async') {
        const now = this.opts.now()
        const next = this.store.updateWhere(
          row.id,
          'uploading',
          {
            status: 'processing',
            jobReference: res.job_reference,
            polls: 0,
            nextAttemptAt: now + pollDelay(0, this.opts.poll, this.opts.random),
            lastError: null,
            errorCode: null,
            httpStatus: null,
          },
          now,
        )
        if (next) this.emitUpload(next, 'uploading') // else: cancelled while in flight
      } else if (res.process_type === 'direct') {
        await this.complete(row, res.record.uuid, res.record.resource_type ?? row.target, 'uploading')
      } else {
        await this.completionNotReported(row, 'uploading', 'its answer named no job and no record')
      }
    } catch (e) {
      this.uploadFailed(row, asFailure(e))
    }
  }

  private uploadFailed(row: Upload, f: ClientFailure): void {
    const now = this.opts.now()
    const cur = this.store.get(row.id)
    if (!cur || cur.status !== 'uploading') return
    const base = { lastError: f.message, errorCode: f.errorCode, httpStatus: f.status || null }

    // Problems with the file itself: it stays where it is, the row says why.
    const fileSkip: Record<string, Upload['reason']> = {
      file_not_found: 'vanished',
      not_a_file: 'unreadable',
      file_read_error: 'unreadable',
      file_too_large: 'too_large',
    }
    const skip = fileSkip[f.errorCode]
    if (skip) {
      this.finish(cur, { ...base, status: 'skipped', reason: skip })
      return
    }
    if (f.errorCode === 'file_changed') {
      // Written to while being sent: try again once it is stable (same key: nothing was created).
      this.finish(cur, { ...base, status: 'waiting_retry', nextAttemptAt: now + 2000 })
      return
    }

    if (isOutOfCredits(f)) {
      // Nothing was created: the file waits, with the profile, for credits.
      this.holdProfile(row.profileId, f, 0)
      this.finish(cur, { ...base, status: 'waiting_retry', nextAttemptAt: now })
      return
    }

    if (f.retryable) {
      if (cur.attempts >= this.opts.maxAttempts) {
        this.finish(cur, {
          ...base,
          status: 'failed',
          lastError: `Gave up after ${cur.attempts} attempts. Last error: ${f.message}`,
        })
        return
      }
      let wait = retryDelay(cur.attempts, f.retryAfterMs, this.opts.retry, this.opts.random)
      const pausedUntil = this.holdProfile(
        row.profileId,
        f,
        retryDelay(cur.attempts, undefined, this.opts.retry, this.opts.random),
      )
      if (pausedUntil !== null) wait = pausedUntil - now
      this.finish(cur, { ...base, status: 'waiting_retry', nextAttemptAt: now + wait })
      return
    }

    this.holdProfile(row.profileId, f, 0)
    this.finish(cur, { ...base, status: 'failed' })
  }

  /** Applies a change unless a person changed the row meanwhile (e.g. cancelled it mid-request). */
  /**
   * A failure that concerns the whole profile, not one file: a 429 pauses the profile's queue
   * until the server's reset (or `defaultWaitMs`) and returns that time; a 401 or a missing key
   * asks for a new key; a 403 holds the profile for the subscription rule; an AI create nobody can
   * pay for holds it until credits are granted and a person resumes. Otherwise nothing.
   */
  private holdProfile(profileId: string, f: ClientFailure, defaultWaitMs: number): number | null {
    if (f.status === 429) {
      const g = this.gate(profileId)
      g.pausedUntil = Math.max(g.pausedUntil, this.opts.now() + (f.retryAfterMs ?? defaultWaitMs))
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
      this.forgetClient(profileId)
    } else if (f.status === 403) {
      this.setState(profileId, 'forbidden', f.message)
    }
    return null
  }

  private finish(cur: Upload, patch: Partial<Upload>): void {
    const next = this.store.updateWhere(cur.id, cur.status, patch, this.opts.now())
    if (next) this.emitUpload(next, cur.status)
  }

  private startPoll(row: Upload): void {
    const g = this.gate(row.profileId)
    // Not due again while this poll is in flight; the answer sets the real next time.
    this.store.update(row.id, { nextAttemptAt: this.opts.now() + 60_000 })
    this.pollsInFlight++
    g.inFlight++
    this.track(
      this.poll(row).finally(() => {
        this.pollsInFlight--
        g.inFlight--
      }),
    )
  }

  private async poll(row: Upload): Promise<void> {
    const now = () => this.opts.now()
    try {
      const client = await this.client(row.profileId)
      const job = await client.getJob(row.jobReference!)
      if (job.status === 'completed') {
        await this.complete(row, job.resource_uuid, job.resource_type, 'processing')
      } else if (job.status === 'unknown' && row.polls + 1 >= UNKNOWN_JOB_STATUS_POLLS) {
        await this.completionNotReported(
          row,
          'processing',
          `job ${row.jobReference} never gave a status Bookdrop knows`,
        )
      } else if (job.status === 'failed') {
        this.finish(row, {
          status: 'failed',
          lastError: job.message ?? 'The server could not create a record from this file.',
          errorCode: 'job_failed',
        })
      } else {
        this.store.updateWhere(
          row.id,
          'processing',
          {
            polls: row.polls + 1,
            nextAttemptAt: now() + pollDelay(row.polls + 1, this.opts.poll, this.opts.random),
          },
          now(),
        )
      }
    } catch (e) {
      const f = asFailure(e)
      if (f.retryable || f.status === 401 || f.status === 403 || f.errorCode === 'no_key') {
        this.holdProfile(row.profileId, f, 1000)
        // The job is still on the server: keep following it.
        const wait = retryDelay(
          row.polls + 1,
          f.retryAfterMs,
          { baseMs: this.opts.poll.firstMs, capMs: this.opts.poll.maxMs },
          this.opts.random,
        )
        this.store.updateWhere(
          row.id,
          'processing',
          { polls: row.polls + 1, nextAttemptAt: now() + wait, lastError: f.message },
          now(),
        )
      } else {
        // The create was accepted; its job just cannot be followed (no such route or job, an answer
        // that cannot be read). Failing the row would invite a second create of the same file.
        await this.completionNotReported(
          row,
          'processing',
          `job ${row.jobReference} could not be followed: ${f.status ? `${f.status}, ` : ''}${f.message}`,
        )
      }
    }
  }

  /**
   * The one place that writes the outcome "sent; the server did not report completion": the row is
   * `completed` with no record uuid, COMPLETION_NOT_REPORTED_CODE and a note saying why (#11).
   */
  private async completionNotReported(row: Upload, from: Upload['status'], why: string): Promise<void> {
    await this.complete(row, null, null, from, {
      errorCode: COMPLETION_NOT_REPORTED_CODE,
      lastError: `${COMPLETION_NOT_REPORTED} (${why.replace(/\.\s*$/, '')})`,
    })
  }

  private async complete(
    row: Upload,
    recordUuid: string | null,
    recordType: string | null,
    from: Upload['status'],
    note: { errorCode: string; lastError: string } | null = null,
  ): Promise<void> {
    const now = this.opts.now()
    const done = this.store.updateWhere(
      row.id,
      from,
      {
        status: 'completed',
        recordUuid,
        recordType,
        completedAt: now,
        nextAttemptAt: null,
        lastError: note?.lastError ?? null,
        errorCode: note?.errorCode ?? null,
        httpStatus: null,
      },
      now,
    )
    if (!done) return // cancelled meanwhile
    this.emitUpload(done, from)
    await this.afterRecord(done)
  }

  private emitUpload(upload: Upload, previous: Upload['status'] | null): void {
    this.events.emit('upload', { upload, previous })
  }

  // ---- idle ----------------------------------------------------------------------------------

  /** Profiles that wait for a person (paused, a new key, a subscription change). */
  private heldProfiles(): string[] {
    return [...this.gates.entries()].filter(([, g]) => HELD_STATES.includes(g.state)).map(([id]) => id)
  }

  /** True when nothing is in flight and nothing is due or scheduled (rows of held profiles aside). */
  isIdle(): boolean {
    if (this.uploadsInFlight > 0 || this.pollsInFlight > 0 || this.pending.size > 0) return false
    const held = this.heldProfiles()
    // A profile out of credits still follows the jobs it started.
    const following = held.filter((id) => this.gate(id).state === 'out_of_credits')
    if (following.some((id) => this.store.countByStatus(id).processing > 0)) return false
    return this.store.countActive(held) === 0
  }

  private checkIdle(): void {
    if (this.idleWaiters.length === 0 || !this.isIdle()) return
    const w = this.idleWaiters
    this.idleWaiters = []
    for (const fn of w) fn()
  }

  /** Resolves once every row has reached a terminal status. */
  whenIdle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve()
    return new Promise((r) => this.idleWaiters.push(r))
  }
}
