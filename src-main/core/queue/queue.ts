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
import type { Upload, UploadStatus, UploadStore } from '../store/uploads'
import { isStorageError, storageMessage } from '../store/storage-errors'
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
    body: {
      prompt: string
      process_type?: 'async' | 'direct'
      files: { path: string; name: string; expect?: { size: number; mtimeMs: number; sha256: string } }[]
    },
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
  /** Give up on a job this long after the server accepted its file (Settings; default 24 h). */
  jobTimeoutMs: number
  /** A job the server says it does not know (404) is asked about again while younger than this. */
  jobNotFoundGraceMs: number
  now: () => number
  random: () => number
}

/** Default job deadline: a day. */
export const DEFAULT_JOB_TIMEOUT_MS = 24 * 60 * 60_000

export const DEFAULT_QUEUE_OPTIONS: QueueOptions = {
  concurrency: 3,
  maxPollsInFlight: 4,
  maxFileBytes: 25 * 1024 * 1024,
  maxAttempts: 25,
  retry: DEFAULT_RETRY_BACKOFF,
  poll: DEFAULT_POLL,
  jobTimeoutMs: DEFAULT_JOB_TIMEOUT_MS,
  jobNotFoundGraceMs: 60_000,
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

/** What the engine does around the queue. */
export interface QueueHooks {
  /** Once a record exists (move the source file); failures are reported, never thrown. */
  afterRecord(row: Upload): Promise<void>
  /** The file changed on disk before it was sent: its row is superseded; take the new version. */
  superseded(row: Upload): void
  /** Storage works again after a fault (the engine re-takes files it could not record). */
  storageRecovered?(): void
}

/** How long the queue waits before trying storage again after a fault, rising to the cap. */
const STORAGE_PROBE_FIRST_MS = 1000
const STORAGE_PROBE_MAX_MS = 30_000
/** A clock step backwards larger than this moves every scheduled time with it. */
const CLOCK_STEP_MS = 1000

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
  /** Rows with a request in flight in this process (a row 'uploading' in SQLite but not here is an orphan). */
  private readonly inFlightRows = new Set<number>()
  /** Rows whose job is being asked about right now: not picked for another poll meanwhile. */
  private readonly pollingRows = new Set<number>()
  /** Storage failed (disk full, I/O error): nothing starts until a write succeeds again. */
  private storage: { problem: string; probeMs: number; timer: NodeJS.Timeout | null } | null = null
  /** The clock at the last pump, to notice it going backwards. */
  private lastNow: number | null = null

  constructor(
    private readonly store: UploadStore,
    private readonly provider: ClientProvider,
    private readonly events: EngineEmitter,
    private readonly hooks: QueueHooks,
    opts: Partial<QueueOptions> = {},
  ) {
    this.opts = { ...DEFAULT_QUEUE_OPTIONS, ...opts }
  }

  get concurrency(): number {
    return this.opts.concurrency
  }

  get maxFileBytes(): number {
    return this.opts.maxFileBytes
  }

  /** The options Settings changes, as now in force. */
  settings(): { concurrency: number; maxFileBytes: number; pollIntervalMs: number; jobTimeoutMs: number } {
    const o = this.opts
    return { concurrency: o.concurrency, maxFileBytes: o.maxFileBytes, pollIntervalMs: o.poll.firstMs, jobTimeoutMs: o.jobTimeoutMs }
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

  /** The job deadline from now on (Settings, headless --job-timeout). */
  setJobTimeout(ms: number): void {
    this.opts.jobTimeoutMs = Math.max(1000, Math.floor(ms))
    this.kick()
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
    if (this.storage?.timer) clearTimeout(this.storage.timer)
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

  /** A profile's state, pause and the last rate-limit window its responses reported (null: none yet). */
  profileState(profileId: string): {
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
      pausedUntil: g.pausedUntil > this.opts.now() ? g.pausedUntil : null,
      rateLimit: known ? { limit: g.limit, remaining: g.remaining, resetAt: g.resetAt } : null,
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

  /**
   * The rate-limit headers of any response of this profile's key (uploads, polls, and the person's
   * own calls: one budget per key), kept here and nowhere else.
   */
  noteRateLimit(profileId: string, rl: RateLimit): void {
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
      c = this.provider.clientFor(profileId, (rl) => this.noteRateLimit(profileId, rl))
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
    if (!this.running || this.storage) return
    try {
      this.pumpOnce()
    } catch (e) {
      // Every scheduler step catches its errors: storage faults pause the queue until a write
      // succeeds again; anything else is told, and the queue looks again in a while.
      if (isStorageError(e)) this.storageFault(e)
      else {
        this.events.emit('notice', {
          level: 'error',
          message: `The upload queue hit an error and will try again: ${(e as Error).message}`,
        })
        this.wakeIn(5000)
      }
    }
  }

  private wakeIn(ms: number): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.kick(), ms)
  }

  /** The clock went backwards (a corrected system clock, or a test): move every scheduled time with it. */
  private followClock(now: number): void {
    const last = this.lastNow
    this.lastNow = now
    if (last === null || now >= last - CLOCK_STEP_MS) return
    const delta = now - last
    this.store.shiftClock(delta)
    for (const g of this.gates.values()) {
      if (g.pausedUntil > 0) g.pausedUntil += delta
      if (g.resetAt !== null) g.resetAt += delta
    }
  }

  private pumpOnce(): void {
    const now = this.opts.now()
    this.followClock(now)
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

    // Uploads: one row at a time so pacing sees each new request in flight. One query answers both
    // "what is due?" and, when the earliest row is not due yet, "when to look again?".
    let nextUpload: number | null = null
    while (this.uploadsInFlight < this.opts.concurrency) {
      const row = this.store.nextToSend(allowed('upload'))
      if (!row) break
      if (row.nextAttemptAt !== null && row.nextAttemptAt > now) {
        nextUpload = row.nextAttemptAt
        break
      }
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
    let nextPoll: number | null = null
    const dueBy = saturated ? now - POLL_YIELD_MS : now
    while (lookForPolls && this.pollsInFlight < pollCap) {
      const row = this.store.nextToPoll(allowed('poll'), [...this.pollingRows])
      if (!row) break
      if (row.nextAttemptAt !== null && row.nextAttemptAt > dueBy) {
        if (!saturated) nextPoll = row.nextAttemptAt
        break
      }
      const ready = this.readyAt(row.profileId, now, 'poll')
      if (ready > 0) {
        holdBack('poll', row.profileId, ready)
        continue
      }
      this.startPoll(row)
    }

    // Sleep until the next row or poll is due, or a pause ends. A full pipe wakes the pump itself
    // (each finished request kicks it).
    const candidates = [wakeAt, nextUpload ?? Infinity, nextPoll ?? Infinity].filter((t) => t > now)
    const next = Math.min(...candidates)
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (Number.isFinite(next)) {
      this.timer = setTimeout(() => this.kick(), Math.max(5, Math.min(next - now, 60_000)))
    }
    this.checkIdle()
  }

  // ---- storage faults --------------------------------------------------------------------------

  /** The problem that holds the whole queue (disk full, I/O error), or null. */
  storageProblem(): string | null {
    return this.storage?.problem ?? null
  }

  /**
   * A write failed for lack of space or an I/O error: nothing new starts (a row is never marked
   * sent unless that write succeeded: it stays 'uploading' and is sent again with the same
   * Idempotency-Key, so the server replays), and the queue tries storage again with backoff.
   */
  storageFault(e: unknown): void {
    const problem = storageMessage(e)
    if (this.storage) {
      this.storage.problem = problem
      return
    }
    this.storage = { problem, probeMs: STORAGE_PROBE_FIRST_MS, timer: null }
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.events.emit('storage', { problem })
    this.scheduleProbe()
  }

  private scheduleProbe(): void {
    const s = this.storage
    if (!s || !this.running) return
    s.timer = setTimeout(() => this.probeStorage(), s.probeMs)
    s.probeMs = Math.min(STORAGE_PROBE_MAX_MS, s.probeMs * 2)
  }

  private probeStorage(): void {
    const s = this.storage
    if (!s) return
    s.timer = null
    try {
      this.store.probeWrite()
      // Rows left 'uploading' by a failed write, with nothing in flight for them here: send again.
      this.store.recoverInterrupted(this.opts.now(), { inFlight: [...this.inFlightRows], polls: false })
    } catch (e) {
      if (!isStorageError(e)) this.events.emit('notice', { level: 'error', message: (e as Error).message })
      s.problem = storageMessage(e)
      this.scheduleProbe()
      return
    }
    this.storage = null
    this.events.emit('storage', { problem: null })
    this.events.emit('notice', { level: 'info', message: 'Storage works again: uploads resume.' })
    this.hooks.storageRecovered?.()
    this.kick()
  }

  /** Runs a write of the queue's; a storage fault pauses the queue instead of escaping. */
  private guarded<T>(write: () => T): T | undefined {
    try {
      return write()
    } catch (e) {
      if (!isStorageError(e)) throw e
      this.storageFault(e)
      return undefined
    }
  }

  // ---- uploads -------------------------------------------------------------------------------

  private startUpload(row: Upload): void {
    const g = this.gate(row.profileId)
    const now = this.opts.now()
    const updated = this.store.transition(
      row,
      row.status,
      'uploading',
      { attempts: row.attempts + 1, nextAttemptAt: null },
      now,
    )
    if (!updated) return // a person changed it between the query and now
    this.uploadsInFlight++
    g.inFlight++
    this.inFlightRows.add(row.id)
    this.emitUpload(updated, row.status)
    this.track(
      this.sendUpload(updated).finally(() => {
        this.uploadsInFlight--
        g.inFlight--
        this.inFlightRows.delete(row.id)
      }),
    )
  }

  private async sendUpload(row: Upload): Promise<void> {
    let lastEmit = 0
    let res: Awaited<ReturnType<UploadClient['aiCreateFromFiles']>>
    try {
      const client = await this.client(row.profileId)
      const expect =
        row.sha256 !== null && row.size !== null && row.mtimeMs !== null
          ? { size: row.size, mtimeMs: row.mtimeMs, sha256: row.sha256 }
          : undefined
      res = await client.aiCreateFromFiles(
        row.target,
        {
          prompt: row.prompt,
          process_type: row.processType,
          files: [{ path: row.path, name: row.name, ...(expect ? { expect } : {}) }],
        },
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
    } catch (e) {
      this.guarded(() => this.uploadFailed(row, asFailure(e)))
      return
    }
    this.guarded(() => {
      if (res.process_type === 'async') {
        const now = this.opts.now()
        const next = this.store.transition(
          row,
          'uploading',
          'processing',
          {
            jobReference: res.job_reference,
            acceptedAt: now,
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
        this.complete(row, res.record.uuid, res.record.resource_type ?? row.target, 'uploading')
      } else {
        this.completionNotReported(row, 'uploading', 'its answer named no job and no record')
      }
    })
  }

  private uploadFailed(row: Upload, f: ClientFailure): void {
    const now = this.opts.now()
    const base = { lastError: f.message, errorCode: f.errorCode, httpStatus: f.status || null }

    // The file is not the version that was recorded: nothing was created from it. Its row is
    // superseded and the file's new content goes through intake as a new row.
    if (f.errorCode === 'file_superseded') {
      const next = this.store.transition(
        row,
        'uploading',
        'superseded',
        {
          ...base,
          nextAttemptAt: null,
          lastError: 'Changed on disk before it was sent; the new version is queued.',
        },
        now,
      )
      if (next) {
        this.emitUpload(next, 'uploading')
        this.hooks.superseded(next)
      }
      return
    }

    // Problems with the file itself: it stays where it is, the row says why.
    const fileSkip: Record<string, Upload['reason']> = {
      file_not_found: 'vanished',
      not_a_file: 'unreadable',
      file_read_error: 'unreadable',
      file_too_large: 'too_large',
    }
    const skip = fileSkip[f.errorCode]
    if (skip) {
      this.finish(row, 'skipped', { ...base, reason: skip, nextAttemptAt: null })
      return
    }
    if (f.errorCode === 'file_changed') {
      // Written to while being sent: try again once it is stable (same key: nothing was created).
      this.finish(row, 'waiting_retry', { ...base, nextAttemptAt: now + 2000 })
      return
    }

    if (isOutOfCredits(f)) {
      // Nothing was created: the file waits, with the profile, for credits.
      this.holdProfile(row.profileId, f, 0)
      this.finish(row, 'waiting_retry', { ...base, nextAttemptAt: now })
      return
    }

    if (f.retryable) {
      if (row.attempts >= this.opts.maxAttempts) {
        this.finish(row, 'failed', {
          ...base,
          nextAttemptAt: null,
          lastError: `Gave up after ${row.attempts} attempts. Last error: ${f.message}`,
        })
        return
      }
      let wait = retryDelay(row.attempts, f.retryAfterMs, this.opts.retry, this.opts.random)
      const pausedUntil = this.holdProfile(
        row.profileId,
        f,
        retryDelay(row.attempts, undefined, this.opts.retry, this.opts.random),
      )
      if (pausedUntil !== null) wait = pausedUntil - now
      this.finish(row, 'waiting_retry', { ...base, nextAttemptAt: now + wait })
      return
    }

    this.holdProfile(row.profileId, f, 0)
    this.finish(row, 'failed', { ...base, nextAttemptAt: null })
  }

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

  /** A move of the lifecycle table; nothing happens when a person changed the row meanwhile. */
  private finish(cur: Upload, to: UploadStatus, patch: Parameters<UploadStore['transition']>[3]): void {
    const next = this.store.transition(cur, cur.status, to, patch, this.opts.now())
    if (next) this.emitUpload(next, cur.status)
  }

  // ---- jobs ----------------------------------------------------------------------------------

  private startPoll(row: Upload): void {
    const g = this.gate(row.profileId)
    // Not picked again while this poll is in flight (kept in memory, no write); the answer sets
    // the real next time.
    this.pollingRows.add(row.id)
    this.pollsInFlight++
    g.inFlight++
    this.track(
      this.poll(row).finally(() => {
        this.pollingRows.delete(row.id)
        this.pollsInFlight--
        g.inFlight--
      }),
    )
  }

  /** When the job deadline of a row passes (it counts from when the server accepted the file). */
  private deadline(row: Upload): number {
    return (row.acceptedAt ?? row.createdAt) + this.opts.jobTimeoutMs
  }

  private giveUpOnJob(row: Upload): void {
    const hours = this.opts.jobTimeoutMs / 3_600_000
    const wait =
      hours >= 1
        ? `${Number.isInteger(hours) ? hours : hours.toFixed(1)} hour${hours === 1 ? '' : 's'}`
        : `${Math.round(this.opts.jobTimeoutMs / 1000)} seconds`
    this.finish(row, 'failed', {
      nextAttemptAt: null,
      errorCode: 'job_timeout',
      httpStatus: null,
      lastError:
        `The server had not finished job ${row.jobReference ?? ''} after ${wait} (Settings, "Give up on a job after"), ` +
        'so Bookdrop stopped waiting. The record may still appear on the server; Retry follows the job again.',
    })
  }

  private async poll(row: Upload): Promise<void> {
    const now = () => this.opts.now()
    if (now() >= this.deadline(row)) {
      this.guarded(() => this.giveUpOnJob(row))
      return
    }
    let job: JobRead
    try {
      const client = await this.client(row.profileId)
      job = await client.getJob(row.jobReference!)
    } catch (e) {
      this.guarded(() => this.pollFailed(row, asFailure(e)))
      return
    }
    this.guarded(() => {
      if (job.status === 'completed') {
        this.complete(row, job.resource_uuid, job.resource_type, 'processing')
      } else if (job.status === 'unknown' && row.polls + 1 >= UNKNOWN_JOB_STATUS_POLLS) {
        this.completionNotReported(row, 'processing', `job ${row.jobReference} never gave a status Bookdrop knows`)
      } else if (job.status === 'failed') {
        this.finish(row, 'failed', {
          nextAttemptAt: null,
          lastError: job.message ?? 'The server could not create a record from this file.',
          errorCode: 'job_failed',
        })
      } else {
        this.followAgain(row, pollDelay(row.polls + 1, this.opts.poll, this.opts.random), null)
      }
    })
  }

  /** The job is still on the server: ask again in `wait` ms, never later than its deadline. */
  private followAgain(row: Upload, wait: number, lastError: string | null): void {
    const now = this.opts.now()
    this.store.note(
      row,
      'processing',
      { polls: row.polls + 1, nextAttemptAt: Math.min(now + wait, this.deadline(row)), lastError },
      now,
    )
  }

  /**
   * A poll without a usable answer. The job is alive on the server unless the server says it does
   * not know it: network errors, timeouts, 429, 5xx and malformed answers (even with a 200) are asked
   * again with backoff until the job deadline; so is a 404 for a job younger than
   * jobNotFoundGraceMs (a server may not list a job at once). 401/403/no key hold the profile.
   */
  private pollFailed(row: Upload, f: ClientFailure): void {
    const age = this.opts.now() - (row.acceptedAt ?? row.createdAt)
    const youngUnknown = f.status === 404 && age < this.opts.jobNotFoundGraceMs
    const transient =
      f.retryable ||
      f.errorCode === 'bad_response' ||
      youngUnknown ||
      f.status === 401 ||
      f.status === 403 ||
      f.errorCode === 'no_key'
    if (transient) {
      this.holdProfile(row.profileId, f, 1000)
      const wait = retryDelay(
        row.polls + 1,
        f.retryAfterMs,
        { baseMs: this.opts.poll.firstMs, capMs: this.opts.poll.maxMs },
        this.opts.random,
      )
      this.followAgain(row, Math.max(wait, youngUnknown ? this.opts.poll.firstMs : 0), f.message)
      return
    }
    // The create was accepted; its job just cannot be followed (no such route or job past the grace
    // period, another refusal). Failing the row would invite a second create of the same file.
    const why = f.status === 404 ? `the server does not know job ${row.jobReference}` : f.message
    this.completionNotReported(
      row,
      'processing',
      `job ${row.jobReference} could not be followed: ${f.status ? `${f.status}, ` : ''}${why}`,
      f.status || null,
    )
  }

  /**
   * The one place that writes the outcome "sent; the server did not report completion": the row is
   * `completed` with no record uuid, COMPLETION_NOT_REPORTED_CODE and a note saying why (#11).
   */
  private completionNotReported(
    row: Upload,
    from: 'uploading' | 'processing',
    why: string,
    httpStatus: number | null = null,
  ): void {
    this.complete(row, null, null, from, {
      errorCode: COMPLETION_NOT_REPORTED_CODE,
      lastError: `${COMPLETION_NOT_REPORTED} (${why.replace(/\.\s*$/, '')})`,
      httpStatus,
    })
  }

  private complete(
    row: Upload,
    recordUuid: string | null,
    recordType: string | null,
    from: 'uploading' | 'processing',
    note: { errorCode: string; lastError: string; httpStatus: number | null } | null = null,
  ): void {
    const now = this.opts.now()
    const done = this.store.transition(
      row,
      from,
      'completed',
      {
        recordUuid,
        recordType,
        completedAt: now,
        nextAttemptAt: null,
        lastError: note?.lastError ?? null,
        errorCode: note?.errorCode ?? null,
        httpStatus: note?.httpStatus ?? null,
      },
      now,
    )
    if (!done) return // cancelled meanwhile
    this.emitUpload(done, from)
    this.track(this.hooks.afterRecord(done))
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
