/**
 * The ingest engine: composes the store, watched folders, intake, the upload queue and the job
 * poller. One instance per app (desktop, web host or headless). Plain Node: never imports electron.
 */
import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { existsSync, constants as fsConstants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { once } from 'node:events'
import pLimit from 'p-limit'
import type { AiTarget } from '../../schemas'
import { type EngineEmitter, type EngineEvents, type FolderState, TypedEmitter } from './events'
import {
  DEFAULT_PROMPTS,
  type FolderConfig,
  type FolderInput,
  FolderStore,
  SettingsStore,
  destinationDir,
  normalizeFolder,
  renderPrompt,
} from './folders'
import { moveInto } from './intake/after-upload'
import { Intake, type IntakeRequest, type IntakeResult } from './intake/intake'
import { allowedKinds } from './kinds'
import { FolderRuleError, checkAcceptedKinds, checkDestination, checkWatchedFolder } from './user-paths'
import { type ClientProvider, type QueueOptions, UploadQueue } from './queue/queue'
import {
  CorruptDatabaseError,
  type DataDirLock,
  databasePath,
  isCorruption,
  lockDataDir,
  moveDatabaseAside,
} from './store/data-dir'
import { Db } from './store/db'
import { isStorageError } from './store/storage-errors'
import { transitionOf } from './lifecycle'
import { type HistoryFilter, type TransitionPatch, type Upload, type UploadStatus, UploadStore } from './store/uploads'
import { FolderWatcher, type FolderWatcherConfig } from './watch'
import { toCsv } from './store/csv'
import { GrantStore, type Month, type UploadMonth, healthFigures, uploadMonth } from './store/overview'
import type { RateLimit } from './api/ratelimit'

export interface EngineOptions {
  /** Where bookdrop.db lives. */
  dataDir: string
  clients: ClientProvider
  queue?: Partial<QueueOptions>
  /** Watcher timing (tests shorten these). */
  watch?: Partial<
    Pick<
      FolderWatcherConfig,
      'stabilityMs' | 'rescanIntervalMs' | 'recoverInitialMs' | 'recoverMaxMs' | 'pollIntervalMs'
    >
  >
  /** Files hashed at the same time (bounds memory and disk load on a big initial scan). */
  hashConcurrency?: number
  /**
   * True for a folder the person picked in the native folder picker (an after-upload destination
   * outside the watched folder must be one). Without it, destinations must lie inside the folder.
   */
  isPickedDirectory?: (path: string) => boolean
  /**
   * When the queue database cannot be read: move it aside (`<name>.corrupt-<timestamp>`) and start
   * with an empty queue (headless --reset-queue, the desktop's dialog). Without it, open() throws
   * CorruptDatabaseError. A readable database is never moved.
   */
  resetQueue?: boolean
}

/** What open() did with an unreadable queue database. */
export interface OpenReport {
  movedAside: string | null
}

export interface FolderStatus {
  state: FolderState
  message: string | null
}

export interface AddFilesOptions {
  profileId: string
  target: AiTarget
  prompt?: string
  processType?: 'async' | 'direct'
}

/** Candidates from folder scans that may wait for a hashing slot before the scans wait. */
const INTAKE_BACKLOG_MAX = 32

/** The queue's part of the app's settings (Settings in the contract), saved under one key. */
export interface QueueSettings {
  concurrency: number
  maxFileBytes: number
  pollIntervalMs: number
  jobTimeoutMs: number
}

/** The one settings key: the app's settings, the queue's part included. */
export const SETTINGS_KEY = 'app'
/** Where earlier versions kept the queue's part: read when SETTINGS_KEY has none of it. */
const LEGACY_QUEUE_KEY = 'queue'

/**
 * The engine, as the rest of main sees it: a façade over the watchers, intake, the upload queue and
 * the stores. Its database, queue and settings store stay inside; the history and folder stores are
 * readable, and the grant store (partner overview) is opened on first use.
 */
export class Engine {
  readonly events: EngineEmitter = new TypedEmitter<EngineEvents>()
  readonly uploads: UploadStore
  readonly folders: FolderStore
  private readonly db: Db
  private readonly settings: SettingsStore
  private readonly queue: UploadQueue
  private grantStore: GrantStore | null = null
  private readonly intake: Intake
  private readonly watchers = new Map<string, FolderWatcher>()
  private readonly folderStatus = new Map<string, FolderStatus>()
  private readonly hashLimit: ReturnType<typeof pLimit>
  private closed = false
  /** Files being checked and hashed (or waiting for a hashing slot). */
  private intakeInFlight = 0
  /** Folder scans waiting for the intake backlog to shrink (see INTAKE_BACKLOG_MAX). */
  private intakeRoomWaiters: Array<() => void> = []

  /** Candidates that could not be recorded while storage failed: taken again once it works. */
  private readonly untaken = new Map<string, IntakeRequest>()
  /** Superseded rows whose file's new version is being waited for (one wait per path). */
  private readonly retaking = new Set<string>()
  readonly openReport: OpenReport

  private constructor(
    private readonly opts: EngineOptions,
    private readonly lock: DataDirLock,
    db: Db,
    report: OpenReport,
  ) {
    this.db = db
    this.openReport = report
    this.uploads = new UploadStore(this.db)
    this.folders = new FolderStore(this.db)
    this.settings = new SettingsStore(this.db)
    this.intake = new Intake(this.uploads, this.events)
    const saved = this.savedQueueOptions()
    this.queue = new UploadQueue(
      this.uploads,
      opts.clients,
      this.events,
      {
        afterRecord: (row) => this.afterRecord(row),
        superseded: (row) => this.retakeSuperseded(row),
        storageRecovered: () => this.retakeUntaken(),
      },
      { ...saved, ...opts.queue },
    )
    this.hashLimit = pLimit(opts.hashConcurrency ?? 4)
  }

  /**
   * The queue database, or CorruptDatabaseError when it exists but cannot be read (moved aside
   * first with `resetQueue`).
   */
  private static openDb(opts: EngineOptions): { db: Db; report: OpenReport } {
    const path = databasePath(opts.dataDir)
    const attempt = (): Db => {
      const db = new Db(path)
      try {
        // Reads the schema and an index: a file that is not a database, or a damaged one, says so here.
        db.get('SELECT COUNT(*) AS n FROM uploads')
        return db
      } catch (e) {
        db.close()
        throw e
      }
    }
    try {
      return { db: attempt(), report: { movedAside: null } }
    } catch (e) {
      // A file there that SQLite cannot use as its database: damaged, not a database at all, or not
      // even a file (libsql says "ConnectionFailed(…: 14)", SQLITE_CANTOPEN, for a folder).
      const code = String((e as { code?: unknown }).code ?? '')
      const unreadable =
        isCorruption(e) ||
        (existsSync(path) && (/^SQLITE_CANTOPEN/.test(code) || /ConnectionFailed|unable to open/i.test((e as Error).message)))
      if (!unreadable) throw e
      const detail = (e as Error).message
      if (!opts.resetQueue) throw new CorruptDatabaseError(path, detail)
      const movedAside = moveDatabaseAside(path)
      return { db: attempt(), report: { movedAside } }
    }
  }

  /**
   * Takes the data directory (one process at a time: AlreadyRunningError otherwise), opens the
   * database (CorruptDatabaseError when it cannot be read, unless resetQueue), resumes the queue
   * and starts every enabled folder.
   */
  static async open(opts: EngineOptions): Promise<Engine> {
    const lock = lockDataDir(opts.dataDir)
    let engine: Engine
    try {
      const { db, report } = Engine.openDb(opts)
      engine = new Engine(opts, lock, db, report)
    } catch (e) {
      lock.release()
      throw e
    }
    engine.queue.start()
    await engine.finishPendingMoves()
    for (const f of engine.folders.list()) if (f.enabled) await engine.startIfAllowed(f)
    return engine
  }

  /** The largest file taken (the queue's limit, which Settings changes live). */
  get maxFileBytes(): number {
    return this.queue.maxFileBytes
  }

  // ---- settings (one key) -------------------------------------------------------------------------

  /** The app's saved settings record, or {} (the settings room checks it against the contract). */
  savedSettings(): Record<string, unknown> {
    return this.settings.get<Record<string, unknown>>(SETTINGS_KEY, {})
  }

  /** Saves the app's settings under the one key and applies the queue's part now. */
  saveSettings(next: QueueSettings & Record<string, unknown>): void {
    this.settings.set(SETTINGS_KEY, next)
    this.applyQueueSettings(next)
  }

  /** Applies the queue's part of the settings (each field given), without saving it. */
  applyQueueSettings(s: Partial<QueueSettings>): void {
    if (s.concurrency !== undefined) this.queue.setConcurrency(s.concurrency)
    if (s.maxFileBytes !== undefined) this.queue.setMaxFileBytes(s.maxFileBytes)
    if (s.pollIntervalMs !== undefined) this.queue.setPollInterval(s.pollIntervalMs)
    if (s.jobTimeoutMs !== undefined) this.queue.setJobTimeout(s.jobTimeoutMs)
  }

  /** The queue's settings in force. */
  queueSettings(): QueueSettings {
    return this.queue.settings()
  }

  /** The queue options saved with the app's settings (or, from an earlier version, under 'queue'). */
  private savedQueueOptions(): Partial<QueueOptions> {
    const app = this.savedSettings()
    const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
    const fromApp = {
      concurrency: num(app.concurrency),
      maxFileBytes: num(app.maxFileBytes),
      jobTimeoutMs: num(app.jobTimeoutMs),
    }
    const hasApp = Object.values(fromApp).some((v) => v !== undefined)
    const picked = hasApp ? fromApp : this.settings.get<Partial<QueueOptions>>(LEGACY_QUEUE_KEY, {})
    return Object.fromEntries(Object.entries(picked).filter(([, v]) => v !== undefined))
  }

  // ---- the queue, as the app service sees it ----------------------------------------------------

  /** A profile's state (paused, rate limited, waiting for a key…), pause and rate-limit window. */
  profileState(profileId: string): ReturnType<UploadQueue['profileState']> {
    return this.queue.profileState(profileId)
  }

  /** The storage problem holding every upload (disk full, I/O error), or null. */
  storageProblem(): string | null {
    return this.queue.storageProblem()
  }

  /** Forgets a profile's upload client (its key was rotated or removed). */
  forgetClient(profileId: string): void {
    this.queue.forgetClient(profileId)
  }

  /** Rate-limit headers of a response made with this profile's key outside the queue. */
  noteRateLimit(profileId: string, rl: RateLimit): void {
    this.queue.noteRateLimit(profileId, rl)
  }

  /** Looks at the queue now instead of at its next timer (tests, and after a change on disk). */
  kick(): void {
    this.queue.kick()
  }

  // ---- the partner overview's grants and the client health figures -----------------------------

  /** Seat and credit grants made from this app (the API lists none), in this database. */
  get grants(): GrantStore {
    return (this.grantStore ??= new GrantStore(this.db))
  }

  /** One local month of a profile's uploads, by day (the overview). */
  uploadMonth(profileId: string, m: Month): UploadMonth {
    return uploadMonth(this.db, profileId, m)
  }

  /** A profile's last completed upload and its jobs processing since before `stuckBefore`. */
  healthFigures(profileId: string, stuckBefore: number): ReturnType<typeof healthFigures> {
    return healthFigures(this.db, profileId, stuckBefore)
  }

  // ---- folders -----------------------------------------------------------------------------------

  /**
   * The folder rules (core/user-paths.ts), for what changed since `prev`: the folder itself, its
   * after-upload destination and its accepted kinds. A setting saved earlier stays valid (a folder
   * picked months ago is no longer in the picker's memory).
   */
  private async checkFolderRules(next: FolderConfig, prev: FolderConfig | null): Promise<void> {
    if (!prev || prev.path !== next.path || (next.recursive && !prev.recursive)) {
      await checkWatchedFolder(next.path, { dataDir: this.opts.dataDir, recursive: next.recursive })
    }
    const kinds = (k: readonly string[]) => [...k].sort().join(',')
    if (!prev || kinds(prev.acceptedKinds) !== kinds(next.acceptedKinds)) checkAcceptedKinds(next.acceptedKinds)
    if (
      next.afterUpload === 'archive' &&
      next.archiveDir &&
      (!prev || prev.afterUpload !== 'archive' || prev.archiveDir !== next.archiveDir || prev.path !== next.path)
    ) {
      await checkDestination(next.archiveDir, next.path, (p) => this.opts.isPickedDirectory?.(p) ?? false)
    }
  }

  async addFolder(input: FolderInput): Promise<FolderConfig> {
    const f = normalizeFolder(input)
    await this.checkFolderRules(f, null)
    const clash = this.folders
      .list()
      .find((o) => o.path === f.path && o.profileId === f.profileId && o.target === f.target)
    if (clash) throw new Error(`${f.path} is already watched for ${f.target}.`)
    this.folders.save(f)
    if (f.enabled) this.startWatcher(f)
    return f
  }

  async updateFolder(id: string, patch: Partial<FolderInput>): Promise<FolderConfig> {
    const cur = this.folders.get(id)
    if (!cur) throw new Error('That folder is no longer watched.')
    const { id: _id, addedAt, ...rest } = cur
    const next = normalizeFolder({ ...rest, ...patch }, id, addedAt)
    await this.checkFolderRules(next, cur)
    this.folders.save(next)
    await this.stopWatcher(id)
    if (next.enabled) this.startWatcher(next)
    else this.setFolderStatus(id, 'disabled', null)
    return next
  }

  async removeFolder(id: string): Promise<void> {
    await this.stopWatcher(id)
    this.folders.remove(id)
    this.folderStatus.delete(id)
  }

  listFolders(): (FolderConfig & FolderStatus)[] {
    return this.folders.list().map((f) => ({
      ...f,
      ...(this.folderStatus.get(f.id) ?? { state: f.enabled ? 'starting' : 'disabled', message: null }),
    }))
  }

  private setFolderStatus(folderId: string, state: FolderState, message: string | null): void {
    this.folderStatus.set(folderId, { state, message })
    this.events.emit('folder', { folderId, state, message })
  }

  /**
   * A stored folder is watched only if it still passes the folder rules (it may have been saved
   * before them, or by another program writing the database): otherwise it shows the rule broken as
   * its error, and nothing is read from it. A folder that is only missing (an unplugged drive) is
   * left to the watcher, which waits for it.
   */
  private async startIfAllowed(f: FolderConfig): Promise<void> {
    try {
      await checkWatchedFolder(f.path, { dataDir: this.opts.dataDir, recursive: f.recursive })
    } catch (e) {
      if (e instanceof FolderRuleError && e.rule !== 'missing') {
        this.setFolderStatus(f.id, 'error', `Not watched: ${e.message}`)
        return
      }
    }
    this.startWatcher(f)
  }

  private startWatcher(f: FolderConfig): void {
    const excludeDirs = [join(f.path, 'Uploaded')]
    if (f.archiveDir) excludeDirs.push(f.archiveDir)
    const w = new FolderWatcher({
      id: f.id,
      path: f.path,
      recursive: f.recursive,
      acceptedKinds: f.acceptedKinds,
      usePolling: f.usePolling,
      ignoreOlderThanMs: f.takeExisting ? undefined : f.addedAt,
      excludeDirs,
      scanGate: () => this.intakeRoom(),
      ...this.opts.watch,
    })
    w.on('status', (s) => this.setFolderStatus(f.id, s.state, s.message ?? null))
    w.on('candidate', (c) => {
      this.intakeInFlight++
      void this.hashLimit(() => this.take(this.folderRequest(f, c.path)))
        .finally(() => this.intakeInFlight--)
        .catch((e: unknown) => {
          this.events.emit('notice', {
            level: 'error',
            message: `Could not queue ${c.path}: ${(e as Error).message}`,
          })
        })
    })
    w.on('vanished', (v) => {
      if (!v.accepted) return
      try {
        this.intake.vanished(this.folderRequest(f, v.path))
      } catch (e) {
        if (!isStorageError(e)) throw e
        this.queue.storageFault(e)
      }
    })
    w.on('scanned', () => void this.retakeSkipped(f.id))
    this.watchers.set(f.id, w)
    // Not awaited: the initial scan hands files over only as fast as intake takes them (see
    // intakeRoom), which for a big folder takes a while. Meanwhile the folder shows 'starting', and
    // whenIdle() waits for it (watchersBusy). start() never rejects.
    void w.start()
  }

  /**
   * Backpressure for folder scans: a scan hands over files no faster than they are hashed and
   * queued, so a folder of 20,000 existing files never has 20,000 candidates in memory at once.
   */
  private intakeRoom(): Promise<void> | undefined {
    if (this.closed || this.hashLimit.pendingCount < INTAKE_BACKLOG_MAX) return undefined
    return new Promise<void>((resolve) => this.intakeRoomWaiters.push(resolve))
  }

  private wakeIntakeRoom(all = false): void {
    if (this.intakeRoomWaiters.length === 0) return
    if (!all && this.hashLimit.pendingCount > INTAKE_BACKLOG_MAX / 2) return
    const waiters = this.intakeRoomWaiters
    this.intakeRoomWaiters = []
    for (const w of waiters) w()
  }

  private async stopWatcher(id: string): Promise<void> {
    const w = this.watchers.get(id)
    this.watchers.delete(id)
    if (w) await w.stop()
  }

  /** Walks every watched folder now (the watchers also do this on a jittered timer). */
  async rescan(): Promise<void> {
    await Promise.all([...this.watchers.values()].map((w) => w.rescan()))
  }

  private folderRequest(f: FolderConfig, path: string): IntakeRequest {
    return {
      profileId: f.profileId,
      target: f.target,
      prompt: renderPrompt(f.promptTemplate, { filename: basename(path), folder: basename(f.path) }),
      processType: f.processType,
      source: 'watch',
      folderId: f.id,
      path,
      acceptedKinds: f.acceptedKinds,
      maxFileBytes: this.maxFileBytes,
      afterUpload: f.afterUpload,
      destinationDir: destinationDir(f),
    }
  }

  private async take(req: IntakeRequest): Promise<IntakeResult> {
    this.intakeInFlight++
    try {
      const r = await this.intake.take(req)
      this.untaken.delete(req.path)
      if (r.kind === 'queued') this.queue.kick(r.upload.profileId)
      return r
    } catch (e) {
      if (!isStorageError(e)) throw e
      // Nothing was recorded: the file stays where it is, and is taken again once storage works.
      this.untaken.set(req.path, req)
      this.queue.storageFault(e)
      throw new Error(`${basename(req.path)} could not be recorded: ${this.queue.storageProblem() ?? 'storage failed'}`)
    } finally {
      this.intakeInFlight--
      // Any file taken (a scan's or a drop's) may make room for a waiting scan.
      this.wakeIntakeRoom()
    }
  }

  // ---- taking files again -----------------------------------------------------------------------

  /** The intake request for a row's file now: its folder's settings when it has one, else the row's. */
  private requestFor(row: Upload): IntakeRequest {
    const folder = row.folderId ? this.folders.get(row.folderId) : undefined
    if (folder) return this.folderRequest(folder, row.path)
    return {
      profileId: row.profileId,
      target: row.target,
      prompt: row.prompt,
      processType: row.processType,
      source: row.source,
      folderId: null,
      path: row.path,
      acceptedKinds: allowedKinds(row.target),
      maxFileBytes: this.maxFileBytes,
      afterUpload: row.afterUpload,
      destinationDir: row.archiveDir,
    }
  }

  /**
   * A row was superseded (its file changed before it was sent): once the file is stable again, its
   * new content goes through intake as a new row (duplicate rules apply). The folder's watcher may
   * report the same version too; intake records a version once.
   */
  private retakeSuperseded(row: Upload): void {
    if (this.closed || this.retaking.has(row.path)) return
    this.retaking.add(row.path)
    const window = this.opts.watch?.stabilityMs ?? 300
    void (async () => {
      try {
        let last = ''
        for (let i = 0; i < 100 && !this.closed; i++) {
          const st = await stat(row.path).catch(() => null)
          const now = st ? `${st.size}:${st.mtimeMs}` : 'gone'
          if (now === last) break
          last = now
          await new Promise((r) => setTimeout(r, window))
        }
        if (this.closed) return
        await this.hashLimit(() => this.take(this.requestFor(row)))
      } catch (e) {
        this.events.emit('notice', { level: 'error', message: `Could not queue the new version of ${row.name}: ${(e as Error).message}` })
      } finally {
        this.retaking.delete(row.path)
      }
    })()
  }

  /**
   * A rescan looks again at the files of a folder that were skipped for a cause that can go away:
   * readable again, under the size limit, no longer empty. The same row goes on (one row per file
   * while it cannot be sent).
   */
  private async retakeSkipped(folderId: string): Promise<void> {
    const folder = this.folders.get(folderId)
    if (!folder || this.closed) return
    let rows: Upload[]
    try {
      rows = this.uploads.retakeableInFolder(folderId)
    } catch (e) {
      if (isStorageError(e)) return this.queue.storageFault(e)
      throw e
    }
    for (const row of rows) {
      if (this.closed) return
      const st = await stat(row.path).catch(() => null)
      if (!st?.isFile()) continue
      if (row.reason === 'empty' && st.size === 0) continue
      if (row.reason === 'too_large' && st.size > this.maxFileBytes) continue
      if (row.reason === 'unreadable' && (await access(row.path, fsConstants.R_OK).then(() => false, () => true))) continue
      await this.hashLimit(() => this.take(this.folderRequest(folder, row.path))).catch(() => undefined)
    }
  }

  /** Storage works again: take the files that could not be recorded meanwhile. */
  private retakeUntaken(): void {
    const reqs = [...this.untaken.values()]
    this.untaken.clear()
    for (const req of reqs) void this.hashLimit(() => this.take(req)).catch(() => undefined)
  }

  // ---- files dropped or given on the command line --------------------------------------------------

  async addFiles(paths: string[], o: AddFilesOptions & { source?: 'drop' | 'cli' }): Promise<IntakeResult[]> {
    const kinds = allowedKinds(o.target)
    return Promise.all(
      paths.map((p) =>
        this.hashLimit(() =>
          this.take({
            profileId: o.profileId,
            target: o.target,
            prompt: renderPrompt(o.prompt?.trim() || DEFAULT_PROMPTS[o.target], {
              filename: basename(p),
              folder: basename(dirname(p)),
            }),
            processType: o.processType ?? 'async',
            source: o.source ?? 'drop',
            folderId: null,
            path: p,
            acceptedKinds: kinds,
            maxFileBytes: this.maxFileBytes,
            afterUpload: 'leave',
            destinationDir: null,
          }),
        ),
      ),
    )
  }

  // ---- a person's actions ---------------------------------------------------------------------

  pause(profileId: string): void {
    this.queue.pause(profileId)
  }

  resume(profileId: string): void {
    this.queue.resume(profileId)
  }

  /** Cancels a row that has not reached the server yet (or whose job is still followed). */
  cancel(id: number): Upload {
    const row = this.mustGet(id)
    if (!transitionOf(row.status, 'cancelled')) {
      throw new Error(`Upload #${id} is ${row.status}: only waiting or running uploads can be cancelled.`)
    }
    return this.changeStatus(row, 'cancelled', { nextAttemptAt: null, lastError: 'Cancelled by you.' })
  }

  /** Sends a failed, cancelled or skipped file again; a duplicate is sent anyway. */
  async retry(id: number): Promise<Upload> {
    const row = this.mustGet(id)
    if (row.status === 'duplicate') {
      const next = this.changeStatus(row, 'queued', { forced: true, lastError: null, nextAttemptAt: null })
      this.queue.kick(row.profileId)
      return next
    }
    if (row.status === 'failed' || row.status === 'cancelled') {
      const exists = await stat(row.path).then(
        (st) => st.isFile(),
        () => false,
      )
      if (!exists && !(row.status === 'cancelled' && row.jobReference)) {
        throw new Error(`${row.path} is no longer there: put the file back, then retry.`)
      }
      const reset = {
        attempts: 0,
        nextAttemptAt: null,
        lastError: null,
        errorCode: null,
        httpStatus: null,
        polls: 0,
      }
      let next: Upload
      if (row.status === 'cancelled' && row.jobReference) {
        // The server already has the job: follow it again rather than sending the file twice.
        next = this.changeStatus(row, 'processing', reset)
      } else {
        // A definite "no" from the server (a 4xx, a failed job) created nothing, and the server keeps
        // that answer under the old Idempotency-Key: a fresh key lets it try again. Anything else may
        // have created the record, so the old key stays and the server replays instead.
        const definite =
          row.status === 'failed' &&
          ((row.httpStatus !== null && row.httpStatus >= 400 && row.httpStatus < 500) ||
            row.errorCode === 'job_failed')
        next = this.changeStatus(row, 'queued', {
          ...reset,
          jobReference: null,
          acceptedAt: null,
          ...(definite ? { idempotencyKey: randomUUID() } : {}),
        })
      }
      this.queue.resume(row.profileId)
      return next
    }
    if (row.status === 'skipped') {
      // The same row goes on ("Send anyway"): skipped → queued, or skipped again with today's reason.
      const r = await this.take({ ...this.requestFor(row), override: true, continues: row })
      if (r.kind === 'ignored')
        throw new Error(`${row.name} changed while it was read: try again in a moment.`)
      return r.upload
    }
    throw new Error(`Upload #${id} is ${row.status}: nothing to retry.`)
  }

  /** Retries every failed upload of a profile (after a new key or a subscription change). */
  async retryFailed(profileId?: string): Promise<number> {
    let n = 0
    const ids = [...this.uploads.iterate({ statuses: ['failed'], profileId })].map((r) => r.id)
    for (const id of ids) {
      try {
        await this.retry(id)
        n++
      } catch {
        // The file is gone: its row keeps saying why.
      }
    }
    return n
  }

  private mustGet(id: number): Upload {
    const row = this.uploads.get(id)
    if (!row) throw new Error(`There is no upload #${id}.`)
    return row
  }

  /** A person's action as a move of the lifecycle table; refused when the row changed meanwhile. */
  private changeStatus(row: Upload, to: UploadStatus, patch: TransitionPatch): Upload {
    const next = this.uploads.transition(row.id, row.status, to, patch)
    if (!next) throw new Error(`Upload #${row.id} changed meanwhile (it is ${this.uploads.get(row.id)?.status ?? 'gone'} now): try again.`)
    this.events.emit('upload', { upload: next, previous: row.status })
    return next
  }

  // ---- after the record exists ------------------------------------------------------------------

  private async afterRecord(row: Upload): Promise<void> {
    if (row.afterUpload === 'leave' || !row.archiveDir) return
    try {
      const s = await stat(row.path)
      if (s.size !== row.size || Math.floor(s.mtimeMs) !== row.mtimeMs) {
        this.uploads.note(row.id, 'completed', {
          movedTo: '',
          lastError: 'Uploaded; the file changed since, so it was left in place.',
        })
        return
      }
      const dest = await moveInto(row.path, row.archiveDir)
      const next = this.uploads.note(row.id, 'completed', { movedTo: dest })
      if (next) this.events.emit('upload', { upload: next, previous: 'completed' })
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      const message =
        code === 'ENOENT'
          ? 'Uploaded; the file had already been moved or deleted.'
          : `Uploaded, but the file could not be moved to ${row.archiveDir}: ${(e as Error).message}`
      this.uploads.note(row.id, 'completed', { movedTo: '', lastError: message })
      if (code !== 'ENOENT')
        this.events.emit('notice', { level: 'warning', message: `${row.name}: ${message}` })
    }
  }

  /** The app stopped between "record exists" and "file moved": finish those moves. */
  private async finishPendingMoves(): Promise<void> {
    for (const row of this.uploads.pendingMoves()) await this.afterRecord(row)
  }

  // ---- history -----------------------------------------------------------------------------------

  history(filter: HistoryFilter = {}): { rows: Upload[]; total: number } {
    return this.uploads.query(filter)
  }

  /** Writes the matching history as CSV, streaming row by row. Returns the number of rows. */
  async exportCsv(filter: HistoryFilter, destination: string): Promise<number> {
    const out = createWriteStream(destination, { encoding: 'utf8' })
    let n = 0
    for (const line of toCsv(this.uploads.iterate(filter))) {
      if (!out.write(line)) await once(out, 'drain')
      n++
    }
    out.end()
    await once(out, 'finish')
    return n - 1 // the header line
  }

  /** True while a watcher has files waiting to become stable. */
  private watchersBusy(): boolean {
    return [...this.watchers.values()].some((w) => w.busy())
  }

  /**
   * Resolves once nothing is being detected, hashed, waiting, sent or processed (profiles paused by
   * a person or an auth problem aside: their rows wait).
   */
  async whenIdle(): Promise<void> {
    for (;;) {
      await this.queue.whenIdle()
      if (this.intakeInFlight === 0 && !this.watchersBusy() && this.queue.isIdle()) return
      await new Promise((r) => setTimeout(r, 25))
    }
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.wakeIntakeRoom(true)
    await Promise.all([...this.watchers.keys()].map((id) => this.stopWatcher(id)))
    this.hashLimit.clearQueue()
    await this.queue.stop()
    this.events.removeAll()
    this.db.close()
    this.lock.release()
  }
}
