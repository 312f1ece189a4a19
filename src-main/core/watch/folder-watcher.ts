/**
 * FolderWatcher: one per watched folder. Turns chokidar events and periodic rescans into "stable
 * file candidates" for the ingest engine (design.md §2: detected → stable → hashed → queued …).
 *
 * This file is the lifecycle; the work is done by four parts:
 * - `root-health.ts`: is the folder there and readable; the message when it is lost; recovery
 *   checks with backoff; telling a folder created again at the same path from the one watched.
 * - `chokidar-source.ts`: the chokidar watcher (folders only natively, every file when polling).
 * - `stability.ts`: per-file stability sampling; a stable file is emitted once as a `candidate`, a
 *   pending file that disappears as `vanished`.
 * - `walker.ts`: walks with backpressure (the initial scan, rescans, a folder that appears).
 *
 * Runs and sessions. start() begins a *run* and stop() ends it; while the folder is watched, a
 * *session* runs: it begins when the folder is found (start, recovery) and ends when the folder is
 * lost or the watcher stops. Each is an AbortController: every walk, check and timer belongs to the
 * session current when it began and ends with it, so no work of an ended session emits anything.
 *
 * A folder given as a link (`~/Receipts` pointing into a synced folder) is watched at its real path
 * (resolved again whenever the watcher (re)starts): chokidar follows no link, so watching the link
 * itself gave no live events. Candidates carry paths below the real path, and the real path as
 * `root`: a file is read only when its own real path lies inside it (inside.ts).
 *
 * Names that are not UTF-8 are found: folders are read as bytes (io.ts), and an event whose name
 * fs.watch could only decode lossily (U+FFFD) makes the watcher read that folder again.
 *
 * Failures are never fatal: EMFILE/ENFILE/ENOSPC → polling; the folder gone, unreadable or
 * unavailable → `error` status and recovery checks with backoff, then a new watcher and a rescan;
 * a sub-folder that can't be read → `error` status naming it while the rest is watched. Watcher
 * events are hints: a jittered periodic rescan finds what chokidar missed and prunes records of
 * files that are gone.
 */
import { EventEmitter, setMaxListeners } from 'node:events'
import path from 'node:path'
import { watch as chokidarWatch } from 'chokidar'
import type { FSWatcher } from 'chokidar'
import { type InspectFn, inspect as inspectInProcess } from '../intake/inspect'
import { encodeFsName } from '../names'
import { ChokidarSource, READY_TIMEOUT_MS } from './chokidar-source'
import type { ChokidarEvents, CreateWatcher } from './chokidar-source'
import { TRANSIENT_CODES, WatchIo, errorCode, errorMessage, realFs } from './io'
import * as msg from './messages'
import { FolderPaths } from './paths'
import { RootHealth } from './root-health'
import { StabilitySampler } from './stability'
import type { FolderWatcherConfig, FolderWatcherEvents, WatchFs, WatchState, WatchStatus } from './types'
import { FolderWalker, SCAN_BATCH, noTrouble } from './walker'
import { realPathOf } from './inside'
import { ProcWriterProbe, type WriterProbe } from './writers'

export const WATCH_DEFAULTS = {
  stabilityMs: 300,
  /** An unfinished file (end marker missing, or still open for writing) is taken after this long unchanged. */
  unfinishedQuietMs: 60_000,
  rescanIntervalMs: 60_000,
  pollIntervalMs: 1_000,
  recoverInitialMs: 1_000,
  recoverMaxMs: 30_000,
  /** If chokidar never says `ready` (a hung network share), carry on after this long. */
  readyTimeoutMs: READY_TIMEOUT_MS,
} as const

/** Rescan jitter: the interval is multiplied by a factor in [1 - JITTER, 1 + JITTER]. */
const JITTER = 0.2

/** Optional replacements for tests: the fs calls and chokidar's `watch`. */
export interface FolderWatcherDeps {
  fs?: Partial<WatchFs>
  watch?: CreateWatcher
}

/** Hooks for tests only; not part of the engine-facing API. */
export interface FolderWatcherTestHooks {
  /** While true, chokidar events are dropped (as if the OS never delivered them). */
  dropEvents(drop: boolean): void
  /** Feed an error to the watcher's chokidar error handler, as chokidar would. */
  injectWatcherError(error: Error): void
  /** Whether the watcher currently polls. */
  isPolling(): boolean
  /** Sizes of the internal tables. */
  counts(): { pending: number; emitted: number; checking: number }
}

