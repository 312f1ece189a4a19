/**
 * The chokidar part of a watcher: opens one chokidar watcher at a time, routes its events to the
 * watcher (events of a watcher that is no longer the current one are dropped), waits for `ready`,
 * closes it.
 *
 * Natively, chokidar watches folders only (files are in its `ignored`): each folder's fs.watch
 * reports its files by name (chokidar `raw` events), which start the checks; `addDir` walks a folder
 * that appears. That keeps chokidar at one watcher per folder instead of one per file (~2.7 KB, an
 * inotify watch or, on macOS, a file descriptor each). When polling, chokidar watches every file (a
 * folder's mtime doesn't change when a file in it is written) and its `add`/`change`/`unlink` events
 * start the checks. chokidar runs with `ignoreInitial` and without `alwaysStat`: the initial scan is
 * the watcher's own walk.
 */
import type { Stats } from 'node:fs'
import type { ChokidarOptions, FSWatcher } from 'chokidar'

/** If chokidar never says `ready` (a hung network share), carry on after this long. */
export const READY_TIMEOUT_MS = 30_000

export type CreateWatcher = (paths: string, options: ChokidarOptions) => FSWatcher

/** Where the current watcher's events go. */
export interface ChokidarEvents {
  file(path: string, via: 'add' | 'change' | 'unlink'): void
  dirAdded(path: string): void
  dirRemoved(path: string): void
  raw(event: string, evPath: string, details: unknown): void
  error(error: unknown): void
}

export interface OpenOptions {
  polling: boolean
  pollIntervalMs: number
  recursive: boolean
  /** Paths never watched (ignored names, excluded folders). */
  isIgnored(path: string): boolean
}

export class ChokidarSource {
  private fsw: FSWatcher | undefined
  private readonly readyWaiters = new Map<FSWatcher, () => void>()
  /** The current watcher watches folders only (native mode). */
  foldersOnly = false

  constructor(
    /** The folder watched (its real path: chokidar follows no link, the watched folder's included). */
    public root: string,
    private readonly create: CreateWatcher,
    private readonly events: ChokidarEvents,
  ) {}

  /** A watcher is open. */
  get open(): boolean {
    return this.fsw !== undefined
  }

  /**
   * Opens a chokidar watcher for the mode and makes it the current one (the caller has closed the
   * previous one). Throws what chokidar throws; chokidar normally reports errors as events.
   */
  start(o: OpenOptions): FSWatcher {
    const foldersOnly = !o.polling
    const options: ChokidarOptions = {
      persistent: true,
      ignoreInitial: true, // the initial scan is ours: one small record per file, no alwaysStat
      followSymlinks: false, // symlink loops can't hang the walk
      usePolling: o.polling,
      interval: o.pollIntervalMs,
      binaryInterval: o.pollIntervalMs,
      depth: o.recursive ? undefined : 0,
      ignored: (p: string, stats?: Stats) => o.isIgnored(p) || (foldersOnly && stats?.isFile() === true),
      ignorePermissionErrors: false,
    }
    this.fsw = undefined
    const fsw = this.create(this.root, options)
    this.fsw = fsw
    this.foldersOnly = foldersOnly
    const mine = (): boolean => fsw === this.fsw
    fsw.on('add', (p) => mine() && this.events.file(p, 'add')) // polling; natively only symlinks
    fsw.on('addDir', (p) => mine() && this.events.dirAdded(p))
    fsw.on('change', (p) => mine() && this.events.file(p, 'change'))
    fsw.on('unlink', (p) => mine() && this.events.file(p, 'unlink'))
    fsw.on('unlinkDir', (p) => mine() && this.events.dirRemoved(p))
    fsw.on('raw', (event, evPath, details) => mine() && this.events.raw(event, evPath, details))
    // Always listening: an EventEmitter 'error' without a listener would throw.
    fsw.on('error', (e) => mine() && this.events.error(e))
    return fsw
  }

  /** Resolves on chokidar's `ready`, when the watcher is closed, or after READY_TIMEOUT_MS. */
  ready(fsw: FSWatcher | undefined): Promise<void> {
    if (!fsw) return Promise.resolve()
    return new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined = undefined
      const done = (): void => {
        clearTimeout(timer)
        fsw.off('ready', done)
        this.readyWaiters.delete(fsw)
        resolve()
      }
      timer = setTimeout(done, READY_TIMEOUT_MS)
      this.readyWaiters.set(fsw, done)
      fsw.once('ready', done)
    })
  }

  /** Detaches the current watcher and closes it; `warn` hears a failed close. */
  async close(warn: (where: string, e: unknown) => void): Promise<void> {
    const fsw = this.fsw
    this.fsw = undefined
    if (!fsw) return
    this.readyWaiters.get(fsw)?.()
    try {
      await fsw.close()
    } catch (e) {
      warn('chokidar close', e)
    }
  }

  /** Feeds an error to the current watcher's error handler, as chokidar would (tests). */
  injectError(error: Error): void {
    if (this.fsw) this.events.error(error)
  }
}
