/**
 * The ingest engine: composes the store, watched folders, intake, the upload queue and the job
 * poller. One instance per app (desktop, web host or headless). Plain Node: never imports electron.
 */
import { constants as fsConstants } from 'node:fs'
import { access, stat } from 'node:fs/promises'
import { basename, dirname } from 'node:path'
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
import { type ActionDeps, cancelUpload, retryFailed, retryUpload } from './actions'
import { PhotoPreparer, photoSettings } from './prepare/preparer'
import { afterRecord } from './intake/after-upload'
import { Intake, type IntakeRequest, type IntakeResult, rowName } from './intake/intake'
import { INSPECT_LIMITS, type InspectFn, inspectInWorker } from './intake/inspect'
import { TaskPool } from '../../workers/pool'
import { fsPath, printable } from './names'
import { openInside, realPathOf } from './watch/inside'
import { allowedKinds } from './kinds'
import { type FolderChecks, FolderRuleError, checkFolderRules, checkWatchedFolder } from './user-paths'
import { type ClientProvider, type QueueOptions, type SendFile, UploadQueue } from './queue/queue'
import { type QueueSettings, SETTINGS_KEY, savedQueueOptions } from './queue/saved-options'
import { type DataDirLock, lockDataDir, openQueueDatabase } from './store/data-dir'
import type { Db } from './store/db'
import { isStorageError } from './store/storage-errors'
import { type HistoryFilter, type Upload, UploadStore } from './store/uploads'
import { FolderWatcher, type FolderWatcherConfig } from './watch'
import { writeCsv } from './store/csv'
import { type PrivacyReport, makeDataDirPrivate } from './store/private-dir'
import { GrantStore, type Month, type UploadMonth, healthFigures, uploadMonth } from './store/overview'
import type { RateLimit } from './api/ratelimit'
import type { MailOptions, MailService } from './mail/service'

export interface EngineOptions {
  /** Where bookdrop.db lives. */
  dataDir: string
  clients: ClientProvider
  queue?: Partial<QueueOptions>
  /** Watcher timing (tests shorten these). */
  watch?: Partial<
    Pick<
      FolderWatcherConfig,
      | 'stabilityMs'
      | 'rescanIntervalMs'
      | 'recoverInitialMs'
      | 'recoverMaxMs'
      | 'pollIntervalMs'
      | 'unfinishedQuietMs'
      | 'writers'
    >
  >
  /**
   * The content check ("the bytes are what the name says", "finished means finished"): plain data
   * in and out (intake/inspect.ts). Default: in the limited "inspect" worker (inspect-worker.ts);
   * tests may pass the function itself.
   */
  inspect?: InspectFn
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
  /**
   * Mail intake (issue 24): where passwords come from, timing, and whether every enabled rule starts
   * watching at open (the app) or the host starts the ones it wants (headless: `mail.start(ids)`).
   */
  mail?: MailOptions & { autoStart?: boolean }
}

/** What open() did with an unreadable queue database. */
export type OpenReport = {
  movedAside: string | null
  /** What was tightened in a data folder others could read (store/private-dir.ts); the hosts say so once. */
  madePrivate: PrivacyReport
}
export type FolderStatus = { state: FolderState; message: string | null }
export type AddFilesOptions = { profileId: string; target: AiTarget; prompt?: string; processType?: 'async' | 'direct' }

/** Statuses a row may end in without having been sent (a copy of its content then goes in its place). */
const UNSENT_ENDS: ReadonlySet<string> = new Set(['skipped', 'failed', 'superseded'])

/** Linux: a descriptor of this process, read by path (the very file opened, whatever its name now). */
const PROC_SELF_FD = process.platform === 'linux' ? '/proc/self/fd' : null

/** Candidates from folder scans that may wait for a hashing slot before the scans wait. */
const INTAKE_BACKLOG_MAX = 32

/**
 * The engine, as the rest of main sees it: a façade over the watchers, intake, the upload queue and
 * the stores. Its database, queue and settings store stay inside; the history and folder stores are
 * readable, and the grant store (partner overview) is opened on first use.
 */
export { SETTINGS_KEY, type QueueSettings }

