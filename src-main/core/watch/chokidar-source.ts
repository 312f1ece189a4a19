/**
 * The chokidar part of a watcher: opens one chokidar watcher at a time, routes its events to the
 * watcher (events of a watcher that is no longer the current one are dropped), waits for `ready`,
 * closes it.
 *
 * Natively, folders only are watched, one fs.watch each, by ./native-folders.ts (which speaks
 * chokidar's events): each folder's fs.watch reports its files by name (`raw` events), which start
 * the checks; `addDir` walks a folder that appears. One watcher per folder instead of one per file
 * (~2.7 KB, an inotify watch or, on macOS, a file descriptor each), and no re-read of the folder per
 * event (chokidar's, which stats every entry: see native-folders.ts). When polling, chokidar watches
 * every file (a folder's mtime doesn't change when a file in it is written) and its
 * `add`/`change`/`unlink` events start the checks. chokidar runs with `ignoreInitial` and without
 * `alwaysStat`: the initial scan is the watcher's own walk.
 */
import type { ChokidarOptions, FSWatcher } from 'chokidar'
import { NativeFolders, type WatcherLike } from './native-folders'

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
  private fsw: WatcherLike | undefined
  private readonly readyWaiters = new Map<WatcherLike, () => void>()
  /** The current watcher watches folders only (native mode). */
  foldersOnly = false

  constructor(
    /** The folder watched (its real path: chokidar follows no link, the watched folder's included). */
    public root: string,
    /** Makes the polling watcher (tests give their own); null: chokidar's, loaded by `prepare`. */
    private create: CreateWatcher | null,
    private readonly events: ChokidarEvents,
  ) {}

  /**
   * Loads what `start` needs for the mode: chokidar, only when polling (native folders need none
   * of it, and an engine that never polls never loads it: about half a MB of the idle process).
   */
  async prepare(polling: boolean): Promise<void> {
    if (polling && !this.create) this.create = (await import('chokidar')).watch
  }

  /** A watcher is open. */
  get open(): boolean {
    return this.fsw !== undefined
  }

  /**
   * Opens a watcher for the mode (native folders, or chokidar polling) and makes it the current one
   * (the caller has closed the previous one, and awaited `prepare`). Throws what chokidar throws;
   * errors are normally reported as events.
   */
  start(o: OpenOptions): WatcherLike {
    this.fsw = undefined
    if (o.polling && !this.create) throw new Error('internal: polling watcher started before prepare()')
    const fsw: WatcherLike = o.polling
      ? this.create!(this.root, {
          persistent: true,
          ignoreInitial: true, // the initial scan is ours: one small record per file, no alwaysStat
          followSymlinks: false, // symlink loops can't hang the walk
          usePolling: true,
          interval: o.pollIntervalMs,
          binaryInterval: o.pollIntervalMs,
          depth: o.recursive ? undefined : 0,
          ignored: (p: string) => o.isIgnored(p),
          ignorePermissionErrors: false,
        })
      : new NativeFolders(this.root, { recursive: o.recursive, isIgnored: o.isIgnored })
    this.fsw = fsw
    this.foldersOnly = !o.polling
    const mine = (): boolean => fsw === this.fsw
    fsw.on('add', (p: string) => mine() && this.events.file(p, 'add')) // polling only
    fsw.on('addDir', (p: string) => mine() && this.events.dirAdded(p))
    fsw.on('change', (p: string) => mine() && this.events.file(p, 'change'))
    fsw.on('unlink', (p: string) => mine() && this.events.file(p, 'unlink'))
    fsw.on('unlinkDir', (p: string) => mine() && this.events.dirRemoved(p))
    fsw.on('raw', (event: string, evPath: string, details: unknown) => mine() && this.events.raw(event, evPath, details))
    // Always listening: an EventEmitter 'error' without a listener would throw.
    fsw.on('error', (e: unknown) => mine() && this.events.error(e))
    return fsw
  }

  /** Resolves on the watcher's `ready`, when it is closed, or after READY_TIMEOUT_MS. */
  ready(fsw: WatcherLike | undefined): Promise<void> {
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
