/**
 * The persistent upload queue and job poller.
 *
 * Every row already sits in SQLite before anything here runs. The queue sends due rows with
 * bounded concurrency, retries network errors, 429 and 5xx with backoff (same Idempotency-Key every
 * time, even after a crash), paces each profile so `X-RateLimit-Remaining` never goes below zero,
 * pauses a whole profile on 429/401/403, follows async jobs until their record exists, and only
 * then hands the row to the after-upload step (move the source file).
 *
 * This is the queue's lifecycle, settings, profiles and pump; its parts: scheduling and pacing
 * (schedule.ts, gates.ts), sending and applying answers (sender.ts, outcomes.ts), the hold on a
 * storage fault and its recovery (storage-hold.ts).
 */
import type { RateLimit } from '../api/ratelimit'
import type { EngineEmitter } from '../events'
import type { UploadStore } from '../store/uploads'
import { isStorageError } from '../store/storage-errors'
import { ProfileGates } from './gates'
import { Scheduler } from './schedule'
import { Sender } from './sender'
import { StorageHold } from './storage-hold'
import {
  type ClientFailure,
  type ClientProvider,
  DEFAULT_QUEUE_OPTIONS,
  type QueueHooks,
  type QueueOptions,
  type UploadClient,
} from './types'

export {
  DEFAULT_JOB_TIMEOUT_MS,
  DEFAULT_QUEUE_OPTIONS,
  type ClientProvider,
  type QueueHooks,
  type QueueOptions,
  type SendFile,
  type UploadClient,
} from './types'

export class UploadQueue {
  private readonly opts: QueueOptions
  private readonly gates: ProfileGates
  private readonly clients = new Map<string, Promise<UploadClient>>()
  private timer: NodeJS.Timeout | null = null
  private pumpScheduled = false
  private running = false
  private idleWaiters: (() => void)[] = []
  private readonly pending = new Set<Promise<void>>()
  private readonly sender: Sender
  /** Storage failed (disk full, I/O error): nothing starts until a write succeeds again. */
  private readonly storage: StorageHold
  private readonly scheduler: Scheduler

  constructor(
    private readonly store: UploadStore,
    private readonly provider: ClientProvider,
    private readonly events: EngineEmitter,
    private readonly hooks: QueueHooks,
    opts: Partial<QueueOptions> = {},
  ) {
    this.opts = { ...DEFAULT_QUEUE_OPTIONS, ...opts }
    this.gates = new ProfileGates(
      events,
      () => this.opts.now(),
      () => this.checkIdle(),
      (profileId) => this.forgetClient(profileId),
      () => ({ backoff: this.opts.connectionRetry, configurationRecheckMs: this.opts.configurationRecheckMs }),
    )
    this.storage = new StorageHold({
      store,
      events,
      hooks,
      now: () => this.opts.now(),
      running: () => this.running,
      inFlightRows: () => [...this.sender.inFlightRows],
      held: () => {
        if (this.timer) clearTimeout(this.timer)
        this.timer = null
      },
      kick: () => this.kick(),
    })
    this.sender = new Sender({
      store,
      events,
      hooks,
      opts: this.opts,
      gates: this.gates,
      client: (profileId) => this.client(profileId),
      track: (p) => this.track(p),
      guarded: (write) => this.storage.guarded(write),
    })
    this.scheduler = new Scheduler(store, this.gates, this.opts, this.sender)
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
    for (const id of this.store.profilesWithWork()) this.gates.gate(id)
    if (n > 0)
      this.events.emit('notice', {
        level: 'info',
        message: `${n} upload(s) interrupted last time will be retried`,
      })
    this.kick()
  }

  /**
   * Stops starting new work and aborts the requests in flight, so a hung server cannot hold a stop:
   * an upload aborted goes back to waiting (its Idempotency-Key keeps it safe: the next start sends
   * it again and the server replays), a job is asked about again at the next start.
   */
  async stop(): Promise<void> {
    this.running = false
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    this.storage.stop()
    this.sender.abortAll()
    await Promise.allSettled([...this.pending])
  }


  /** Something changed (a row was queued, a pause lifted): look for work soon. */
  kick(profileId?: string): void {
    if (profileId !== undefined) this.gates.gate(profileId) // the scheduler looks at the profiles it knows
    if (!this.running || this.pumpScheduled) return
    this.pumpScheduled = true
    setImmediate(() => {
      this.pumpScheduled = false
      this.pump()
    })
  }