/** A duration below this is counted back from start(); at or above, it is an epoch time (ms). */
export const EPOCH_CUTOFF_THRESHOLD_MS = 1e12

/** The mtime cut-off of ignoreOlderThanMs (see FolderWatcherConfig), or undefined for none. */
export function cutoffFor(ignoreOlderThanMs: number | undefined, startedAt: number): number | undefined {
  if (ignoreOlderThanMs === undefined || !Number.isFinite(ignoreOlderThanMs)) return undefined
  return ignoreOlderThanMs >= EPOCH_CUTOFF_THRESHOLD_MS ? ignoreOlderThanMs : startedAt - ignoreOlderThanMs
}

/** The writer probe every watcher of this process shares (one walk of /proc answers them all). */
let sharedWriters: WriterProbe | undefined
function defaultWriters(): WriterProbe {
  return (sharedWriters ??= new ProcWriterProbe(encodeFsName))
}

/** A controller for a run or session; walks and timers add one listener each, so no cap. */
function controller(aborted = false): AbortController {
  const c = new AbortController()
  setMaxListeners(0, c.signal)
  if (aborted) c.abort()
  return c
}

export class FolderWatcher extends EventEmitter<FolderWatcherEvents> {
  readonly id: string
  /** The folder as configured (resolved); it may be a link. */
  readonly root: string
  /** Where the folder really is (every link resolved), where it is watched. */
  private realRoot: string

  private readonly recursive: boolean
  private readonly stabilityMs: number
  private readonly rescanIntervalMs: number
  private readonly pollIntervalMs: number
  private readonly ignoreOlderThanMs: number | undefined
  private readonly io: WatchIo
  private readonly paths: FolderPaths
  private readonly health: RootHealth
  private readonly source: ChokidarSource
  private readonly sampler: StabilitySampler
  private readonly walker: FolderWalker

  // lifecycle
  private active = false
  private starting = false
  /** From start() to stop(). */
  private run = controller(true)
  /** While the folder is watched: from finding it (start, recovery) to losing it or stop(). */
  private session = controller(true)
  private startPromise: Promise<void> | undefined
  private stopPromise: Promise<void> | undefined
  private cutoffMs: number | undefined
  private polling: boolean
  private fallbackMessage: string | undefined
  private rootCheckQueued = false
  private droppingEvents = false
  private current: WatchStatus

  // scans
  private rescanning = 0
  private scanChain: Promise<void> = Promise.resolve()
  private scanQueued: Promise<void> | undefined
  private rescanTimer: NodeJS.Timeout | undefined

  constructor(config: FolderWatcherConfig, deps: FolderWatcherDeps = {}) {
    super()
    this.id = config.id
    this.root = path.resolve(config.path)
    this.recursive = config.recursive
    this.stabilityMs = Math.max(20, config.stabilityMs ?? WATCH_DEFAULTS.stabilityMs)
    this.rescanIntervalMs = Math.max(50, config.rescanIntervalMs ?? WATCH_DEFAULTS.rescanIntervalMs)
    this.pollIntervalMs = Math.max(20, config.pollIntervalMs ?? WATCH_DEFAULTS.pollIntervalMs)
    const recoverInitialMs = Math.max(10, config.recoverInitialMs ?? WATCH_DEFAULTS.recoverInitialMs)
    const recoverMaxMs = Math.max(recoverInitialMs, config.recoverMaxMs ?? WATCH_DEFAULTS.recoverMaxMs)
    this.ignoreOlderThanMs = config.ignoreOlderThanMs
    this.realRoot = this.root
    const unfinishedQuietMs = Math.max(
      this.stabilityMs,
      config.unfinishedQuietMs ?? WATCH_DEFAULTS.unfinishedQuietMs,
    )
    const inspect: InspectFn = config.inspect ?? inspectInProcess
    const writers = config.writers ?? defaultWriters()
    this.polling = config.usePolling
    this.io = new WatchIo({ ...realFs, ...deps.fs })
    this.paths = new FolderPaths(this.root, config.excludeDirs ?? [])
    this.current = { folderId: this.id, state: 'stopped' }

    this.health = new RootHealth({
      root: this.root,
      io: this.io,
      recoverInitialMs,
      recoverMaxMs,
      active: () => this.active,
      lost: (gone) => this.folderLost(gone),
      back: () => this.folderBack(),
    })
    this.source = new ChokidarSource(this.root, deps.watch ?? chokidarWatch, this.chokidarEvents)
    this.sampler = new StabilitySampler({
      folderId: this.id,
      stabilityMs: this.stabilityMs,
      unfinishedQuietMs,
      acceptedKinds: new Set(config.acceptedKinds.map((k) => k.toLowerCase().replace(/^\./, ''))),
      io: this.io,
      inspect,
      writers,
      realRoot: () => this.realRoot,
      session: () => this.session.signal,
      polling: () => this.polling,
      cutoffMs: () => this.cutoffMs,
      candidate: (c) => this.safeEmit('candidate', c),
      vanished: (v) => this.safeEmit('vanished', v),
      pendingShrank: (size) => this.walker.pendingShrank(size),
      warn: (where, e) => this.warn(where, e),
    })
    this.walker = new FolderWalker(this.io, this.paths, this.sampler, this.recursive, config.scanGate)
  }

