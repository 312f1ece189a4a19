/**
 * The native watcher of a folder tree: one `fs.watch` per folder, as chokidar places them when it
 * watches folders only, without what chokidar adds on top of them. chokidar answers each event of
 * a folder by reading the whole folder again and `lstat`-ing every entry (its readdirp runs with
 * `alwaysStat`, at most once a second): a folder that keeps its receipts grows by 20 files a second
 * in the soak and, past a few thousand files, the engine spends its time stat-ing them and falls
 * behind (issue 30's soak: memory in steps, faster near the end). Here an event costs one `lstat`
 * of the name it reports, and only for a `rename` (a name that appeared or went away), to learn
 * whether a folder came or went.
 *
 * It speaks chokidar's events, so chokidar-source.ts routes both the same way: `raw` (event, name,
 * { watchedPath }) for every fs.watch event, `addDir` / `unlinkDir` for folders below the root,
 * `error` (the root's watcher failed, or the system's watch limit: ENOSPC, EMFILE → polling), and
 * `ready` once the tree is watched. chokidar still watches when polling (network shares).
 *
 * Links are not followed (a folder link is not descended), ignored folders are not watched, and a
 * folder whose name is not UTF-8 cannot be named to fs.watch: the periodic rescans find its files.
 */
import { EventEmitter } from 'node:events'
import { type FSWatcher as NodeWatcher, watch as fsWatch } from 'node:fs'
import { lstat, readdir } from 'node:fs/promises'
import path from 'node:path'
import { FALLBACK_CODES } from './messages'

export interface NativeFoldersOptions {
  /** Folders below the root are watched too. */
  recursive: boolean
  isIgnored(path: string): boolean
}

/** What chokidar-source.ts needs of a watcher, chokidar's or this one: its events, and close. */
export type WatcherLike = Pick<EventEmitter, 'on' | 'once' | 'off'> & { close(): Promise<void> }

function codeOf(e: unknown): string {
  return (e as NodeJS.ErrnoException | null)?.code ?? ''
}

export class NativeFolders extends EventEmitter implements WatcherLike {
  private readonly watchers = new Map<string, NodeWatcher>()
  /** The inode of each folder below the root when it was watched: a folder of the same name made again is another. */
  private readonly inodes = new Map<string, number>()
  private closed = false

  constructor(
    private readonly root: string,
    private readonly o: NativeFoldersOptions,
  ) {
    super()
    // Always listening, as chokidar-source.ts does on chokidar: an 'error' without a listener throws.
    this.on('error', () => undefined)
    void this.start()
  }

  private async start(): Promise<void> {
    // Its events are listened to once the constructor returned (chokidar's come later too).
    await new Promise((r) => setImmediate(r))
    // Ready even when the folder could not be watched (as chokidar is): its error said why.
    if (this.watchFolder(this.root, true) && this.o.recursive) await this.watchBelow(this.root)
    if (!this.closed) this.emit('ready')
  }

  /** Watches `dir`; false when it could not be (an error was reported for the root). */
  private watchFolder(dir: string, isRoot: boolean, ino?: number): boolean {
    if (this.closed || this.watchers.has(dir)) return !this.closed
    let w: NodeWatcher
    try {
      w = fsWatch(dir, { persistent: true })
    } catch (e) {
      // The root must be watched (its error decides: polling, or the folder is missing); a folder
      // below that cannot be is left to the rescans, unless the system ran out of watches.
      if (isRoot || FALLBACK_CODES.has(codeOf(e))) this.emit('error', e)
      return false
    }
    this.watchers.set(dir, w)
    if (ino !== undefined) this.inodes.set(dir, ino)
    w.on('change', (event, name) => this.onEvent(dir, event, name))
    w.on('error', (e) => {
      this.unwatch(dir)
      if (isRoot || FALLBACK_CODES.has(codeOf(e))) this.emit('error', e)
    })
    return true
  }

  /** Watches every folder below `dir` (its entries' types from readdir: no stat per file). */
  private async watchBelow(dir: string): Promise<void> {
    let entries
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch {
      return // gone or unreadable: the rescans report what is readable
    }
    for (const e of entries) {
      if (this.closed) return
      const full = path.join(dir, e.name)
      // Folders only (some file systems give no type: asked then), never through a link.
      if (e.isFile() || e.isSymbolicLink() || full.includes('\uFFFD') || this.o.isIgnored(full)) continue
      const st = await lstat(full).catch(() => null)
      if (!st?.isDirectory()) continue
      if (this.watchFolder(full, false, st.ino)) await this.watchBelow(full)
    }
  }

  private onEvent(dir: string, event: string, name: string | Buffer | null): void {
    if (this.closed) return
    const evPath = typeof name === 'string' ? name : (name?.toString('utf8') ?? '')
    this.emit('raw', event, evPath, { watchedPath: dir })
    // A name that appeared or went away below the root: a folder that came or went?
    if (!this.o.recursive || event !== 'rename' || evPath === '') return
    const full = path.join(dir, evPath)
    if (full === this.root || evPath.includes('\uFFFD') || this.o.isIgnored(full)) return
    void lstat(full).then(
      (s) => {
        if (this.closed) return
        if (!s.isDirectory()) {
          // A folder replaced by a file (or a link) of its name: the folder went.
          if (this.watchers.has(full)) this.gone(full)
          return
        }
        if (this.watchers.has(full)) {
          if (this.inodes.get(full) === s.ino) return
          this.gone(full) // deleted and made again: the old watch saw the old folder
        }
        if (!this.watchFolder(full, false, s.ino)) return
        // Its files are walked by the engine (dirAdded); folders inside it are watched first.
        void this.watchBelow(full).then(() => !this.closed && this.emit('addDir', full))
      },
      () => {
        if (!this.closed && this.watchers.has(full)) this.gone(full)
      },
    )
  }

  /** A watched folder below the root went away. */
  private gone(dir: string): void {
    this.unwatch(dir)
    this.emit('unlinkDir', dir)
  }

  /** Stops watching `dir` and every folder below it. */
  private unwatch(dir: string): void {
    const below = dir + path.sep
    for (const [d, w] of this.watchers) {
      if (d !== dir && !d.startsWith(below)) continue
      w.close()
      this.watchers.delete(d)
      this.inodes.delete(d)
    }
  }

  /** Folders watched now (tests and figures). */
  get folders(): number {
    return this.watchers.size
  }

  close(): Promise<void> {
    this.closed = true
    for (const w of this.watchers.values()) w.close()
    this.watchers.clear()
    this.inodes.clear()
    return Promise.resolve()
  }
}
