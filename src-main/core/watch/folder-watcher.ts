/**
 * FolderWatcher: one per watched folder. Turns chokidar events and periodic rescans into "stable
 * file candidates" for the ingest engine (design.md §2: detected → stable → hashed → queued …).
 *
 * How it works
 * - Every file event (see below) or scan hit runs a *check* of that path: one
 *   `stat`, serialised per path. Checks of a path never overlap; events arriving meanwhile coalesce
 *   into one more check.
 * - A new or changed file becomes *pending*: it is sampled every stabilityMs / 2 (and at once on
 *   every event). It is *stable* when at least two samples agree on size and mtime and nothing has
 *   changed for stabilityMs. When a change is seen between samples, the file's own mtime (if it
 *   falls between the two samples) says when it changed, so a missed event costs no extra latency.
 * - A stable file is checked for readability (`access R_OK`) and emitted once as a `candidate`.
 *   The watcher remembers the emitted version (size, mtime) per path, so events and rescans never
 *   report it again; when the file is seen gone the record is dropped, so a file that comes back
 *   (moved out and back) is reported again, once per appearance.
 * - A pending file that disappears emits `vanished`.
 * - Watcher events are hints: a jittered periodic rescan (readdir/stat walk) finds what chokidar
 *   missed and prunes records of files that are gone.
 * - A walk holds at most SCAN_MAX_PENDING files pending at a time and awaits the consumer's
 *   `scanGate` before each batch, so a folder of 20,000 existing files streams through in a bounded
 *   window. A file a walk finds that was last modified well before (MTIME_SLACK_MS beyond the
 *   window) counts that quiet time toward its window, so old files take two quick samples instead
 *   of a full window each (not when polling: network shares may report cached attributes).
 * - Failures are never fatal: EMFILE/ENFILE/ENOSPC → polling; the folder gone, unreadable or
 *   unavailable → `error` status and recovery checks with backoff, then a new watcher and a rescan;
 *   a sub-folder that can't be read → `error` status naming it while the rest is watched.
 * - Natively, chokidar watches folders only (files are in its `ignored`): each folder's fs.watch
 *   reports its files by name (chokidar `raw` events), which start the checks; `addDir` walks a
 *   folder that appears. That keeps chokidar at one watcher per folder instead of one per file
 *   (~2.7 KB, an inotify watch or, on macOS, a file descriptor each). When polling, chokidar
 *   watches every file (a folder's mtime doesn't change when a file in it is written) and its
 *   `add`/`change`/`unlink` events start the checks.
 *
 * Memory: per file, one small record (path key + size, mtime, two flags, ~200 B measured for
 * 20,000 files); pending files add a timer. chokidar runs with `ignoreInitial` and without
 * `alwaysStat`: the initial scan is our own walk.
 */
import { EventEmitter } from 'node:events'
import { constants as fsConstants } from 'node:fs'
import type { Dirent, Stats } from 'node:fs'
import * as fsp from 'node:fs/promises'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { watch as chokidarWatch } from 'chokidar'
import type { ChokidarOptions, FSWatcher } from 'chokidar'
import { fileKind } from '../../../schemas/api'
import { isIgnoredName } from './ignore'
import * as msg from './messages'
import type {
  CandidateSource,
  FolderWatcherConfig,
  FolderWatcherEvents,
  WatchCandidate,
  WatchFs,
  WatchState,
  WatchStatus,
} from './types'

export const WATCH_DEFAULTS = {
  stabilityMs: 300,
  rescanIntervalMs: 60_000,
  pollIntervalMs: 1_000,
  recoverInitialMs: 1_000,
  recoverMaxMs: 30_000,
  /** If chokidar never says `ready` (a hung network share), carry on after this long. */
  readyTimeoutMs: 30_000,
} as const

/** Concurrent stat/access/readdir calls of one watcher. */
const IO_CONCURRENCY = 32
/** Directory entries checked together during a scan. */
const SCAN_BATCH = 64
/**
 * A scan walks on only while fewer files than this wait to become stable, so an initial scan of a
 * folder of 20,000 files holds about this many pending records and timers at a time, not 20,000.
 */
const SCAN_MAX_PENDING = 128
/**
 * A walk that finds a file last modified longer ago than this plus the stability window counts
 * that quiet time toward the window (two samples are still needed). The slack covers file systems
 * whose mtimes are coarse (FAT keeps 2 s) or late.
 */
const MTIME_SLACK_MS = 2_000
/** Rescan jitter: the interval is multiplied by a factor in [1 - JITTER, 1 + JITTER]. */
const JITTER = 0.2

/** The path is not there (any more). */
const GONE_CODES: ReadonlySet<string> = new Set(['ENOENT', 'ENOTDIR'])
/** Try again later; says nothing about the file. */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'EINTR'])

type Via = 'add' | 'change' | 'unlink' | 'scan' | 'sample'

type IoResult<T> = { ok: true; value: T } | { ok: false; code: string; message: string }

/** A file seen but not yet stable. */
interface Pending {
  path: string
  detectedAt: number
  source: CandidateSource
  /** Last observed state; size/mtime -1 with `err` when stat failed (e.g. EACCES). */
  size: number
  mtimeMs: number
  err: string | undefined
  errMessage: string | undefined
  /** Monotonic ms when the current state began. */
  changedAt: number
  /** Wall-clock ms when the last sample's stat was issued. */
  lastSampleWall: number
  /** Consecutive samples that agreed on the current state. */
  samples: number
  timer: NodeJS.Timeout | undefined
}