  /** The latest status (also emitted as `status` events when it changes). */
  get status(): WatchStatus {
    return { ...this.current }
  }

  /**
   * Starts watching. Resolves once chokidar is ready and the initial scan has run (files found are
   * then pending; they are emitted as candidates when stable, subject to ignoreOlderThanMs). Never
   * rejects: a missing or unreadable folder gives an `error` status and recovery checks.
   */
  start(): Promise<void> {
    if (this.active && this.startPromise) return this.startPromise
    this.active = true
    this.starting = true
    this.stopPromise = undefined
    this.run = controller()
    this.cutoffMs = cutoffFor(this.ignoreOlderThanMs, Date.now())
    this.startPromise = this.doStart(this.run.signal).catch((e: unknown) => this.warn('start', e))
    return this.startPromise
  }

  /**
   * Walks the folder now (readdir/stat, honouring recursive, ignore rules and excludeDirs) and
   * checks every file: new or changed files become pending, files already reported are not
   * reported again, records of files that are gone are dropped. Resolves when the walk is done
   * (candidates follow once files are stable). While the folder is missing, checks at once
   * whether it is back. Never rejects.
   */
  rescan(): Promise<void> {
    if (!this.active) return Promise.resolve()
    if (this.health.lostMessage) return this.health.recover(true)
    if (this.scanQueued) return this.scanQueued
    const queued: Promise<void> = this.scanChain.then(async () => {
      if (this.scanQueued === queued) this.scanQueued = undefined
      this.rescanning++
      try {
        await this.scanOnce()
        if (this.active && !this.health.lostMessage) this.safeEmit('scanned', { folderId: this.id })
      } catch (e) {
        this.warn('rescan', e)
      } finally {
        this.rescanning--
      }
    })
    this.scanQueued = queued
    this.scanChain = queued
    return queued
  }

  /** Stops: closes chokidar, clears every timer; no event is emitted after it resolves. */
  stop(): Promise<void> {
    if (this.stopPromise) return this.stopPromise
    if (!this.active) return Promise.resolve()
    this.active = false
    this.starting = false
    this.run.abort()
    this.session.abort()
    clearTimeout(this.rescanTimer)
    this.rescanTimer = undefined
    this.health.stop()
    this.sampler.dropPending(false)
    this.stopPromise = (async () => {
      await this.source.close(this.warn)
      // Let an in-flight walk notice the stop and finish, so no fs work outlives stop().
      await this.scanChain.catch(() => undefined)
      await this.sampler.settled()
      if (this.active) return // started again meanwhile
      this.startPromise = undefined
      this.setStatus('stopped', undefined, true)
    })()
    return this.stopPromise
  }

  /**
   * True while something is on its way: start() or a scan is running, a file is waiting to become
   * stable, or a check is in flight. (A headless `--once` run waits for this to turn false.)
   */
  busy(): boolean {
    return (
      this.active &&
      (this.starting || this.rescanning > 0 || this.walker.walking > 0 || this.sampler.busy())
    )
  }

  /** Test hooks (see FolderWatcherTestHooks). Not for the engine. */
  get testHooks(): FolderWatcherTestHooks {
    return {
      dropEvents: (drop) => {
        this.droppingEvents = drop
      },
      injectWatcherError: (error) => this.source.injectError(error),
      isPolling: () => this.polling,
      counts: () => this.sampler.counts(),
    }
  }

