/**
 * FolderWatcher: one per watched folder. Turns chokidar events and periodic rescans into "stable
 * file candidates" for the ingest engine (design.md §2: detected → stable → hashed → queued …).
 *
 * This file is the lifecycle; the work is done by its parts:
 * - `root-health.ts`: is the folder there and readable; the message when it is lost; recovery
 *   checks with backoff; telling a folder created again at the same path from the one watched.
 * - `chokidar-source.ts`: the chokidar watcher (folders only natively, every file when polling);
 *   `watch-events.ts`: what its events start (checks, walks of a new folder, diagnoses).
 * - `stability.ts`: per-file stability sampling; a stable file is emitted once as a `candidate`, a
 *   pending file that disappears as `vanished`.
 * - `walker.ts`: walks with backpressure (the initial scan, rescans, a folder that appears);
 *   `rescans.ts`: the scans, one at a time, and the jittered periodic rescan.
 * - `watch-options.ts`: defaults, timings from the config, the shared writer probe.
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
import type { WatcherLike } from './native-folders'
import { type InspectFn, inspect as inspectInProcess } from '../intake/inspect'
import { ChokidarSource } from './chokidar-source'
import { WatchIo, errorCode, errorMessage, realFs } from './io'
import type { Coded } from '../../../contract/message'
import * as msg from './messages'
import { FolderPaths } from './paths'
import { RootHealth } from './root-health'
import { StabilitySampler } from './stability'
import type { FolderWatcherConfig, FolderWatcherEvents, WatchState, WatchStatus } from './types'
import { FolderWalker } from './walker'
import { Rescans } from './rescans'
import { realPathOf } from './inside'
import { WatchEvents } from './watch-events'
import {
  type FolderWatcherDeps,
  type FolderWatcherTestHooks,
  cutoffFor,
  defaultWriters,
  watchTimings,
} from './watch-options'

export { WATCH_DEFAULTS, EPOCH_CUTOFF_THRESHOLD_MS, cutoffFor } from './watch-options'
export type { FolderWatcherDeps, FolderWatcherTestHooks } from './watch-options'

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
  private readonly pollIntervalMs: number
  private readonly ignoreOlderThanMs: number | undefined
  private readonly io: WatchIo
  private readonly paths: FolderPaths
  private readonly health: RootHealth
  private readonly source: ChokidarSource
  private readonly sampler: StabilitySampler
  private readonly walker: FolderWalker
  private readonly events: WatchEvents
  private readonly scans: Rescans

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
  private fallbackMessage: Coded | undefined
  private current: WatchStatus

  constructor(config: FolderWatcherConfig, deps: FolderWatcherDeps = {}) {
    super()
    this.id = config.id
    this.root = path.resolve(config.path)
    this.recursive = config.recursive
    const t = watchTimings(config)
    this.pollIntervalMs = t.pollIntervalMs
    this.ignoreOlderThanMs = config.ignoreOlderThanMs
    this.realRoot = this.root
    const inspect: InspectFn = config.inspect ?? inspectInProcess
    const writers = config.writers ?? defaultWriters()
    this.polling = config.usePolling
    this.io = new WatchIo({ ...realFs, ...deps.fs })
    this.paths = new FolderPaths(this.root, config.excludeDirs ?? [])
    this.current = { folderId: this.id, state: 'stopped' }

    this.health = new RootHealth({
      root: this.root,
      io: this.io,
      recoverInitialMs: t.recoverInitialMs,
      recoverMaxMs: t.recoverMaxMs,
      active: () => this.active,
      lost: (gone) => this.folderLost(gone),
      back: () => this.folderBack(),
    })
    this.sampler = new StabilitySampler({
      folderId: this.id,
      stabilityMs: t.stabilityMs,
      unfinishedQuietMs: t.unfinishedQuietMs,
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
    this.events = new WatchEvents({
      recursive: this.recursive,
      stabilityMs: t.stabilityMs,
      paths: this.paths,
      sampler: this.sampler,
      walker: this.walker,
      realRoot: () => this.realRoot,
      session: () => this.session.signal,
      foldersOnly: () => this.source.foldersOnly,
      polling: () => this.polling,
      rescan: () => this.rescan(),
      restartWatcher: () => this.restartWatcher(),
      checkRoot: () => this.checkRoot(),
      switchToPolling: (code) => this.switchToPolling(code),
      diagnose: (code, error) => this.diagnose(code, error),
      warn: this.warn,
    })
    this.source = new ChokidarSource(this.root, deps.watch ?? null, this.events.handlers)
    this.scans = new Rescans({
      rescanIntervalMs: t.rescanIntervalMs,
      io: this.io,
      health: this.health,
      sampler: this.sampler,
      walker: this.walker,
      active: () => this.active,
      realRoot: () => this.realRoot,
      session: () => this.session.signal,
      rescan: () => this.rescan(),
      restartWatcher: () => this.restartWatcher(),
      updateStatus: () => this.updateStatus(),
      scanned: () => this.safeEmit('scanned', { folderId: this.id }),
      warn: this.warn,
    })
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
    return this.scans.run()
  }

  /** Stops: closes the watcher, clears every timer; no event is emitted after it resolves. */
  stop(): Promise<void> {
    if (this.stopPromise) return this.stopPromise
    if (!this.active) return Promise.resolve()
    this.active = false
    this.starting = false
    this.run.abort()
    this.session.abort()
    this.scans.cancel()
    this.health.stop()
    this.sampler.dropPending(false)
    this.stopPromise = (async () => {
      await this.source.close(this.warn)
      // Let an in-flight walk notice the stop and finish, so no fs work outlives stop().
      await this.scans.settled()
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
      (this.starting || this.scans.running > 0 || this.walker.walking > 0 || this.sampler.busy())
    )
  }

  /** Test hooks (see FolderWatcherTestHooks). Not for the engine. */
  get testHooks(): FolderWatcherTestHooks {
    return {
      dropEvents: (drop) => {
        this.events.dropping = drop
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
    await this.source.prepare(this.polling)
    if (run.aborted) return
    this.session = controller()
    await this.source.ready(this.openWatcher())
    if (run.aborted) return
    await this.rescan()
    if (run.aborted) return
    this.starting = false
    this.updateStatus()
    this.scans.schedule()
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

  /** Opens the watcher for the current mode; a throw is handled as its error event would be. */
  private openWatcher(): WatcherLike | undefined {
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

  /** RootHealth found the folder lost: end the session, close the watcher, drop pending files. */
  private folderLost(gone: boolean): void {
    this.session.abort()
    void this.source.close(this.warn)
    this.scans.cancel()
    this.sampler.dropPending(gone)
    this.starting = false
    this.updateStatus()
  }

  /** RootHealth found the folder back: a new session, a new watcher, a rescan. */
  private async folderBack(): Promise<void> {
    this.session = controller()
    const session = this.session.signal
    await this.resolveRoot()
    await this.source.prepare(this.polling)
    if (session.aborted) return
    await this.source.ready(this.openWatcher())
    if (session.aborted) return
    await this.rescan()
    if (session.aborted) return
    this.updateStatus()
    this.scans.schedule()
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
    await this.source.prepare(this.polling)
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
    await this.source.prepare(true)
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

  private setStatus(state: WatchState, message?: Coded, force = false): void {
    if (!this.active && !force) return
    if (this.current.state === state && this.current.message === message?.text) return
    this.current =
      message === undefined
        ? { folderId: this.id, state }
        : { folderId: this.id, state, message: message.text, messageCoded: message }
    this.safeEmit('status', { ...this.current })
  }

  // ------------------------------------------------------------------------------------------
  // the folder itself (chokidar's events are handled in watch-events.ts)
  // ------------------------------------------------------------------------------------------

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
