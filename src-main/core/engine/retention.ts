/**
 * How long Bookdrop keeps its local copies of receipts (issue 31): prepared photos (`prepared/`),
 * mail attachments (`mail/`), what phones sent (`phone/`) and dropped files (`dropped/`). A copy is
 * kept while a row that refers to it is still on its way, and once that row has ended for the
 * retention the person sets ("Keep local copies for N days", 30 by default; 0: deleted once the
 * record exists). `keepsLocalCopy` is that rule, in one place. A copy no row refers to (a photo
 * prepared and then skipped, a download the app stopped in the middle of) is swept at start,
 * before mail and phones run again; the retention sweeps every hour; "Free space" (Settings) deletes
 * every copy no unfinished row needs.
 */
import { lstat, readdir, rm, rmdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { DataFolderView } from '../../../contract/calls/data-folder'
import type { CopyRef, UploadStore } from '../store/uploads'

/** Bookdrop's folders of local copies, in its data folder. */
export const COPY_DIRS = ['prepared', 'mail', 'phone', 'dropped'] as const
export type CopyDir = (typeof COPY_DIRS)[number]

/** "Keep local copies for N days" unless the person set it. */
export const DEFAULT_KEEP_COPIES_DAYS = 30
/** How often the retention runs while the app is open. */
export const SWEEP_EVERY_MS = 60 * 60_000
const DAY_MS = 24 * 60 * 60_000

/**
 * THE rule: does this row still need its local copy (prepared photo or original) at `now`, when
 * ended rows keep theirs for `keepMs`? A row still on its way (queued, uploading, waiting, processing,
 * or any status a later issue adds that is not an end) keeps it; an ended row keeps it for `keepMs`
 * after it ended (a completed row: after its record existed). Issue 31 leaves "until reviewed" to the
 * review screen: it goes here.
 */
export function keepsLocalCopy(row: Pick<CopyRef, 'status' | 'completedAt' | 'updatedAt'>, now: number, keepMs: number): boolean {
  if (!ENDED.has(row.status)) return true
  const endedAt = row.status === 'completed' ? (row.completedAt ?? row.updatedAt) : row.updatedAt
  return now - endedAt < keepMs
}
/**
 * The statuses a row ends in (any other status is on its way, and keeps its copy). A possible
 * duplicate held for a person (issue 33) keeps its copy until Send anyway or Discard.
 */
const ENDED: ReadonlySet<string> = new Set(['completed', 'failed', 'duplicate', 'skipped', 'cancelled', 'superseded', 'discarded'])

/** What a sweep deleted. */
export interface Freed {
  files: number
  bytes: number
}

export interface SweepOptions {
  /** Ended rows keep their copies this long (0: only unfinished rows keep theirs). */
  keepMs: number
  /** Also delete copies no row refers to (only at start: later, a download may be on its way). */
  orphans: boolean
  now?: number
}

/** Every regular file under `dir` (links neither followed nor entered), deepest folders last. */
async function filesUnder(dir: string, out: { files: string[]; dirs: string[] }): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  for (const e of entries) {
    const path = join(dir, e.name)
    if (e.isDirectory()) {
      await filesUnder(path, out)
      out.dirs.push(path)
    } else if (e.isFile()) out.files.push(path)
  }
}

/**
 * Deletes the local copies that no longer serve (see keepsLocalCopy), and the folders they leave
 * empty. A file two rows share (the same photo prepared twice) stays while either needs it.
 */
export async function sweepLocalCopies(dataDir: string, uploads: Pick<UploadStore, 'localCopyRefs'>, o: SweepOptions): Promise<Freed> {
  const now = o.now ?? Date.now()
  const refs = uploads.localCopyRefs(dataDir)
  /** Per file: does some row need it? (absent: no row refers to it) */
  const needed = new Map<string, boolean>()
  for (const r of refs) {
    const keep = keepsLocalCopy(r, now, o.keepMs)
    for (const p of [r.path, r.preparedPath]) if (p !== null) needed.set(p, (needed.get(p) ?? false) || keep)
  }
  const freed: Freed = { files: 0, bytes: 0 }
  for (const name of COPY_DIRS) {
    const found = { files: [] as string[], dirs: [] as string[] }
    await filesUnder(join(dataDir, name), found)
    for (const f of found.files) {
      const need = needed.get(f)
      if (need === true || (need === undefined && !o.orphans)) continue
      const st = await lstat(f).catch(() => null)
      if (!st?.isFile()) continue
      await rm(f, { force: true })
      freed.files++
      freed.bytes += st.size
    }
    // Folders left empty go too (a folder still holding a file stays: rmdir refuses it).
    for (const d of found.dirs) await rmdir(d).catch(() => undefined)
  }
  return freed
}

/** The data folder's size, per part (Settings; the contract's shape). */
export type DataFolderSize = DataFolderView

