/**
 * The ingest engine: composes the store, watched folders, intake, the upload queue and the job
 * poller. One instance per app (desktop, web host or headless). Plain Node: never imports electron.
 * This file composes, opens and closes; its parts live in ./engine/: folders.ts (watchers, intake
 * room), take.ts (the way into intake), requests.ts, retake.ts, send-file.ts, orphans.ts, mail.ts,
 * settings.ts, options.ts, parts.ts, intake-pool.ts, memory.ts, retention.ts and review-parts.ts
 * (records, fingerprints and held possible duplicates).
 */
import { type EngineEmitter, type EngineEvents, TypedEmitter } from './events'
import { type FolderConfig, type FolderInput, FolderStore, SettingsStore } from './folders'
import { type ActionDeps, cancelUpload, retryFailed, retryUpload } from './actions'
import { PhotoPreparer, photoSettings } from './prepare/preparer'
import { afterRecord } from './intake/after-upload'
import type { RecordKeeper } from './engine/records'
import { Intake, type IntakeResult } from './intake/intake'
import { UploadQueue } from './queue/queue'
import { type QueueSettings, savedQueueOptions } from './queue/saved-options'
import { type DataDirLock, lockDataDir, openQueueDatabase } from './store/data-dir'
import type { Db } from './store/db'
import { type HistoryFilter, type Upload, UploadStore } from './store/uploads'
import { writeCsv } from './store/csv'
import { makeDataDirPrivate } from './store/private-dir'
import { OverviewFigures } from './engine/overview'
import type { RateLimit } from './api/ratelimit'
import type { MailService } from './mail/service'
import { type FolderStatus, WatchedFolders } from './engine/folders'
import { hasMail, loadMail } from './engine/mail'
import type { EngineOptions, OpenReport } from './engine/options'
import { promoteOrphans } from './engine/orphans'
import { type AddFilesOptions, addedFileRequest } from './engine/requests'
import { Retakes, actionDeps } from './engine/retake'
import type { EngineParts } from './engine/parts'
import { fileForSend } from './engine/send-file'
import { CopyRetention, keepCopiesMs } from './engine/retention'
import { EngineSettings } from './engine/settings'
import type { EngineFingerprints } from './engine/fingerprints'
import { FileTaker } from './engine/take'
import type { HeldDuplicates } from './engine/held'
import { type IntakePool, engineIntakePool } from './engine/intake-pool'
import { HeapKeeper } from './engine/memory'
import { followUnsentEnds, historyPage, makeReviewParts } from './engine/review-parts'

export type { AddFilesOptions, EngineOptions, FolderStatus, OpenReport }

/**
 * The engine, as the rest of main sees it: a façade over the watchers, intake, the upload queue and
 * the stores. Its database, queue and settings store stay inside; the history and folder stores are
 * readable, and so are the overview's figures (./engine/overview.ts).
 */