export class Engine {
  readonly events: EngineEmitter = new TypedEmitter<EngineEvents>()
  readonly uploads: UploadStore
  readonly folders: FolderStore
  /** The mail service once loaded (see mail()). */
  private mailLoad: Promise<MailService> | null = null
  private readonly db: Db
  private readonly settings: SettingsStore
  private readonly queue: UploadQueue
  private grantStore: GrantStore | null = null
  private readonly intake: Intake
  /** Photos prepared before they are hashed and sent (HEIC → JPEG, scaled, location stripped), in a worker. */
  readonly photos: PhotoPreparer
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
  /** The content check (intake and watchers), in a worker unless the options give one. */
  private readonly inspect: InspectFn
  private readonly inspectPool: TaskPool<{ inspect: (input: Parameters<InspectFn>[0]) => Awaited<ReturnType<InspectFn>> }> | null = null

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
    if (!opts.inspect) this.inspectPool = new TaskPool('inspect', { limits: INSPECT_LIMITS, idleMs: 30_000 })
    this.inspect = opts.inspect ?? inspectInWorker(this.inspectPool!)
    this.photos = new PhotoPreparer(opts.dataDir, () => photoSettings(this.savedSettings()))
    this.intake = new Intake(this.uploads, this.events, this.inspect, this.photos)
    const saved = savedQueueOptions(this.settings)
    this.queue = new UploadQueue(
      this.uploads,
      opts.clients,
      this.events,
      {
        afterRecord: (row) => afterRecord(row, this.uploads, this.events),
        superseded: (row) => this.retakeSuperseded(row),
        storageRecovered: () => this.retakeUntaken(),
        fileForSend: (row) => this.fileForSend(row),
        textOf: async (row) => (await this.mail()).textOf(row),
      },
      { ...saved, ...opts.queue },
    )
    this.hashLimit = pLimit(opts.hashConcurrency ?? 4)
  }

  /**
   * Mail accounts and rules, and their runners (./mail/service.ts), loaded on first use: an engine
   * with no mail account (the idle watcher of `npm run bench`) never loads the mail code.
   */
  mail(): Promise<MailService> {
    return (this.mailLoad ??= import('./mail/service').then(({ MailService }) => {
      const mail = new MailService(
        {
          db: this.db,
          dataDir: this.opts.dataDir,
          events: this.events,
          take: (req) => this.hashLimit(() => this.take(req)),
          noReceipt: (req) => this.recordNoReceipt(req),
          maxFileBytes: () => this.maxFileBytes,
        },
        this.opts.mail,
      )
      // The app reads every account's mailboxes (and those added later); a host that chooses
      // (headless: `start(ids)`) starts the ones it wants.
      if (this.opts.mail?.autoStart !== false && !this.closed) mail.start()
      return mail
    }))
  }

  /**
   * True when this data folder has mail: an account, or receipts of mails (whose rows, when they
   * complete, the mail service follows to apply its after-action). The service is loaded at open then.
   */
  private hasMail(): boolean {
    return (
      this.db.get('SELECT 1 AS one FROM mail_accounts LIMIT 1') !== undefined ||
      this.db.get('SELECT 1 AS one FROM mail_parts LIMIT 1') !== undefined
    )
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
      const madePrivate = await makeDataDirPrivate(opts.dataDir)
      const { db, report } = openQueueDatabase(opts)
      engine = new Engine(opts, lock, db, { ...report, madePrivate })
    } catch (e) {
      lock.release()
      throw e
    }
    engine.resumeEndedWithoutTheApi()
    engine.events.on('upload', ({ upload, previous }) => {
      // A row that ends without being sent lets a copy of its content go in its place.
      if (previous !== upload.status && UNSENT_ENDS.has(upload.status)) engine.promoteOrphans(upload.id)
    })
    engine.queue.start()
    engine.promoteOrphans()
    await engine.finishPendingMoves()
    for (const f of engine.folders.list()) if (f.enabled) await engine.startIfAllowed(f)
    if (engine.hasMail()) await engine.mail()
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

  /** The saved connection settings (proxy, extra certificates), or {}: the connection room checks them. */
  savedConnection(): Record<string, unknown> {
    return this.settings.get<Record<string, unknown>>('connection', {})
  }

  saveConnection(next: Record<string, unknown>): void {
    this.settings.set('connection', next)
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

  /**
   * How a request made for a person went (the API answered, or what the path's problem was): the
   * profile's connection state follows it.
   */
  noteConnection(profileId: string, e: Parameters<UploadQueue['noteConnection']>[1]): void {
    if (!this.closed) this.queue.noteConnection(profileId, e)
  }

  /**
   * The OS's network events (the desktop app: offline, online, resume from sleep; a change of the
   * connection settings counts as online): back online, what waited for the network goes at once.
   */
  networkChanged(online: boolean): void {
    if (!this.closed) this.queue.networkChanged(online)
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

  private get folderRuleContext(): FolderChecks {
    return { dataDir: this.opts.dataDir, isPickedDirectory: (p) => this.opts.isPickedDirectory?.(p) ?? false }
  }

  async addFolder(input: FolderInput): Promise<FolderConfig> {
    const f = normalizeFolder(input)
    await checkFolderRules(f, null, this.folderRuleContext)
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
    await checkFolderRules(next, cur, this.folderRuleContext)
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
    // Only the folder files are moved into is left out: a person's own "Uploaded" sub-folder is
    // watched when files are left in place.
    const dest = destinationDir(f)
    const excludeDirs = dest ? [dest] : []
    const w = new FolderWatcher({
      id: f.id,
      path: f.path,
      recursive: f.recursive,
      acceptedKinds: f.acceptedKinds,
      usePolling: f.usePolling,
      ignoreOlderThanMs: f.takeExisting ? undefined : f.addedAt,
      excludeDirs,
      scanGate: () => this.intakeRoom(),
      inspect: this.inspect,
      ...this.opts.watch,
    })
    w.on('status', (s) => this.setFolderStatus(f.id, s.state, s.message ?? null))
    w.on('candidate', (c) => {
      this.intakeInFlight++
      const req = this.folderRequest(f, c.path, c.root)
      if (c.note) req.note = c.note
      void this.hashLimit(() => this.take(req))
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
        this.intake.vanished(this.folderRequest(f, v.path, null))
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

  /** The intake request of a folder's file; `root`: the folder's real path, where the file must lie. */
  private folderRequest(f: FolderConfig, path: string, root: string | null): IntakeRequest {
    return {
      profileId: f.profileId,
      target: f.target,
      prompt: renderPrompt(f.promptTemplate, { filename: rowName(path), folder: printable(basename(f.path)) }),
      processType: f.processType,
      source: 'watch',
      folderId: f.id,
      path,
      acceptedKinds: f.acceptedKinds,
      maxFileBytes: this.maxFileBytes,
      afterUpload: f.afterUpload,
      destinationDir: destinationDir(f),
      root,
    }
  }

  /** A folder's file taken again (not from its watcher): the folder's real path now. */
  private async folderRequestNow(f: FolderConfig, path: string): Promise<IntakeRequest> {
    const root = await realPathOf(f.path).catch(() => f.path)
    return this.folderRequest(f, path, root)
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

  /** A mail with no receipt: its skipped row (see Intake.noReceipt); a storage fault pauses the queue. */
  private recordNoReceipt(req: IntakeRequest): IntakeResult {
    try {
      return this.intake.noReceipt(req)
    } catch (e) {
      if (isStorageError(e)) this.queue.storageFault(e)
      throw e
    }
  }

  // ---- taking files again -----------------------------------------------------------------------

  /** The intake request for a row's file now: its folder's settings when it has one, else the row's. */
  private async requestFor(row: Upload): Promise<IntakeRequest> {
    const folder = row.folderId ? this.folders.get(row.folderId) : undefined
    if (folder) return this.folderRequestNow(folder, row.path)
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
      root: null,
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
          const st = await stat(fsPath(row.path)).catch(() => null)
          const now = st ? `${st.size}:${st.mtimeMs}` : 'gone'
          if (now === last) break
          last = now
          await new Promise((r) => setTimeout(r, window))
        }
        if (this.closed) return
        const req = await this.requestFor(row)
        await this.hashLimit(() => this.take(req))
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
      const st = await stat(fsPath(row.path)).catch(() => null)
      if (!st?.isFile()) continue
      if (row.reason === 'empty' && st.size === 0) continue
      if (row.reason === 'too_large' && st.size > this.maxFileBytes) continue
      if (row.reason === 'unreadable' && (await access(fsPath(row.path), fsConstants.R_OK).then(() => false, () => true))) continue
      const req = await this.folderRequestNow(folder, row.path)
      await this.hashLimit(() => this.take(req)).catch(() => undefined)
    }
  }

  /** Storage works again: take the files that could not be recorded meanwhile. */
  private retakeUntaken(): void {
    const reqs = [...this.untaken.values()]
    this.untaken.clear()
    for (const req of reqs) void this.hashLimit(() => this.take(req)).catch(() => undefined)
  }

  // ---- files dropped or given on the command line --------------------------------------------------

  async addFiles(paths: string[], o: AddFilesOptions & { source?: 'drop' | 'cli' | 'phone' }): Promise<IntakeResult[]> {
    const kinds = allowedKinds(o.target)
    return Promise.all(
      paths.map((p) =>
        this.hashLimit(() =>
          this.take({
            profileId: o.profileId,
            target: o.target,
            prompt: renderPrompt(o.prompt?.trim() || DEFAULT_PROMPTS[o.target], {
              filename: rowName(p),
              folder: printable(basename(dirname(p))),
            }),
            processType: o.processType ?? 'async',
            source: o.source ?? 'drop',
            folderId: null,
            path: p,
            acceptedKinds: kinds,
            maxFileBytes: this.maxFileBytes,
            afterUpload: 'leave',
            destinationDir: null,
            root: null,
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
    return cancelUpload(this.actions, id)
  }

  /** Sends a failed, cancelled or skipped file again; a duplicate is sent anyway. */
  retry(id: number): Promise<Upload> {
    return retryUpload(this.actions, id)
  }

  /** Retries every failed upload of a profile (after a new key or a subscription change). */
  retryFailed(profileId?: string): Promise<number> {
    return retryFailed(this.actions, profileId)
  }

  /** What a person's actions (./actions.ts) need of the engine. */
  private get actions(): ActionDeps {
    return {
      uploads: this.uploads,
      events: this.events,
      kick: (profileId) => this.queue.kick(profileId),
      resume: (profileId) => this.queue.resume(profileId),
      retake: async (row) => this.take({ ...(await this.requestFor(row)), override: true, continues: row }),
    }
  }

  // ---- sending --------------------------------------------------------------------------------

  /**
   * The file of a row as the queue reads it to send it: opened where it is checked (a watched
   * folder's file must still lie inside the folder, so a link swapped in after intake cannot
   * win), and, on Linux, read through that very descriptor (`/proc/self/fd/N`; it also reads a name
   * that is not UTF-8). Elsewhere the row's path is read after the check: its size, mtime and sha256
   * must still match the row (the client checks them), so nothing else can be sent.
   */
  private async fileForSend(row: Upload): Promise<SendFile> {
    const folder = row.folderId ? this.folders.get(row.folderId) : undefined
    const root = folder ? await realPathOf(folder.path).catch(() => folder.path) : null
    const opened = await openInside(row.path, root)
    if (!opened.ok) {
      const failure = (errorCode: string, message: string) =>
        Object.assign(new Error(message), { status: 0, errorCode, retryable: false })
      if (opened.why === 'outside')
        throw failure('file_outside_folder', `${rowName(row.path)} is now a link to a file outside the watched folder (${printable(opened.realPath)}); nothing was sent.`)
      if (opened.why === 'not_file') throw failure('not_a_file', `${rowName(row.path)} is not a regular file any more; nothing was sent.`)
      if (opened.why === 'error' && opened.code === 'ENOENT')
        throw failure('file_not_found', `${rowName(row.path)} was moved or deleted before it was sent.`)
      // The path changed while it was opened, or a read error: try again shortly (same key).
      throw Object.assign(new Error(`${rowName(row.path)} could not be opened to send it (${opened.message}).`), {
        status: 0,
        errorCode: opened.why === 'changed' ? 'file_changed' : 'file_read_error',
        retryable: false,
      })
    }
    const handle = opened.handle
    const release = () => handle.close().catch(() => undefined)
    // A receipt-sized file is read through this descriptor; a large one streams from its path.
    if (PROC_SELF_FD) return { path: `${PROC_SELF_FD}/${handle.fd}`, handle, release }
    return { path: row.path, handle, release }
  }

  // ---- duplicates whose original was never sent ---------------------------------------------

  /**
   * A duplicate whose original ended without being sent (skipped, refused before the server took
   * it, superseded) goes in its place: the oldest one whose file is still as it was recorded is
   * queued, and the others become duplicates of it. At start for every such row (a restart fixes
   * what an earlier run left), and whenever a row ends unsent.
   */
  promoteOrphans(original?: number): void {
    if (this.closed) return
    let orphans: Upload[]
    try {
      orphans = this.uploads.orphanedDuplicates(original)
    } catch (e) {
      if (isStorageError(e)) return this.queue.storageFault(e)
      throw e
    }
    if (orphans.length === 0) return
    void (async () => {
      const byOriginal = new Map<number, Upload[]>()
      for (const d of orphans) byOriginal.set(d.duplicateOf!, [...(byOriginal.get(d.duplicateOf!) ?? []), d])
      for (const [originalId, copies] of byOriginal) {
        const gone = this.uploads.get(originalId)
        for (const d of copies) {
          if (this.closed) return
          const st = await stat(fsPath(d.path)).catch(() => null)
          if (!st?.isFile() || st.size !== d.size || Math.floor(st.mtimeMs) !== d.mtimeMs) continue
          const next = this.uploads.transition(d, 'duplicate', 'queued', {
            nextAttemptAt: null,
            lastError: null,
            note: `Sent in place of ${gone ? printable(gone.name) : 'its original'} (upload #${originalId}), which was not sent.`,
          })
          if (!next) continue
          this.events.emit('upload', { upload: next, previous: 'duplicate' })
          this.queue.kick(next.profileId)
          // The other copies now wait on this one.
          for (const other of copies) {
            if (other.id === d.id) continue
            this.uploads.note(other, 'duplicate', { duplicateOf: next.id })
          }
          break
        }
      }
    })().catch((e: unknown) => {
      if (isStorageError(e)) this.queue.storageFault(e)
      else this.events.emit('notice', { level: 'error', message: `Could not queue a copy in place of an unsent file: ${(e as Error).message}` })
    })
  }

  // ---- after the record exists ------------------------------------------------------------------

  /** The app stopped between "record exists" and "file moved": finish those moves. */
  private async finishPendingMoves(): Promise<void> {
    for (const row of this.uploads.pendingMoves()) await afterRecord(row, this.uploads, this.events)
  }

  // ---- history -----------------------------------------------------------------------------------

  history(filter: HistoryFilter = {}): { rows: Upload[]; total: number } {
    return this.uploads.query(filter)
  }

  /** Writes the matching history as CSV, streaming row by row. Returns the number of rows. */
  async exportCsv(filter: HistoryFilter, destination: string): Promise<number> {
    return writeCsv(this.uploads.iterate(filter), destination)
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

  /**
   * Once per data folder (issue 22): rows earlier versions ended on an answer that was not the
   * API's are sent or followed again (UploadStore.resumeEndedWithoutTheApi).
   */
  private resumeEndedWithoutTheApi(): void {
    const DONE = 'resumed_not_api_endings'
    if (this.settings.get<boolean>(DONE, false)) return
    const n = this.uploads.resumeEndedWithoutTheApi()
    this.settings.set(DONE, true)
    if (n > 0) {
      this.events.emit('notice', {
        level: 'info',
        message: `${n} file(s) that had ended on an answer that was not the API's are sent or followed again.`,
      })
    }
  }

  /**
   * Stops sending: nothing new starts, and requests in flight are aborted (their rows wait, with
   * their Idempotency-Key, for the next start). The stores stay readable until close().
   */
  async stopSending(): Promise<void> {
    await this.queue.stop()
  }

  async close(): Promise<void> {
    if (this.closed) return
    this.closed = true
    this.wakeIntakeRoom(true)
    await Promise.all([...this.watchers.keys()].map((id) => this.stopWatcher(id)))
    if (this.mailLoad) await (await this.mailLoad).stop()
    this.hashLimit.clearQueue()
    await this.queue.stop()
    await Promise.all([this.inspectPool?.close(), this.photos.close()])
    this.events.removeAll()
    this.db.close()
    this.lock.release()
  }
}