async function bytesUnder(path: string): Promise<number> {
  const st = await lstat(path).catch(() => null)
  if (!st) return 0
  if (!st.isDirectory()) return st.isFile() ? st.size : 0
  let n = 0
  for (const e of await readdir(path).catch(() => [] as string[])) n += await bytesUnder(join(path, e))
  return n
}

/** How much each of Bookdrop's parts of the data folder takes (the database with its WAL and SHM). */
export async function dataFolderSize(dataDir: string): Promise<DataFolderSize> {
  const size: DataFolderSize = { database: 0, prepared: 0, mail: 0, phone: 0, dropped: 0, exports: 0, other: 0, total: 0 }
  for (const e of await readdir(dataDir).catch(() => [] as string[])) {
    const bytes = await bytesUnder(join(dataDir, e))
    if (/^bookdrop\.db(?:-wal|-shm|-journal)?$/.test(e)) size.database += bytes
    else if ((COPY_DIRS as readonly string[]).includes(e) || e === 'exports') size[e as CopyDir | 'exports'] += bytes
    else size.other += bytes
    size.total += bytes
  }
  return size
}

/** The retention setting in milliseconds, from the saved settings (a damaged value: the default). */
export function keepCopiesMs(saved: Record<string, unknown>): number {
  const days = saved.keepCopiesDays
  const ok = typeof days === 'number' && Number.isInteger(days) && days >= 0
  return (ok ? days : DEFAULT_KEEP_COPIES_DAYS) * DAY_MS
}

/** Whether `path` is one of Bookdrop's own files in `dataDir`. */
function ownPath(dataDir: string, path: string): boolean {
  const root = dataDir.replace(/[\\/]+$/, '')
  return path.startsWith(`${root}/`) || path.startsWith(`${root}\\`)
}

/** The rows (of a history page) whose own copy in the data folder is gone. */
export async function removedCopies(dataDir: string, rows: readonly Pick<CopyRef, 'id' | 'path'>[]): Promise<Set<number>> {
  const gone = new Set<number>()
  for (const r of rows) {
    if (ownPath(dataDir, r.path) && !(await stat(r.path).then((s) => s.isFile(), () => false))) gone.add(r.id)
  }
  return gone
}

/**
 * When a person asks to send a row again and its local copy was deleted: what to say, or null when
 * the copy is there (or the row's file is not one of Bookdrop's copies).
 */
export async function copyGoneMessage(dataDir: string, row: Pick<CopyRef, 'status' | 'path' | 'preparedPath'>): Promise<string | null> {
  const gone = async (p: string | null) => p !== null && ownPath(dataDir, p) && !(await stat(p).then((s) => s.isFile(), () => false))
  // A skipped row is taken again from its original (its photo prepared again): only that counts.
  if (!(await gone(row.path)) && (row.status === 'skipped' || !(await gone(row.preparedPath)))) return null
  return 'The local copy of this receipt was removed (Settings › Data folder says how long copies are kept). Send the receipt to Bookdrop again: forward the mail again, take the photo again from the phone, or add the file again.'
}

/**
 * The data folder's local copies while the engine is open: the sweep at start (orphans too), then
 * every SWEEP_EVERY_MS, on demand (Settings' Free space), and the folder's size.
 */
export class CopyRetention {
  private timer: NodeJS.Timeout | null = null
  private running: Promise<Freed> | null = null

  constructor(
    private readonly dataDir: string,
    private readonly uploads: Pick<UploadStore, 'localCopyRefs'>,
    private readonly keepMs: () => number,
  ) {}

  /** One sweep at a time: a second call waits for the one running, then runs its own. */
  async sweep(o: Partial<SweepOptions> = {}): Promise<Freed> {
    while (this.running) await this.running.catch(() => undefined)
    const run = sweepLocalCopies(this.dataDir, this.uploads, { keepMs: this.keepMs(), orphans: false, ...o })
    this.running = run
    try {
      return await run
    } finally {
      this.running = null
    }
  }

  /** How much the data folder takes, per part (Settings). */
  size(): Promise<DataFolderSize> {
    return dataFolderSize(this.dataDir)
  }

  /** The rows whose own copy in the data folder the retention deleted (the history says so). */
  removed(rows: readonly Pick<CopyRef, 'id' | 'path'>[]): Promise<Set<number>> {
    return removedCopies(this.dataDir, rows)
  }

  /** "Free space": deletes every local copy no unfinished row needs. */
  free(): Promise<Freed> {
    return this.sweep({ keepMs: 0 })
  }

  start(everyMs = SWEEP_EVERY_MS): void {
    this.timer = setInterval(() => void this.sweep().catch(() => undefined), everyMs)
    this.timer.unref()
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
    await this.running?.catch(() => undefined)
  }
}