/** The version last reported for a path: one small record per file. */
interface Emitted {
  size: number
  mtimeMs: number
  unreadable: boolean
  /** Scan generation that last saw the file. */
  seen: number
}

/** Folders a walk could not read: `dirs` are reported (with `code`), `skipped` only retried. */
interface WalkTrouble {
  dirs: string[]
  code: string
  skipped: string[]
}

interface CheckSlot {
  again: boolean
  via: Via
  path: string
  done: Promise<void>
}

/** Optional replacements for tests: the fs calls and chokidar's `watch`. */
export interface FolderWatcherDeps {
  fs?: Partial<WatchFs>
  watch?: (paths: string, options: ChokidarOptions) => FSWatcher
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

const realFs: WatchFs = {
  stat: (p) => fsp.stat(p),
  access: (p, mode) => fsp.access(p, mode),
  readdir: (p) => fsp.readdir(p, { withFileTypes: true }),
}

const CASE_INSENSITIVE_FS = process.platform === 'win32' || process.platform === 'darwin'

function errorCode(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : 'UNKNOWN'
}

/** Tells a folder from another one later created at the same path. */
function rootIdentity(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.birthtimeMs}`
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}

/** macOS file systems ignore Unicode normalisation; key paths by NFC there so NFD/NFC events match. */
function keyOf(p: string): string {
  if (process.platform !== 'darwin') return p
  const n = p.normalize('NFC')
  return n === p ? p : n
}

/** A duration below this is counted back from start(); at or above, it is an epoch time (ms). */
export const EPOCH_CUTOFF_THRESHOLD_MS = 1e12

/** The mtime cut-off of ignoreOlderThanMs (see FolderWatcherConfig), or undefined for none. */
export function cutoffFor(ignoreOlderThanMs: number | undefined, startedAt: number): number | undefined {
  if (ignoreOlderThanMs === undefined || !Number.isFinite(ignoreOlderThanMs)) return undefined
  return ignoreOlderThanMs >= EPOCH_CUTOFF_THRESHOLD_MS ? ignoreOlderThanMs : startedAt - ignoreOlderThanMs
}

class Limiter {
  private active = 0
  private readonly waiting: Array<() => void> = []
  constructor(private readonly max: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    while (this.active >= this.max) await new Promise<void>((resolve) => this.waiting.push(resolve))
    this.active++
    try {
      return await fn()
    } finally {
      this.active--
      this.waiting.shift()?.()
    }
  }
}

export class FolderWatcher extends EventEmitter<FolderWatcherEvents> {
  readonly id: string
  readonly root: string

  private readonly recursive: boolean
  private readonly acceptedKinds: ReadonlySet<string>
  private readonly stabilityMs: number
  private readonly rescanIntervalMs: number
  private readonly pollIntervalMs: number
  private readonly recoverInitialMs: number
  private readonly recoverMaxMs: number
  private readonly ignoreOlderThanMs: number | undefined
  private readonly excludeDirs: readonly string[]
  private readonly fs: WatchFs
  private readonly createWatcher: (paths: string, options: ChokidarOptions) => FSWatcher
  private readonly limiter = new Limiter(IO_CONCURRENCY)

  // lifecycle
  private active = false
  private starting = false
  /** Bumped by start() and stop(): async work of an older run never emits. */
  private runId = 0
  private startPromise: Promise<void> | undefined
  private stopPromise: Promise<void> | undefined
  private cutoffMs: number | undefined

  // the chokidar part
  private fsw: FSWatcher | undefined
  private readonly readyWaiters = new Map<FSWatcher, () => void>()
  /** Bumped by every watcher transition (lost, polling fallback, restart, recovery). */
  private epoch = 0
  private polling: boolean
  private fallbackMessage: string | undefined
  /** Identity (dev, inode, birth time) of the watched folder when the watcher was opened. */
  private rootId: string | undefined
  private rootCheckQueued = false
  /** The current chokidar watcher watches folders only (native mode). */
  private foldersOnly = false
  private droppingEvents = false

  // health
  private lostMessage: string | undefined
  private lostBecauseGone = false
  private problem: string | undefined
  private recoveryTimer: NodeJS.Timeout | undefined
  private recoveryDelay: number
  private current: WatchStatus

  // files
  private readonly pending = new Map<string, Pending>()
  private readonly emitted = new Map<string, Emitted>()
  private readonly checking = new Map<string, CheckSlot>()

  // scans
  private scanGen = 0
  private scanning = 0
  private scanChain: Promise<void> = Promise.resolve()
  private scanQueued: Promise<void> | undefined
  private rescanTimer: NodeJS.Timeout | undefined
  /** One-off timers (second walk of a new folder); cleared by stop() and when the folder is lost. */
  private readonly laterTimers = new Set<NodeJS.Timeout>()
  /** Walks waiting for room (see SCAN_MAX_PENDING and FolderWatcherConfig.scanGate). */
  private roomWaiters: Array<() => void> = []
  private readonly scanGate: (() => Promise<void> | void) | undefined

  constructor(config: FolderWatcherConfig, deps: FolderWatcherDeps = {}) {
    super()
    this.id = config.id
    this.root = path.resolve(config.path)
    this.recursive = config.recursive
    this.acceptedKinds = new Set(config.acceptedKinds.map((k) => k.toLowerCase().replace(/^\./, '')))
    this.stabilityMs = Math.max(20, config.stabilityMs ?? WATCH_DEFAULTS.stabilityMs)
    this.rescanIntervalMs = Math.max(50, config.rescanIntervalMs ?? WATCH_DEFAULTS.rescanIntervalMs)
    this.pollIntervalMs = Math.max(20, config.pollIntervalMs ?? WATCH_DEFAULTS.pollIntervalMs)
    this.recoverInitialMs = Math.max(10, config.recoverInitialMs ?? WATCH_DEFAULTS.recoverInitialMs)
    this.recoverMaxMs = Math.max(this.recoverInitialMs, config.recoverMaxMs ?? WATCH_DEFAULTS.recoverMaxMs)
    this.ignoreOlderThanMs = config.ignoreOlderThanMs
    this.excludeDirs = (config.excludeDirs ?? []).map((d) => this.foldCase(path.resolve(d)))
    this.polling = config.usePolling
    this.recoveryDelay = this.recoverInitialMs
    this.fs = { ...realFs, ...deps.fs }
    this.createWatcher = deps.watch ?? chokidarWatch
    this.scanGate = config.scanGate
    this.current = { folderId: this.id, state: 'stopped' }
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
    const run = ++this.runId
    this.cutoffMs = cutoffFor(this.ignoreOlderThanMs, Date.now())
    this.startPromise = this.doStart(run).catch((e: unknown) => this.warn('start', e))
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
    if (this.lostMessage) return this.recover(true)
    if (this.scanQueued) return this.scanQueued
    const queued: Promise<void> = this.scanChain.then(async () => {
      if (this.scanQueued === queued) this.scanQueued = undefined
      this.scanning++
      try {
        await this.scanOnce()
        if (this.active && !this.lostMessage) this.safeEmit('scanned', { folderId: this.id })
      } catch (e) {
        this.warn('rescan', e)
      } finally {
        this.scanning--
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
    const stopRun = ++this.runId
    this.epoch++
    clearTimeout(this.rescanTimer)
    clearTimeout(this.recoveryTimer)
    this.rescanTimer = undefined
    this.recoveryTimer = undefined
    this.clearLaterTimers()
    for (const p of this.pending.values()) clearTimeout(p.timer)
    this.pending.clear()
    this.wakeWalks(true)
    this.stopPromise = (async () => {
      await this.closeWatcher()
      // Let an in-flight walk notice the stop and finish, so no fs work outlives stop().
      await this.scanChain.catch(() => undefined)
      await Promise.allSettled([...this.checking.values()].map((c) => c.done))
      if (this.runId !== stopRun) return // started again meanwhile
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
      this.active && (this.starting || this.scanning > 0 || this.pending.size > 0 || this.checking.size > 0)
    )
  }

  /** Test hooks (see FolderWatcherTestHooks). Not for the engine. */
  get testHooks(): FolderWatcherTestHooks {
    return {
      dropEvents: (drop) => {
        this.droppingEvents = drop
      },
      injectWatcherError: (error) => {
        if (this.fsw) this.onWatcherError(this.fsw, error)
      },
      isPolling: () => this.polling,
      counts: () => ({
        pending: this.pending.size,
        emitted: this.emitted.size,
        checking: this.checking.size,
      }),
    }
  }

  // ------------------------------------------------------------------------------------------
  // lifecycle
  // ------------------------------------------------------------------------------------------

  private async doStart(run: number): Promise<void> {
    this.setStatus('starting')
    const probe = await this.probeRoot()
    if (run !== this.runId) return
    if (!probe.ok) {
      this.starting = false
      this.enterLost(probe.code)
      return
    }
    this.rootId = rootIdentity(probe.value)
    const fsw = this.openWatcher()
    await this.waitReady(fsw)
    if (run !== this.runId) return
    await this.rescan()
    if (run !== this.runId) return
    this.starting = false
    this.updateStatus()
    this.scheduleRescan()
  }

  private live(run: number): boolean {
    return this.active && run === this.runId
  }

  /** Creates the chokidar watcher for the current mode and makes it the current one. */
  private openWatcher(): FSWatcher | undefined {
    // Natively, chokidar watches folders only: one fs.watch per folder, none per file (that would
    // cost ~2.7 KB, an inotify watch or, on macOS, a file descriptor per file). A folder's watcher
    // reports its files by name (raw events), which is all we need. Polling watches every file,
    // since a folder's mtime does not change when a file in it is written.
    const foldersOnly = !this.polling
    const options: ChokidarOptions = {
      persistent: true,
      ignoreInitial: true, // the initial scan is ours: one small record per file, no alwaysStat
      followSymlinks: false, // symlink loops can't hang the walk
      usePolling: this.polling,
      interval: this.pollIntervalMs,
      binaryInterval: this.pollIntervalMs,
      depth: this.recursive ? undefined : 0,
      ignored: (p: string, stats?: Stats) =>
        this.isIgnoredPath(p) || (foldersOnly && stats?.isFile() === true),
      ignorePermissionErrors: false,
    }
    let fsw: FSWatcher
    try {
      fsw = this.createWatcher(this.root, options)
    } catch (e) {
      // chokidar reports errors as events; a throw is unexpected, but handled the same way.
      // Until then the periodic rescans keep finding files.
      this.fsw = undefined
      const code = errorCode(e)
      if (msg.FALLBACK_CODES.has(code) && !this.polling) void this.switchToPolling(code)
      else void this.diagnose(code, e)
      return undefined
    }
    this.fsw = fsw
    this.foldersOnly = foldersOnly
    fsw.on('add', (p) => this.onFsEvent(fsw, p, 'add')) // polling; natively only symlinks
    fsw.on('addDir', (p) => this.onAddDir(fsw, p))
    fsw.on('change', (p) => this.onFsEvent(fsw, p, 'change'))
    fsw.on('unlink', (p) => this.onFsEvent(fsw, p, 'unlink'))
    fsw.on('unlinkDir', (p) => this.onUnlinkDir(fsw, p))
    fsw.on('raw', (event, evPath, details) => this.onRawEvent(fsw, event, evPath, details))
    // Always listening: an EventEmitter 'error' without a listener would throw.
    fsw.on('error', (e) => this.onWatcherError(fsw, e))
    return fsw
  }

  /** Resolves on chokidar's `ready`, when the watcher is closed, or after readyTimeoutMs. */
  private waitReady(fsw: FSWatcher | undefined): Promise<void> {
    if (!fsw) return Promise.resolve()
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined = undefined
      const done = (): void => {
        clearTimeout(timer)
        fsw.off('ready', done)
        this.readyWaiters.delete(fsw)
        resolve()
      }
      timer = setTimeout(done, WATCH_DEFAULTS.readyTimeoutMs)
      this.readyWaiters.set(fsw, done)
      fsw.once('ready', done)
    })
  }

  /** Detaches the current chokidar watcher and closes it. */
  private async closeWatcher(): Promise<void> {
    const fsw = this.fsw
    this.fsw = undefined
    if (!fsw) return
    this.readyWaiters.get(fsw)?.()
    try {
      await fsw.close()
    } catch (e) {
      this.warn('chokidar close', e)
    }
  }

  private async probeRoot(): Promise<IoResult<Stats>> {
    const st = await this.io(() => this.fs.stat(this.root))
    if (!st.ok) return st
    if (!st.value.isDirectory()) return { ok: false, code: 'ENOTDIR', message: 'not a directory' }
    const acc = await this.io(() => this.fs.access(this.root, fsConstants.R_OK | fsConstants.X_OK))
    if (!acc.ok) return acc
    return st
  }

  /** The folder is gone, unreadable or unavailable: error status, then recovery checks. */
  private enterLost(code: string, message?: string): void {
    if (!this.active || this.lostMessage) return
    this.lostBecauseGone = GONE_CODES.has(code)
    this.lostMessage =
      message ??
      (code === 'ENOENT'
        ? msg.folderNotFound(this.root)
        : code === 'ENOTDIR'
          ? msg.folderNotAFolder(this.root)
          : msg.PERMISSION_CODES.has(code)
            ? msg.folderDenied(this.root, code)
            : msg.folderUnavailable(this.root, code))
    this.epoch++
    void this.closeWatcher()
    clearTimeout(this.rescanTimer)
    this.rescanTimer = undefined
    this.clearLaterTimers()
    const gone = this.lostBecauseGone
    const pending = [...this.pending.values()]
    this.pending.clear()
    this.wakeWalks(true)
    for (const p of pending) {
      clearTimeout(p.timer)
      if (gone) this.emitVanished(p)
    }
    this.starting = false
    this.updateStatus()
    this.recoveryDelay = this.recoverInitialMs
    this.scheduleRecovery()
  }

  private scheduleRecovery(): void {
    clearTimeout(this.recoveryTimer)
    if (!this.active || !this.lostMessage) return
    const delay = this.recoveryDelay
    this.recoveryDelay = Math.min(this.recoverMaxMs, this.recoveryDelay * 2)
    this.recoveryTimer = setTimeout(() => {
      this.recoveryTimer = undefined
      void this.recover(false)
    }, delay)
  }

  /** Is the folder back? Then a new watcher, a rescan, and normal status again. */
  private async recover(now: boolean): Promise<void> {
    const run = this.runId
    const epoch = this.epoch
    if (now) clearTimeout(this.recoveryTimer)
    const probe = await this.probeRoot()
    if (!this.live(run) || epoch !== this.epoch || !this.lostMessage) return
    if (!probe.ok) {
      if (now) this.recoveryDelay = this.recoverInitialMs
      this.scheduleRecovery()
      return
    }
    this.lostMessage = undefined
    this.lostBecauseGone = false
    this.problem = undefined
    this.recoveryDelay = this.recoverInitialMs
    this.rootId = rootIdentity(probe.value)
    this.epoch++
    const fsw = this.openWatcher()
    await this.waitReady(fsw)
    if (!this.live(run) || this.lostMessage) return
    await this.rescan()
    if (!this.live(run) || this.lostMessage) return
    this.updateStatus()
    this.scheduleRescan()
  }

  /** The folder was replaced under the watcher (same path, new directory): watch it afresh. */
  private async restartWatcher(): Promise<void> {
    const run = this.runId
    if (!this.live(run) || this.lostMessage) return
    const probe = await this.probeRoot()
    if (!this.live(run) || this.lostMessage) return
    if (!probe.ok) {
      this.enterLost(probe.code)
      return
    }
    this.rootId = rootIdentity(probe.value)
    this.epoch++
    await this.closeWatcher()
    if (!this.live(run) || this.lostMessage || this.fsw) return
    const fsw = this.openWatcher()
    await this.waitReady(fsw)
    if (!this.live(run) || this.lostMessage) return
    await this.rescan()
  }

  /** EMFILE/ENFILE/ENOSPC: native watching is out of resources; poll instead (sticky). */
  private async switchToPolling(code: string): Promise<void> {
    if (!this.active || this.polling) return
    const run = this.runId
    this.polling = true
    this.fallbackMessage = msg.switchedToPolling(code)
    this.epoch++
    await this.closeWatcher()
    if (!this.live(run) || this.lostMessage || this.fsw) {
      this.updateStatus()
      return
    }
    const fsw = this.openWatcher()
    this.updateStatus()
    await this.waitReady(fsw)
    if (!this.live(run) || this.lostMessage) return
    await this.rescan() // catch up with what happened while switching
  }

  // ------------------------------------------------------------------------------------------
  // status
  // ------------------------------------------------------------------------------------------

  private updateStatus(): void {
    if (!this.active) return
    if (this.lostMessage) return this.setStatus('error', this.lostMessage)
    if (this.problem) return this.setStatus('error', this.problem)
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
  // chokidar events
  // ------------------------------------------------------------------------------------------

  private onFsEvent(fsw: FSWatcher, p: string, via: Via): void {
    if (fsw !== this.fsw || !this.active || this.droppingEvents || this.lostMessage) return
    const abs = path.resolve(p)
    if (this.isIgnoredPath(abs)) return
    void this.check(abs, via)
  }

  private onAddDir(fsw: FSWatcher, p: string): void {
    if (fsw !== this.fsw || !this.active || this.droppingEvents || this.lostMessage) return
    // When polling, chokidar reports the files of a new folder itself.
    if (!this.foldersOnly || !this.recursive) return
    const abs = path.resolve(p)
    if (abs === this.root || !this.isInside(abs) || this.isIgnoredPath(abs)) return
    this.subtreeAppeared(abs)
  }

  private onUnlinkDir(fsw: FSWatcher, p: string): void {
    if (fsw !== this.fsw || !this.active || this.lostMessage) return
    const abs = path.resolve(p)
    // The watched folder itself went away (or was replaced): lost, or watch the new one.
    if (abs === this.root) void this.restartWatcher()
    else if (this.isInside(abs)) this.subtreeVanished(abs)
  }

  /**
   * fs.watch events as chokidar saw them: `evPath` is a name inside the watched folder
   * `details.watchedPath`. Natively these are our file events (chokidar watches folders only).
   */
  private onRawEvent(fsw: FSWatcher, event: string, evPath: string, details: unknown): void {
    if (fsw !== this.fsw || !this.active || this.lostMessage) return
    const watched = (details as { watchedPath?: unknown } | null)?.watchedPath
    if (typeof watched !== 'string' || typeof evPath !== 'string' || evPath === '') return
    const dir = path.resolve(watched)
    // chokidar emits no unlinkDir when an *empty* watched folder is deleted; this event
    // (the folder's own name, seen by its own watcher) still comes.
    if (
      dir === this.root &&
      event === 'rename' &&
      evPath === path.basename(this.root) &&
      !this.rootCheckQueued
    ) {
      this.rootCheckQueued = true
      void this.checkRoot().finally(() => (this.rootCheckQueued = false))
    }
    if (!this.foldersOnly || this.droppingEvents) return
    const full = path.resolve(dir, evPath)
    if (full === this.root || !this.isInside(full)) return
    if (!this.recursive && path.dirname(full) !== this.root) return
    if (this.isIgnoredPath(full)) return
    // 'rename': the name appeared or went away; 'change': its content or metadata changed.
    void this.check(full, event === 'rename' ? 'add' : 'change')
  }

  /** Is the watched folder still the one we watch? Lost, or replaced (then watch the new one). */
  private async checkRoot(): Promise<void> {
    const run = this.runId
    const probe = await this.probeRoot()
    if (!this.live(run) || this.lostMessage) return
    if (!probe.ok) this.enterLost(probe.code)
    else if (rootIdentity(probe.value) !== this.rootId) await this.restartWatcher()
  }

  private onWatcherError(fsw: FSWatcher, error: unknown): void {
    if (fsw !== this.fsw || !this.active || this.lostMessage) return
    const code = errorCode(error)
    if (msg.FALLBACK_CODES.has(code)) {
      if (!this.polling) void this.switchToPolling(code)
      return
    }
    void this.diagnose(code, error)
  }

  /** A watcher error: is it the folder itself, or a part of it? */
  private async diagnose(code: string, error: unknown): Promise<void> {
    const run = this.runId
    const probe = await this.probeRoot()
    if (!this.live(run) || this.lostMessage) return
    if (!probe.ok) {
      this.enterLost(probe.code)
      return
    }
    const where = (error as { path?: unknown } | null)?.path
    if (msg.PERMISSION_CODES.has(code)) {
      this.problem = msg.subfoldersUnreadable([typeof where === 'string' ? where : this.root], code)
    } else {
      this.problem = msg.watcherProblem(code, errorMessage(error))
    }
    this.updateStatus()
  }

  // ------------------------------------------------------------------------------------------
  // files
  // ------------------------------------------------------------------------------------------

  private foldCase(p: string): string {
    return CASE_INSENSITIVE_FS ? p.toLowerCase() : p
  }

  private isExcluded(abs: string): boolean {
    if (this.excludeDirs.length === 0) return false
    const p = this.foldCase(abs)
    return this.excludeDirs.some((d) => p === d || p.startsWith(d + path.sep))
  }

  private isInside(abs: string): boolean {
    const prefix = this.root.endsWith(path.sep) ? this.root : this.root + path.sep
    return abs.startsWith(prefix)
  }

  /** Ignored below the root: a path with an ignored name in any segment, or inside an excluded dir. */
  private isIgnoredPath(abs: string): boolean {
    if (abs === this.root) return false
    const prefix = this.root.endsWith(path.sep) ? this.root : this.root + path.sep
    if (!abs.startsWith(prefix)) return false
    const rel = abs.slice(prefix.length)
    const parts = rel.split(path.sep)
    for (const part of parts) if (isIgnoredName(part)) return true
    return this.isExcluded(abs)
  }

  private async io<T>(fn: () => Promise<T>): Promise<IoResult<T>> {
    try {
      return { ok: true, value: await this.limiter.run(fn) }
    } catch (e) {
      return { ok: false, code: errorCode(e), message: errorMessage(e) }
    }
  }

  /** Checks one path now; serialised per path (calls meanwhile coalesce into one more check). */
  private check(filePath: string, via: Via): Promise<void> {
    const key = keyOf(filePath)
    const slot = this.checking.get(key)
    if (slot) {
      slot.again = true
      slot.path = filePath
      if (via === 'add' || slot.via === 'sample' || slot.via === 'scan') slot.via = via
      return slot.done
    }
    const arrivedAt = Date.now()
    const fresh: CheckSlot = { again: false, via, path: filePath, done: Promise.resolve() }
    this.checking.set(key, fresh)
    fresh.done = (async () => {
      try {
        const run = this.runId
        do {
          fresh.again = false
          await this.runCheck(key, fresh.path, fresh.via, arrivedAt)
        } while (fresh.again && this.live(run))
      } catch (e) {
        this.warn('check', e)
      } finally {
        this.checking.delete(key)
      }
    })()
    return fresh.done
  }

  private async runCheck(key: string, filePath: string, via: Via, arrivedAt: number): Promise<void> {
    const run = this.runId
    const issuedWall = Date.now()
    const r = await this.io(() => this.fs.stat(filePath))
    if (!this.live(run) || this.lostMessage) return
    const nowMono = performance.now()
    const nowWall = Date.now()

    let stats: Stats | undefined
    let err: string | undefined
    let errMessage: string | undefined
    if (r.ok) {
      if (!r.value.isFile()) return this.forget(key, false) // a folder, a link to one, a fifo…
      stats = r.value
    } else if (GONE_CODES.has(r.code)) {
      return this.forget(key, true)
    } else if (r.code === 'ELOOP') {
      return this.forget(key, false) // a symlink loop is not a file
    } else if (TRANSIENT_CODES.has(r.code)) {
      const p = this.pending.get(key)
      if (p) this.schedule(p, nowMono)
      return
    } else {
      err = r.code // can't stat (EACCES on a parent…): tracked as a state of its own
      errMessage = r.message
    }
    const size = stats ? stats.size : -1
    const mtimeMs = stats ? stats.mtimeMs : -1

    const p = this.pending.get(key)
    if (!p) {
      const em = this.emitted.get(key)
      if (em) {
        em.seen = this.scanGen
        if (em.size === size && em.mtimeMs === mtimeMs) {
          // Already reported. Only an unreadable file that became readable is reported again.
          if (!em.unreadable || err !== undefined) return
          const now = await this.readable(filePath)
          if (!this.live(run) || !now.ok) return
        }
      } else if (this.cutoffMs !== undefined && stats) {
        // "Files already there" are ignored; a file newly moved/copied in has a fresh ctime.
        const age = via === 'add' ? Math.max(stats.mtimeMs, stats.ctimeMs) : stats.mtimeMs
        if (age < this.cutoffMs) return
      }
      // Found by a walk and not written for a while (beyond the slack): that quiet time counts, so
      // an initial scan of old files does not wait a window per file. Not when polling: network
      // shares may report cached attributes.
      let changedAt = nowMono
      if (via === 'scan' && stats && !this.polling) {
        const quiet = nowWall - mtimeMs - MTIME_SLACK_MS
        if (quiet > 0) changedAt = nowMono - Math.min(quiet, this.stabilityMs)
      }
      const fresh: Pending = {
        path: filePath,
        detectedAt: arrivedAt,
        source: via === 'scan' ? 'scan' : 'watcher',
        size,
        mtimeMs,
        err,
        errMessage,
        changedAt,
        lastSampleWall: issuedWall,
        samples: 1,
        timer: undefined,
      }
      this.pending.set(key, fresh)
      this.schedule(fresh, nowMono)
      return
    }

    p.path = filePath
    if (p.size !== size || p.mtimeMs !== mtimeMs || p.err !== err) {
      // Changed since the last sample. It changed after that sample was taken; if the file's
      // mtime falls in between, it says when (a missed event then costs no latency).
      let changedWall = nowWall
      if (err === undefined && mtimeMs >= p.lastSampleWall && mtimeMs <= nowWall) changedWall = mtimeMs
      p.changedAt = nowMono - (nowWall - changedWall)
      p.size = size
      p.mtimeMs = mtimeMs
      p.err = err
      p.errMessage = errMessage
      p.samples = 1
      p.lastSampleWall = issuedWall
      this.schedule(p, nowMono)
      return
    }
    p.samples++
    p.lastSampleWall = issuedWall
    if (p.samples >= 2 && nowMono - p.changedAt >= this.stabilityMs - 1) {
      await this.finish(key, p, run)
      return
    }
    this.schedule(p, nowMono)
  }

  /** Next sample of a pending file: every stabilityMs / 2, and exactly when the window ends. */
  private schedule(p: Pending, nowMono: number): void {
    clearTimeout(p.timer)
    const half = Math.max(10, Math.round(this.stabilityMs / 2))
    const remaining = p.changedAt + this.stabilityMs - nowMono
    const delay = Math.max(1, Math.min(half, Math.ceil(remaining)))
    p.timer = setTimeout(() => {
      p.timer = undefined
      void this.check(p.path, 'sample')
    }, delay)
  }

  /** A stable pending file: check readability, remember the version, emit the candidate. */
  private async finish(key: string, p: Pending, run: number): Promise<void> {
    let unreadable = false
    let unreadableReason: string | undefined
    if (p.err !== undefined) {
      unreadable = true
      unreadableReason = msg.unreadableReason(p.err, p.errMessage ?? p.err)
    } else {
      const r = await this.readable(p.path)
      if (!this.live(run) || this.lostMessage || this.pending.get(key) !== p) return
      if (!r.ok) {
        if (GONE_CODES.has(r.code)) return this.forget(key, true)
        if (TRANSIENT_CODES.has(r.code)) return this.schedule(p, performance.now())
        unreadable = true
        unreadableReason = msg.unreadableReason(r.code, r.message)
      }
    }
    clearTimeout(p.timer)
    this.pending.delete(key)
    this.wakeWalks()
    const em = this.emitted.get(key)
    if (em && em.size === p.size && em.mtimeMs === p.mtimeMs && em.unreadable === unreadable) return
    this.emitted.set(key, { size: p.size, mtimeMs: p.mtimeMs, unreadable, seen: this.scanGen })
    const name = path.basename(p.path)
    const kind = fileKind(name)
    const candidate: WatchCandidate = {
      folderId: this.id,
      path: p.path,
      name,
      size: Math.max(0, p.size),
      mtimeMs: Math.max(0, p.mtimeMs),
      kind,
      accepted: this.acceptedKinds.has(kind),
      detectedAt: p.detectedAt,
      stableAt: Date.now(),
      unreadable,
      source: p.source,
    }
    if (unreadableReason !== undefined) candidate.unreadableReason = unreadableReason
    this.safeEmit('candidate', candidate)
  }

  private readable(filePath: string): Promise<IoResult<void>> {
    return this.io(() => this.fs.access(filePath, fsConstants.R_OK))
  }

  /** The path is gone (or not a file): drop its records; a pending file that was gone vanished. */
  private forget(key: string, gone: boolean): void {
    const p = this.pending.get(key)
    if (p) {
      clearTimeout(p.timer)
      this.pending.delete(key)
      this.wakeWalks()
      if (gone) this.emitVanished(p)
    }
    this.emitted.delete(key)
  }

  private emitVanished(p: Pending): void {
    const name = path.basename(p.path)
    const kind = fileKind(name)
    this.safeEmit('vanished', {
      folderId: this.id,
      path: p.path,
      name,
      kind,
      accepted: this.acceptedKinds.has(kind),
      detectedAt: p.detectedAt,
    })
  }

  // ------------------------------------------------------------------------------------------
  // scans
  // ------------------------------------------------------------------------------------------

  private clearLaterTimers(): void {
    for (const t of this.laterTimers) clearTimeout(t)
    this.laterTimers.clear()
  }

  private scheduleRescan(): void {
    clearTimeout(this.rescanTimer)
    this.rescanTimer = undefined
    if (!this.active || this.lostMessage) return
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
    const run = this.runId
    if (!this.live(run) || this.lostMessage) return
    const gen = ++this.scanGen
    const trouble: WalkTrouble = { dirs: [], code: '', skipped: [] }
    const rootError = await this.walk(this.root, 'scan', run, trouble)
    if (!this.live(run) || this.lostMessage) return
    if (rootError) {
      if (!TRANSIENT_CODES.has(rootError)) this.enterLost(rootError)
      return
    }

    // Was the folder replaced under the watcher (deleted and recreated)? Then watch the new one.
    const rootStat = await this.io(() => this.fs.stat(this.root))
    if (!this.live(run) || this.lostMessage) return
    if (rootStat.ok && this.rootId !== undefined && rootIdentity(rootStat.value) !== this.rootId) {
      void this.restartWatcher()
    }

    // Records of files this walk did not see: drop them once a stat confirms they are gone.
    const notWalked = [...trouble.dirs, ...trouble.skipped]
    const unseen: string[] = []
    for (const [key, em] of this.emitted) {
      if (em.seen === gen || this.pending.has(key)) continue
      if (notWalked.some((d) => key.startsWith(d + path.sep))) continue
      unseen.push(key)
    }
    for (let i = 0; i < unseen.length; i += SCAN_BATCH) {
      const batch = unseen.slice(i, i + SCAN_BATCH)
      await Promise.all(
        batch.map(async (key) => {
          const st = await this.io(() => this.fs.stat(key))
          if (!this.live(run)) return
          if (!st.ok && GONE_CODES.has(st.code) && !this.pending.has(key) && !this.checking.has(key)) {
            this.emitted.delete(key)
          }
        }),
      )
      if (!this.live(run) || this.lostMessage) return
    }

    this.problem = trouble.dirs.length > 0 ? msg.subfoldersUnreadable(trouble.dirs, trouble.code) : undefined
    this.updateStatus()
  }

  /**
   * Walks `start` (and below it when recursive) with readdir, checking every file that is not
   * ignored. Returns the error code when `start` itself can't be read; folders below it that can't
   * be read are listed in `trouble`.
   */
  private async walk(
    start: string,
    via: 'scan' | 'add',
    run: number,
    trouble: WalkTrouble,
  ): Promise<string | undefined> {
    const stack: string[] = [start]
    while (stack.length > 0) {
      const dir = stack.pop() as string
      const r = await this.io(() => this.fs.readdir(dir))
      if (!this.live(run) || this.lostMessage) return undefined
      if (!r.ok) {
        if (dir === start) return r.code
        if (GONE_CODES.has(r.code) || r.code === 'ELOOP') continue
        if (TRANSIENT_CODES.has(r.code)) {
          trouble.skipped.push(dir)
        } else {
          trouble.dirs.push(dir)
          trouble.code = r.code
        }
        continue
      }
      const entries = r.value
      for (let i = 0; i < entries.length; i += SCAN_BATCH) {
        await this.roomToWalk(run)
        if (!this.live(run) || this.lostMessage) return undefined
        const batch = entries.slice(i, i + SCAN_BATCH)
        await Promise.all(batch.map((ent) => this.walkEntry(dir, ent, stack, via)))
        if (!this.live(run) || this.lostMessage) return undefined
      }
    }
    return undefined
  }

  /**
   * Backpressure for walks: waits while SCAN_MAX_PENDING files are pending, then for the
   * consumer's scanGate. Live events are never held back; only walks wait.
   */
  private async roomToWalk(run: number): Promise<void> {
    while (this.live(run) && !this.lostMessage && this.pending.size >= SCAN_MAX_PENDING) {
      await new Promise<void>((resolve) => this.roomWaiters.push(resolve))
    }
    if (this.live(run) && !this.lostMessage) await this.scanGate?.()
  }

  /** Lets waiting walks go on once the pending set is down to three quarters (or at once: `all`). */
  private wakeWalks(all = false): void {
    if (this.roomWaiters.length === 0) return
    if (!all && this.pending.size > (SCAN_MAX_PENDING * 3) / 4) return
    const waiters = this.roomWaiters
    this.roomWaiters = []
    for (const w of waiters) w()
  }

  private async walkEntry(dir: string, ent: Dirent, stack: string[], via: 'scan' | 'add'): Promise<void> {
    const name = ent.name
    if (isIgnoredName(name)) return
    const full = path.join(dir, name)
    if (ent.isDirectory()) {
      if (this.recursive && !this.isExcluded(full)) stack.push(full)
      return
    }
    // Symlinks: a link to a file is checked (stat follows it); a link to a folder is never entered.
    if (ent.isFile() || ent.isSymbolicLink()) await this.check(full, via)
  }

  /**
   * A folder appeared below the root (created, moved or renamed in). chokidar only watches folders
   * here, so the files already in it are found by walking it: now, and once more shortly after, for
   * files written between chokidar reading the folder and its watch being in place.
   */
  private subtreeAppeared(dir: string): void {
    const run = this.runId
    const walkIt = async (): Promise<void> => {
      if (!this.live(run) || this.lostMessage) return
      this.scanning++
      try {
        await this.walk(dir, 'add', run, { dirs: [], code: '', skipped: [] })
      } finally {
        this.scanning--
      }
    }
    void walkIt().catch((e: unknown) => this.warn('walking a new folder', e))
    const timer = setTimeout(
      () => {
        this.laterTimers.delete(timer)
        void walkIt().catch((e: unknown) => this.warn('walking a new folder', e))
      },
      Math.max(100, this.stabilityMs),
    )
    this.laterTimers.add(timer)
  }

  /** A folder below the root went away (deleted, moved out): check what we know inside it. */
  private subtreeVanished(dir: string): void {
    const prefix = dir + path.sep
    const keys = new Set<string>()
    for (const [key, p] of this.pending) if (p.path.startsWith(prefix)) keys.add(key)
    for (const key of this.emitted.keys()) if (key.startsWith(prefix)) keys.add(key)
    for (const key of keys) void this.check(this.pending.get(key)?.path ?? key, 'unlink')
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

  private warn(where: string, e: unknown): void {
    process.emitWarning(`Bookdrop folder watcher ${this.id}: ${where} failed: ${errorMessage(e)}`, {
      code: 'BOOKDROP_WATCH',
    })
  }
}