  /**
   * Runs one request of a profile outside the schedule (Review's record reads, issue 32) within the
   * profile's rate budget: it waits while the window is spent, and counts as in flight. A profile
   * that waits for a person or for its connection is not asked now: `null` (the caller reads later).
   */
  async paced<T>(profileId: string, fn: () => Promise<T>): Promise<T | null> {
    const g = this.gates.gate(profileId)
    for (;;) {
      const now = this.opts.now()
      const at = this.gates.readyAt(profileId, now, 'poll')
      if (at <= now) break
      if (at === Infinity || !this.running) return null
      await new Promise((r) => setTimeout(r, Math.min(at - now, 1000)))
    }
    g.inFlight++
    try {
      return await fn()
    } finally {
      g.inFlight--
      this.kick(profileId)
    }
  }

  /** The client a profile's uploads are sent with (Review's reads use it too, issue 32). */
  clientOf(profileId: string): Promise<UploadClient> {
    return this.client(profileId)
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

  // ---- profiles: pause, resume, state ----------------------------------------------------------

  /** A profile's state, pause and the last rate-limit window its responses reported (null: none yet). */
  profileState(profileId: string): ReturnType<ProfileGates['state']> {
    return this.gates.state(profileId)
  }

  pause(profileId: string): void {
    this.gates.setState(profileId, 'paused', 'Paused by you')
  }

  /**
   * Resumes a profile paused by a person, a 401 (after a new key), a 403 (after a subscription
   * change) or a lack of AI credits (after a grant or a purchase).
   */
  resume(profileId: string): void {
    this.clients.delete(profileId) // a rotated key means a new client
    const g = this.gates.gate(profileId)
    g.pausedUntil = 0
    // A person's go-ahead: a wait for the path to the server tries again now too.
    if (g.conn) g.conn.retryAt = 0
    this.gates.setState(profileId, 'active', null)
    this.kick()
  }

  /** Forget a profile's client (its key was rotated or removed). */
  forgetClient(profileId: string): void {
    this.clients.delete(profileId)
  }

  /**
   * The network changed (the desktop's online/offline and resume events): offline, every profile
   * waits; online, whatever waited for the path to the server goes at once.
   */
  networkChanged(online: boolean): void {
    this.gates.networkChanged(online)
    if (online) this.kick()
  }

  /**
   * How a request made for a person (lists, forms) went: the API answered (ok), or no answer of
   * the API came. The profile's connection state follows it, as for the queue's own requests.
   */
  noteConnection(
    profileId: string,
    e: { ok: true } | { ok: false; problem: ClientFailure['connection']; configuration: boolean; message: string; status?: number; retryAfterMs?: number },
  ): void {
    if (e.ok) {
      const had = this.gates.gate(profileId).conn !== null
      this.gates.connectionOk(profileId)
      if (had) this.kick()
    } else {
      this.gates.connectionFailed(profileId, {
        connection: e.problem,
        configuration: e.configuration,
        message: e.message,
        status: e.status,
        retryAfterMs: e.retryAfterMs,
      })
    }
  }

  /** Rate-limit headers of any response made with this profile's key. */
  noteRateLimit(profileId: string, rl: RateLimit): void {
    this.gates.noteRateLimit(profileId, rl)
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
    if (!this.running || this.storage.holding) return
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

  private pumpOnce(): void {
    const now = this.opts.now()
    // Sleep until the next row or poll is due, or a pause ends.
    const next = this.scheduler.startDue(now)
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    if (Number.isFinite(next)) {
      this.timer = setTimeout(() => this.kick(), Math.max(5, Math.min(next - now, 60_000)))
    }
    this.checkIdle()
  }

  // ---- storage faults (storage-hold.ts) --------------------------------------------------------

  /** The problem that holds the whole queue (disk full, I/O error), or null. */
  storageProblem(): string | null {
    return this.storage.problem()
  }

  /** A write failed for lack of space or an I/O error: the queue holds until storage works again. */
  storageFault(e: unknown): void {
    this.storage.fault(e)
  }

  // ---- idle ----------------------------------------------------------------------------------

  /** True when nothing is in flight and nothing is due or scheduled (rows of held profiles aside). */
  isIdle(): boolean {
    if (this.sender.uploadsInFlight > 0 || this.sender.pollsInFlight > 0 || this.pending.size > 0) return false
    const held = this.gates.held()
    // A profile out of credits still follows the jobs it started.
    const following = held.filter((id) => this.gates.gate(id).state === 'out_of_credits')
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
