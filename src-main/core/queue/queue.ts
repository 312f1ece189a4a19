/**
 * The persistent upload queue and job poller.
 *
 * Every row already sits in SQLite before anything here runs. The queue sends due rows with
 * bounded concurrency, retries network errors, 429 and 5xx with backoff (same Idempotency-Key every
 * time, even after a crash), paces each profile so `X-RateLimit-Remaining` never goes below zero,
 * pauses a whole profile on 429/401/403, follows async jobs until their record exists, and only
 * then hands the row to the after-upload step (move the source file).
 */
import { type JobRead } from '../../../schemas'
import type { RateLimit } from '../api/ratelimit'
import type { EngineEmitter } from '../events'
import type { Upload, UploadStatus, UploadStore } from '../store/uploads'
import { isStorageError, storageMessage } from '../store/storage-errors'
import { pollDelay } from './backoff'
import { sentFile } from './sent-file'
import { ProfileGates } from './gates'
import {
  type CompletionNote,
  type Outcome,
  afterJobAnswer,
  afterPollFailure,
  afterUploadFailure,
  jobTimedOut,
  notReported,
} from './outcomes'
import {
  CLOCK_STEP_MS,
  type ClientFailure,
  type ClientProvider,
  DEFAULT_QUEUE_OPTIONS,
  POLL_YIELD_MS,
  type QueueHooks,
  type QueueOptions,
  type SendFile,
  STORAGE_PROBE_FIRST_MS,
  STORAGE_PROBE_MAX_MS,
  type UploadClient,
  type Work,
  asFailure,
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
  /** One per request in flight: a stop aborts them (their rows resume with the same key). */
  private readonly controllers = new Set<AbortController>()

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
    if (this.storage?.timer) clearTimeout(this.storage.timer)
    for (const c of this.controllers) c.abort()
    await Promise.allSettled([...this.pending])
  }

  /** An AbortSignal for one request, aborted by stop(); `done` forgets it. */
  private request(): { signal: AbortSignal; done: () => void } {
    const c = new AbortController()
    this.controllers.add(c)
    return { signal: c.signal, done: () => this.controllers.delete(c) }
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
  noteConnection(profileId: string, e: { ok: true } | { ok: false; problem: ClientFailure['connection']; configuration: boolean; message: string }): void {
    if (e.ok) {
      const had = this.gates.gate(profileId).conn !== null
      this.gates.connectionOk(profileId)
      if (had) this.kick()
    } else {
      this.gates.connectionFailed(profileId, { connection: e.problem, configuration: e.configuration, message: e.message })
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
    for (const [, g] of this.gates.all()) {
      if (g.pausedUntil > 0) g.pausedUntil += delta
      if (g.resetAt !== null) g.resetAt += delta
    }
  }

  private pumpOnce(): void {
    const now = this.opts.now()
    this.followClock(now)
    const held = { upload: this.gates.blocked(now, 'upload'), poll: this.gates.blocked(now, 'poll') }
    let wakeAt = Math.min(held.upload.wakeAt, held.poll.wakeAt)
    /** Profiles whose rows may start now; null when none is held back (one query covers all). */
    const allowed = (kind: Work): string[] | null => {
      const blocked = held[kind].blocked
      return blocked.length === 0 ? null : [...this.gates.all()].map(([id]) => id).filter((id) => !blocked.includes(id))
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
      const ready = this.gates.readyAt(row.profileId, now, 'upload')
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
      const ready = this.gates.readyAt(row.profileId, now, 'poll')
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
    const g = this.gates.gate(row.profileId)
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
    let file: SendFile | undefined
    const req = this.request()
    try {
      const client = await this.client(row.profileId)
      const sent = sentFile(row)
      // A mail's body text goes as text_attachment, not as a file (issue 24).
      const text = row.source === 'mail' && this.hooks.textOf ? await this.hooks.textOf(row) : null
      // The file as it is to be read: a prepared photo is Bookdrop's own file in its data folder; an
      // original is checked where it is opened (see QueueHooks.fileForSend).
      file = text === null && row.preparedPath === null && this.hooks.fileForSend ? await this.hooks.fileForSend(row) : undefined
      res = await client.aiCreateFromFiles(
        row.target,
        {
          prompt: row.prompt,
          process_type: row.processType,
          ...(text !== null ? { text_attachment: text, files: [] } : { files: [{ ...sent, path: file?.path ?? sent.path, ...(file?.handle ? { handle: file.handle } : {}) }] }),
        },
        {
          idempotencyKey: row.idempotencyKey,
          maxFileBytes: this.opts.maxFileBytes,
          signal: req.signal,
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
      req.done()
      const f = asFailure(e)
      // A message names the path read: the row's own, not the descriptor's.
      if (file && file.path !== row.path) f.message = f.message.split(file.path).join(row.path)
      if (req.signal.aborted) {
        // Stopped while sending: it may or may not have reached the server. The next start sends
        // it again with the same key (the server replays); the try is not counted.
        this.guarded(() =>
          this.finish(row, 'waiting_retry', {
            attempts: Math.max(0, row.attempts - 1),
            nextAttemptAt: this.opts.now(),
            lastError: 'Stopped while it was being sent; sent again with the same Idempotency-Key at the next start.',
            errorCode: f.errorCode,
            httpStatus: null,
          }),
        )
        return
      }
      this.guarded(() => this.uploadFailed(row, f))
      return
    } finally {
      await file?.release()
    }
    req.done()
    this.gates.connectionOk(row.profileId)
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
        this.apply(row, 'uploading', notReported('its answer named no job and no record'))
      }
    })
  }

  private uploadFailed(row: Upload, f: ClientFailure): void {
    this.apply(row, 'uploading', afterUploadFailure(row, f, this.opts, this.gates, this.opts.now()))
  }

  /** Applies an outcome (./outcomes.ts) to a row in status `from`, as one move of the lifecycle table. */
  private apply(row: Upload, from: 'uploading' | 'processing', o: Outcome): void {
    const now = this.opts.now()
    if (o.kind === 'move') {
      this.finish(row, o.to, o.patch)
    } else if (o.kind === 'superseded') {
      const next = this.store.transition(row, from, 'superseded', o.patch, now)
      if (next) {
        this.emitUpload(next, from)
        this.hooks.superseded(next)
      }
    } else if (o.kind === 'follow') {
      // The job is still on the server: ask again, never later than its deadline.
      const patch = {
        polls: o.counted === false ? row.polls : row.polls + 1,
        nextAttemptAt: Math.min(now + o.wait, this.deadline(row)),
        lastError: o.lastError,
      }
      this.store.note(row, 'processing', patch, now)
    } else {
      this.complete(row, o.recordUuid, o.recordType, from, o.note)
    }
  }

  /** A move of the lifecycle table; nothing happens when a person changed the row meanwhile. */
  private finish(cur: Upload, to: UploadStatus, patch: Parameters<UploadStore['transition']>[3]): void {
    const next = this.store.transition(cur, cur.status, to, patch, this.opts.now())
    if (next) this.emitUpload(next, cur.status)
  }

  // ---- jobs ----------------------------------------------------------------------------------

  private startPoll(row: Upload): void {
    const g = this.gates.gate(row.profileId)
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

  /**
   * Asks the API about a row's job. Past the job deadline the API is still asked once: only its
   * answer (not finished, or a refusal) gives the job up, never the lack of one (offline).
   */
  private async poll(row: Upload): Promise<void> {
    const now = () => this.opts.now()
    const late = now() >= this.deadline(row)
    let job: JobRead
    const req = this.request()
    try {
      const client = await this.client(row.profileId)
      job = await client.getJob(row.jobReference!, { signal: req.signal })
    } catch (e) {
      req.done()
      if (req.signal.aborted) return // stopped: asked again at the next start
      const f = asFailure(e)
      const o =
        late && !f.connection && f.errorCode !== 'no_key'
          ? jobTimedOut(row, this.opts.jobTimeoutMs)
          : afterPollFailure(row, f, this.opts, this.gates, now())
      this.guarded(() => this.apply(row, 'processing', o))
      return
    }
    req.done()
    this.gates.connectionOk(row.profileId)
    const answer = afterJobAnswer(row, job, this.opts)
    const o = late && answer.kind === 'follow' ? jobTimedOut(row, this.opts.jobTimeoutMs) : answer
    this.guarded(() => this.apply(row, 'processing', o))
  }

  private complete(
    row: Upload,
    recordUuid: string | null,
    recordType: string | null,
    from: 'uploading' | 'processing',
    note: CompletionNote | null = null,
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

  /** True when nothing is in flight and nothing is due or scheduled (rows of held profiles aside). */
  isIdle(): boolean {
    if (this.uploadsInFlight > 0 || this.pollsInFlight > 0 || this.pending.size > 0) return false
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
