/**
 * What the watcher does with chokidar's events (only those of the current watcher arrive here): a
 * file's event starts a stability check, a folder that appears is walked, a folder that goes away
 * has what was known inside it checked again, a name fs.watch could not decode has its folder read
 * as bytes, and an error goes to the watcher (polling, or a diagnosis). Events are hints: the
 * rescans behind them find whatever they miss.
 *
 * Every walk belongs to the watch session current when it began (FolderWatcher's AbortController):
 * it takes the session's signal and ends with it.
 */
import path from 'node:path'
import type { ChokidarEvents } from './chokidar-source'
import { errorCode } from './io'
import * as msg from './messages'
import type { FolderPaths } from './paths'
import type { StabilitySampler } from './stability'
import { type FolderWalker, noTrouble } from './walker'

/** What the events need from their watcher. */
export interface WatchEventsHost {
  readonly recursive: boolean
  readonly stabilityMs: number
  readonly paths: FolderPaths
  readonly sampler: StabilitySampler
  readonly walker: FolderWalker
  /** The real path of the watched folder. */
  realRoot(): string
  /** The current watch session's signal: aborted on stop() and while the folder is lost. */
  session(): AbortSignal
  /** True while chokidar watches folders only (natively; not when polling). */
  foldersOnly(): boolean
  polling(): boolean
  rescan(): Promise<void>
  /** The watched folder itself went away or was replaced. */
  restartWatcher(): Promise<void>
  /** Is the watched folder still the one watched? */
  checkRoot(): Promise<void>
  switchToPolling(code: string): Promise<void>
  diagnose(code: string, error: unknown): Promise<void>
  warn(where: string, e: unknown): void
}

export class WatchEvents {
  /** While true, chokidar events are dropped (a test hook: as if the OS never delivered them). */
  dropping = false
  private rootCheckQueued = false
  /** Folders being read as bytes for a name fs.watch could not decode (one read each at a time). */
  private readonly lossyDirs = new Set<string>()

  constructor(private readonly host: WatchEventsHost) {}

  /** The folder is watched now (started, not lost). */
  private watching(): boolean {
    return !this.host.session().aborted
  }

  /** The handlers given to chokidar (ChokidarSource). */
  readonly handlers: ChokidarEvents = {
    file: (p, via) => {
      if (!this.watching() || this.dropping) return
      const abs = path.resolve(p)
      if (this.host.paths.isIgnored(abs)) return
      if (abs.includes('\uFFFD')) return this.lossyName(path.dirname(abs))
      void this.host.sampler.check(abs, via)
    },
    dirAdded: (p) => {
      if (!this.watching() || this.dropping) return
      // When polling, chokidar reports the files of a new folder itself.
      if (!this.host.foldersOnly() || !this.host.recursive) return
      const abs = path.resolve(p)
      if (abs === this.host.realRoot() || !this.host.paths.isInside(abs) || this.host.paths.isIgnored(abs))
        return
      // A folder whose name is not UTF-8: only a walk (which reads names as bytes) finds what is in
      // it; files added there later are found by the periodic rescans.
      if (abs.includes('\uFFFD')) return void this.host.rescan()
      this.subtreeAppeared(abs)
    },
    dirRemoved: (p) => {
      if (!this.watching()) return
      const abs = path.resolve(p)
      // The watched folder itself went away (or was replaced): lost, or watch the new one.
      if (abs === this.host.realRoot()) void this.host.restartWatcher()
      else if (this.host.paths.isInside(abs)) this.host.sampler.subtreeVanished(abs)
    },
    raw: (event, evPath, details) => this.onRawEvent(event, evPath, details),
    error: (error) => {
      if (!this.watching()) return
      const code = errorCode(error)
      if (!msg.FALLBACK_CODES.has(code)) void this.host.diagnose(code, error)
      else if (!this.host.polling()) void this.host.switchToPolling(code)
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
    const realRoot = this.host.realRoot()
    // chokidar emits no unlinkDir when an *empty* watched folder is deleted; this event
    // (the folder's own name, seen by its own watcher) still comes.
    if (
      dir === realRoot &&
      event === 'rename' &&
      evPath === path.basename(realRoot) &&
      !this.rootCheckQueued
    ) {
      this.rootCheckQueued = true
      void this.host.checkRoot().finally(() => (this.rootCheckQueued = false))
    }
    if (!this.host.foldersOnly() || this.dropping) return
    const full = path.resolve(dir, evPath)
    if (full === realRoot || !this.host.paths.isInside(full)) return
    if (!this.host.recursive && path.dirname(full) !== realRoot) return
    if (this.host.paths.isIgnored(full)) return
    // fs.watch decodes names as UTF-8 and could not here: read the folder as bytes instead.
    if (evPath.includes('\uFFFD')) return this.lossyName(path.dirname(full))
    // 'rename': the name appeared or went away; 'change': its content or metadata changed.
    void this.host.sampler.check(full, event === 'rename' ? 'add' : 'change')
  }

  /**
   * An event named a file fs.watch could not decode (bytes that are not UTF-8): the folder is read
   * as bytes to find its real name (once per folder at a time).
   */
  private lossyName(dir: string): void {
    if (this.lossyDirs.has(dir) || !this.host.paths.isInside(dir + path.sep)) return
    const session = this.host.session()
    this.lossyDirs.add(dir)
    void this.host.walker
      .walk(dir, 'add', session, noTrouble(), true)
      .catch((e: unknown) => this.host.warn('reading a folder as bytes', e))
      .finally(() => this.lossyDirs.delete(dir))
  }

  /**
   * A folder appeared below the root (created, moved or renamed in). chokidar only watches folders
   * here, so the files already in it are found by walking it: now, and once more shortly after, for
   * files written between chokidar reading the folder and its watch being in place.
   */
  private subtreeAppeared(dir: string): void {
    const session = this.host.session()
    const walkIt = (): void => {
      if (session.aborted) return
      this.host.walker
        .walk(dir, 'add', session, noTrouble())
        .catch((e: unknown) => this.host.warn('walking a new folder', e))
    }
    walkIt()
    const cancel = (): void => clearTimeout(timer)
    const timer = setTimeout(
      () => {
        session.removeEventListener('abort', cancel)
        walkIt()
      },
      Math.max(100, this.host.stabilityMs),
    )
    session.addEventListener('abort', cancel, { once: true })
  }
}