  // ------------------------------------------------------------------------------------------
  // lifecycle
  // ------------------------------------------------------------------------------------------

  private async doStart(run: AbortSignal): Promise<void> {
    this.setStatus('starting')
    const probe = await this.health.probe()
    if (run.aborted) return
    if (!probe.ok) {
      this.starting = false
      this.health.enterLost(probe.code)
      return
    }
    this.health.remember(probe.value)
    await this.resolveRoot()
    if (run.aborted) return
    this.session = controller()
    await this.source.ready(this.openWatcher())
    if (run.aborted) return
    await this.rescan()
    if (run.aborted) return
    this.starting = false
    this.updateStatus()
    this.scheduleRescan()
  }

  /**
   * Where the folder really is now: the watcher, the walks and the inside rule use that path. A
   * link to a folder is followed here, once, and never below it.
   */
  private async resolveRoot(): Promise<void> {
    let real = this.root
    try {
      real = await realPathOf(this.root)
    } catch {
      // not there (a missing folder is the health checks' business): keep the path as given
    }
    if (real === this.realRoot && this.source.root === real) return
    this.realRoot = real
    this.paths.setRoot(real)
    this.source.root = real
  }

  /** Opens chokidar for the current mode; a throw is handled as chokidar's error event would be. */
  private openWatcher(): FSWatcher | undefined {
    try {
      return this.source.start({
        polling: this.polling,
        pollIntervalMs: this.pollIntervalMs,
        recursive: this.recursive,
        isIgnored: (p) => this.paths.isIgnored(p),
      })
    } catch (e) {
      // Unexpected (chokidar reports errors as events); until it is handled, rescans find files.
      const code = errorCode(e)
      if (msg.FALLBACK_CODES.has(code) && !this.polling) void this.switchToPolling(code)
      else void this.diagnose(code, e)
      return undefined
    }
  }

  /** RootHealth found the folder lost: end the session, close chokidar, drop pending files. */
  private folderLost(gone: boolean): void {
    this.session.abort()
    void this.source.close(this.warn)
    clearTimeout(this.rescanTimer)
    this.rescanTimer = undefined
    this.sampler.dropPending(gone)
    this.starting = false
    this.updateStatus()
  }

  /** RootHealth found the folder back: a new session, a new watcher, a rescan. */
  private async folderBack(): Promise<void> {
    this.session = controller()
    const session = this.session.signal
    await this.resolveRoot()
    if (session.aborted) return
    await this.source.ready(this.openWatcher())
    if (session.aborted) return
    await this.rescan()
    if (session.aborted) return
    this.updateStatus()
    this.scheduleRescan()
  }

  /** The folder was replaced under the watcher (same path, new directory): watch it afresh. */
  private async restartWatcher(): Promise<void> {
    const session = this.session.signal
    if (session.aborted) return
    const probe = await this.health.probe()
    if (session.aborted) return
    if (!probe.ok) return this.health.enterLost(probe.code)
    this.health.remember(probe.value)
    await this.source.close(this.warn)
    if (session.aborted || this.source.open) return
    await this.resolveRoot()
    if (session.aborted || this.source.open) return
    await this.source.ready(this.openWatcher())
    if (session.aborted) return
    await this.rescan()
  }

  /** EMFILE/ENFILE/ENOSPC: native watching is out of resources; poll instead (sticky). */
  private async switchToPolling(code: string): Promise<void> {
    if (!this.active || this.polling) return
    const session = this.session.signal
    this.polling = true
    this.fallbackMessage = msg.switchedToPolling(code)
    await this.source.close(this.warn)
    if (session.aborted || this.source.open) return this.updateStatus()
    const fsw = this.openWatcher()
    this.updateStatus()
    await this.source.ready(fsw)
    if (session.aborted) return
    await this.rescan() // catch up with what happened while switching
  }

  // ------------------------------------------------------------------------------------------
  // status
  // ------------------------------------------------------------------------------------------

  private updateStatus(): void {
    if (!this.active) return
    const lost = this.health.lostMessage
    if (lost) return this.setStatus('error', lost)
    if (this.health.problem) return this.setStatus('error', this.health.problem)
    if (this.starting) return this.setStatus('starting')
    if (this.polling) {
      return this.setStatus('polling', this.fallbackMessage ?? msg.pollingConfigured(this.pollIntervalMs))
    }
    this.setStatus('watching')
  }