export class Engine {
  readonly events: EngineEmitter = new TypedEmitter<EngineEvents>()
  readonly uploads: UploadStore
  readonly folders: FolderStore
  readonly overview: OverviewFigures
  /** Photos prepared before they are hashed and sent (HEIC → JPEG, scaled, location stripped), in a worker. */
  readonly photos: PhotoPreparer
  /** What each completed upload became (issue 32): the records table and its reads. */
  readonly records: RecordKeeper
  /** Content fingerprints (issue 33): what a receipt shows, to know it when it comes again. */
  readonly fingerprints: EngineFingerprints
  readonly openReport: OpenReport
  /** Possible duplicates held for a person, and each profile's setting (issue 33: ./engine/held.ts). */
  readonly held: HeldDuplicates
  /** The mail service once loaded (see mail()). */
  private mailLoad: Promise<MailService> | null = null
  private readonly db: Db
  private readonly settings: EngineSettings
  private readonly queue: UploadQueue
  /** Every file into intake goes through it (a hashing slot, storage faults). */
  private readonly taker: FileTaker
  private readonly watched: WatchedFolders
  private readonly retakes: Retakes
  /** Local copies of receipts kept only as long as they serve, and the data folder's size (./engine/retention.ts). */
  readonly copies: CopyRetention
  /** What the parts share (./engine/parts.ts). */
  private readonly parts: EngineParts
  private closed = false
  /** The intake worker: content checks and fingerprints (./engine/intake-pool.ts). */
  private readonly intakePool: IntakePool
  /** The heap kept near what is live while files keep coming (./engine/memory.ts). */
  private readonly heap: HeapKeeper

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
    this.overview = new OverviewFigures(this.db)
    // The content check (intake and watchers) in the intake worker unless the options give one; the
    // same worker fingerprints.
    const { inspect, pool } = engineIntakePool(opts.inspect)
    this.intakePool = pool
    this.heap = new HeapKeeper(this.events)
    this.photos = new PhotoPreparer(opts.dataDir, () => photoSettings(this.savedSettings()))
    const settings = new SettingsStore(this.db)
    ;({ fingerprints: this.fingerprints, held: this.held, records: this.records } = makeReviewParts({
      db,
      uploads: this.uploads,
      events: this.events,
      settings,
      queue: () => this.queue,
      closed: () => this.closed,
      fingerprints: opts.fingerprints ?? true,
      pool,
    }))
    const intake = new Intake(this.uploads, this.events, inspect, this.photos, this.fingerprints, this.held.holding())
    const saved = savedQueueOptions(settings)
    this.queue = new UploadQueue(
      this.uploads,
      opts.clients,
      this.events,
      {
        afterRecord: (row) => afterRecord(row, this.uploads, this.events),
        recordsMade: (row, uuids, client) => this.records.made(row, uuids, client),
        keepRecords: (row, uuids) => this.records.keepMade(row, uuids),
        superseded: (row) => this.retakes.superseded(row),
        storageRecovered: () => this.taker.retakeUntaken(),
        fileForSend: (row) => fileForSend(row, this.folders, opts.openForSend),
        textOf: async (row) => (await this.mail()).textOf(row),
      },
      { ...saved, ...opts.queue },
    )
    this.settings = new EngineSettings(settings, this.queue)
    this.taker = new FileTaker(
      intake,
      this.queue,
      () => this.watched.wakeIntakeRoom(),
      opts.hashConcurrency ?? 4,
    )
    this.parts = {
      uploads: this.uploads,
      folders: this.folders,
      events: this.events,
      taker: this.taker,
      queue: this.queue,
      maxFileBytes: () => this.maxFileBytes,
      closed: () => this.closed,
    }
    this.copies = new CopyRetention(opts.dataDir, this.uploads, () => keepCopiesMs(this.savedSettings()))
    this.retakes = new Retakes({ ...this.parts, stabilityMs: opts.watch?.stabilityMs ?? 300 })
    this.watched = new WatchedFolders({
      ...this.parts,
      retakes: this.retakes,
      inspect,
      watch: opts.watch,
      rules: { dataDir: opts.dataDir, isPickedDirectory: (p) => opts.isPickedDirectory?.(p) ?? false },
    })
  }

  /**
   * Mail accounts and rules, and their runners (./mail/service.ts), loaded on first use: an engine
   * with no mail account (the idle watcher of `npm run bench`) never loads the mail code.
   */
  mail(): Promise<MailService> {
    return (this.mailLoad ??= loadMail({
      ...this.parts,
      db: this.db,
      dataDir: this.opts.dataDir,
      options: this.opts.mail,
    }))
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
    engine.settings.resumeEndedWithoutTheApi(engine.uploads, engine.events)
    // Before anything writes copies again: what no row refers to any more is an orphan.
    await engine.copies.sweep({ orphans: true }).catch(() => undefined)
    engine.copies.start(opts.copySweepMs)
    followUnsentEnds(engine.events, engine)
    engine.queue.start()
    engine.promoteOrphans()
    engine.held.release()
    // The app stopped between "record exists" and "file moved": finish those moves.
    for (const row of engine.uploads.pendingMoves()) await afterRecord(row, engine.uploads, engine.events)
    await engine.watched.startEnabled()
    if (hasMail(engine.db)) await engine.mail()
    return engine
  }

  /** The largest file taken (the queue's limit, which Settings changes live). */
  get maxFileBytes(): number {
    return this.queue.maxFileBytes
  }

  // ---- settings ----------------------------------------------------------------------------------

  /** The app's saved settings record, or {} (the settings room checks it against the contract). */
  savedSettings(): Record<string, unknown> {
    return this.settings.saved()
  }

  /** Saves the app's settings under the one key and applies the queue's part now. */
  saveSettings(next: QueueSettings & Record<string, unknown>): void {
    this.settings.save(next)
  }

  /** The saved connection settings (proxy, extra certificates), or {}: the connection room checks them. */
  savedConnection(): Record<string, unknown> {
    return this.settings.connection()
  }

  saveConnection(next: Record<string, unknown>): void {
    this.settings.saveConnection(next)
  }

  /** Applies the queue's part of the settings (each field given), without saving it. */
  applyQueueSettings(s: Partial<QueueSettings>): void {
    this.settings.applyToQueue(s)
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

  // ---- folders -----------------------------------------------------------------------------------

  addFolder(input: FolderInput): Promise<FolderConfig> {
    return this.watched.add(input)
  }

  updateFolder(id: string, patch: Partial<FolderInput>): Promise<FolderConfig> {
    return this.watched.update(id, patch)
  }

  removeFolder(id: string): Promise<void> {
    return this.watched.remove(id)
  }

  listFolders(): (FolderConfig & FolderStatus)[] {
    return this.watched.list()
  }

  /** Walks every watched folder now (the watchers also do this on a jittered timer). */
  rescan(): Promise<void> {
    return this.watched.rescan()
  }

  // ---- files dropped or given on the command line --------------------------------------------------

  addFiles(
    paths: string[],
    o: AddFilesOptions & { source?: 'drop' | 'cli' | 'phone' },
  ): Promise<IntakeResult[]> {
    return Promise.all(paths.map((p) => this.taker.inTurn(addedFileRequest(p, o, this.maxFileBytes))))
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
    return actionDeps(this.parts, this.retakes, this.opts.dataDir)
  }

  /**
   * A duplicate whose original ended without being sent goes in its place (./engine/orphans.ts):
   * at start for every such row, and whenever a row ends unsent.
   */
  promoteOrphans(original?: number): void {
    promoteOrphans(this.parts, original)
  }

  // ---- history -----------------------------------------------------------------------------------

  /** A page of the history, each completed row with what it became (its records not read yet are read soon). */
  history(filter: HistoryFilter = {}): { rows: Upload[]; total: number } {
    return historyPage(this.uploads, this.records, filter)
  }

  /** Writes the matching history as CSV, streaming row by row. Returns the number of rows. */
  async exportCsv(filter: HistoryFilter, destination: string): Promise<number> {
    return writeCsv(this.uploads.iterate(filter), destination)
  }

  /**
   * Resolves once nothing is being detected, hashed, waiting, sent or processed (profiles paused by
   * a person or an auth problem aside: their rows wait).
   */
  async whenIdle(): Promise<void> {
    for (;;) {
      await this.queue.whenIdle()
      if (!this.taker.busy && !this.watched.busy() && this.queue.isIdle()) return
      await new Promise((r) => setTimeout(r, 25))
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
    this.heap.stop()
    await this.watched.close()
    if (this.mailLoad) await (await this.mailLoad).stop()
    this.taker.clear()
    await this.copies.stop()
    await this.queue.stop()
    await this.records.close()
    await Promise.all([this.intakePool.close(), this.photos.close(), this.fingerprints.close()])
    this.events.removeAll()
    this.db.close()
    this.lock.release()
  }
}