  private setStatus(state: WatchState, message?: string, force = false): void {
    if (!this.active && !force) return
    if (this.current.state === state && this.current.message === message) return
    this.current =
      message === undefined ? { folderId: this.id, state } : { folderId: this.id, state, message }
    this.safeEmit('status', { ...this.current })
  }

  // ------------------------------------------------------------------------------------------
  // chokidar events (only those of the current watcher arrive here)
  // ------------------------------------------------------------------------------------------

  /** The folder is watched now (started, not lost). */
  private watching(): boolean {
    return !this.session.signal.aborted
  }

  private readonly chokidarEvents: ChokidarEvents = {
    file: (p, via) => {
      if (!this.watching() || this.droppingEvents) return
      const abs = path.resolve(p)
      if (this.paths.isIgnored(abs)) return
      if (abs.includes('\uFFFD')) return this.lossyName(path.dirname(abs))
      void this.sampler.check(abs, via)
    },
    dirAdded: (p) => {
      if (!this.watching() || this.droppingEvents) return
      // When polling, chokidar reports the files of a new folder itself.
      if (!this.source.foldersOnly || !this.recursive) return
      const abs = path.resolve(p)
      if (abs === this.realRoot || !this.paths.isInside(abs) || this.paths.isIgnored(abs)) return
      // A folder whose name is not UTF-8: only a walk (which reads names as bytes) finds what is in
      // it; files added there later are found by the periodic rescans.
      if (abs.includes('\uFFFD')) return void this.rescan()
      this.subtreeAppeared(abs)
    },
    dirRemoved: (p) => {
      if (!this.watching()) return
      const abs = path.resolve(p)
      // The watched folder itself went away (or was replaced): lost, or watch the new one.
      if (abs === this.realRoot) void this.restartWatcher()
      else if (this.paths.isInside(abs)) this.sampler.subtreeVanished(abs)
    },
    raw: (event, evPath, details) => this.onRawEvent(event, evPath, details),
    error: (error) => {
      if (!this.watching()) return
      const code = errorCode(error)
      if (!msg.FALLBACK_CODES.has(code)) void this.diagnose(code, error)
      else if (!this.polling) void this.switchToPolling(code)
    },
  }

  /**
   * fs.watch events as chokidar saw them: `evPath` is a name inside the watched folder
   * `details.watchedPath`. Natively these are our file events (chokidar watches folders only).
   */
  private onRawEvent(event: string, evPath: string, details: unknown): void {
    if (!this.watching()) return
    const watched = (details as { watchedPath?: unknown } | null)?.watchedPath
    if (typeof watched !== 'string' || typeof evPath !== 'string' || evPath === '') return
    const dir = path.resolve(watched)
    // chokidar emits no unlinkDir when an *empty* watched folder is deleted; this event
    // (the folder's own name, seen by its own watcher) still comes.
    if (
      dir === this.realRoot &&
      event === 'rename' &&
      evPath === path.basename(this.realRoot) &&
      !this.rootCheckQueued
    ) {
      this.rootCheckQueued = true
      void this.checkRoot().finally(() => (this.rootCheckQueued = false))
    }
    if (!this.source.foldersOnly || this.droppingEvents) return
    const full = path.resolve(dir, evPath)
    if (full === this.realRoot || !this.paths.isInside(full)) return
    if (!this.recursive && path.dirname(full) !== this.realRoot) return
    if (this.paths.isIgnored(full)) return
    // fs.watch decodes names as UTF-8 and could not here: read the folder as bytes instead.
    if (evPath.includes('\uFFFD')) return this.lossyName(path.dirname(full))
    // 'rename': the name appeared or went away; 'change': its content or metadata changed.
    void this.sampler.check(full, event === 'rename' ? 'add' : 'change')
  }

  /** Is the watched folder still the one we watch? Lost, or replaced (then watch the new one). */
  private async checkRoot(): Promise<void> {
    const session = this.session.signal
    const probe = await this.health.probe()
    if (session.aborted) return
    if (!probe.ok) this.health.enterLost(probe.code)
    else if (this.health.replaced(probe.value)) await this.restartWatcher()
  }

  /** A watcher error: is it the folder itself, or a part of it? */
  private async diagnose(code: string, error: unknown): Promise<void> {
    const session = this.session.signal
    const probe = await this.health.probe()
    if (session.aborted) return
    if (!probe.ok) return this.health.enterLost(probe.code)
    const where = (error as { path?: unknown } | null)?.path
    this.health.problem = msg.PERMISSION_CODES.has(code)
      ? msg.subfoldersUnreadable([typeof where === 'string' ? where : this.root], code)
      : msg.watcherProblem(code, errorMessage(error))
    this.updateStatus()
  }

  // ------------------------------------------------------------------------------------------
  // scans
  // ------------------------------------------------------------------------------------------

  private scheduleRescan(): void {
    clearTimeout(this.rescanTimer)
    this.rescanTimer = undefined
    if (!this.watching()) return
    const factor = 1 - JITTER + Math.random() * 2 * JITTER
    this.rescanTimer = setTimeout(
      () => {
        this.rescanTimer = undefined
        void this.rescan().then(() => this.scheduleRescan())
      },
      Math.round(this.rescanIntervalMs * factor),
    )
  }

  private async scanOnce(): Promise<void> {
    const session = this.session.signal
    if (session.aborted) return
    const gen = this.sampler.nextGeneration()
    const trouble = noTrouble()
    const rootError = await this.walker.walk(this.realRoot, 'scan', session, trouble)
    if (session.aborted) return
    if (rootError) {
      if (!TRANSIENT_CODES.has(rootError)) this.health.enterLost(rootError)
      return
    }
    // Was the folder replaced under the watcher (deleted and recreated)? Then watch the new one.
    const rootStat = await this.io.stat(this.realRoot, session)
    if (session.aborted) return
    if (rootStat.ok && this.health.replaced(rootStat.value)) void this.restartWatcher()

    await this.sampler.pruneUnseen(gen, [...trouble.dirs, ...trouble.skipped], SCAN_BATCH, session)
    if (session.aborted) return
    this.health.problem =
      trouble.dirs.length > 0 ? msg.subfoldersUnreadable(trouble.dirs, trouble.code) : undefined
    this.updateStatus()
  }

  /**
   * An event named a file fs.watch could not decode (bytes that are not UTF-8): the folder is read
   * as bytes to find its real name (once per folder at a time).
   */
  private readonly lossyDirs = new Set<string>()
  private lossyName(dir: string): void {
    if (this.lossyDirs.has(dir) || !this.paths.isInside(dir + path.sep)) return
    const session = this.session.signal
    this.lossyDirs.add(dir)
    void this.walker
      .walk(dir, 'add', session, noTrouble(), true)
      .catch((e: unknown) => this.warn('reading a folder as bytes', e))
      .finally(() => this.lossyDirs.delete(dir))
  }

  /**
   * A folder appeared below the root (created, moved or renamed in). chokidar only watches folders
   * here, so the files already in it are found by walking it: now, and once more shortly after, for
   * files written between chokidar reading the folder and its watch being in place.
   */
  private subtreeAppeared(dir: string): void {
    const session = this.session.signal
    const walkIt = (): void => {
      if (session.aborted) return
      this.walker
        .walk(dir, 'add', session, noTrouble())
        .catch((e: unknown) => this.warn('walking a new folder', e))
    }
    walkIt()
    const cancel = (): void => clearTimeout(timer)
    const timer = setTimeout(
      () => {
        session.removeEventListener('abort', cancel)
        walkIt()
      },
      Math.max(100, this.stabilityMs),
    )
    session.addEventListener('abort', cancel, { once: true })
  }

  // ------------------------------------------------------------------------------------------
  // helpers
  // ------------------------------------------------------------------------------------------

  private safeEmit<K extends keyof FolderWatcherEvents>(event: K, ...args: FolderWatcherEvents[K]): void {
    try {
      // TypeScript can't match a generic K to the emitter's conditional args type; K is exact here.
      ;(this.emit as (e: K, ...a: FolderWatcherEvents[K]) => boolean).call(this, event, ...args)
    } catch (e) {
      // A listener threw: that is the listener's bug; the watcher keeps going.
      this.warn(`a '${event}' listener`, e)
    }
  }

  private readonly warn = (where: string, e: unknown): void => {
    process.emitWarning(`Bookdrop folder watcher ${this.id}: ${where} failed: ${errorMessage(e)}`, {
      code: 'BOOKDROP_WATCH',
    })
  }
}
