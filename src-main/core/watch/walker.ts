/**
 * Walking a folder with backpressure: readdir, then a stability check of every file that is not
 * ignored, in batches.
 *
 * A walk holds at most SCAN_MAX_PENDING files pending at a time and awaits the consumer's
 * `scanGate` before each batch, so a folder of 20,000 existing files streams through in a bounded
 * window. Live events are never held back; only walks wait. A walk ends when its signal is aborted
 * (stop, the folder lost): waiting walks wake at once.
 */
import path from 'node:path'
import { isIgnoredName } from './ignore'
import { GONE_CODES, TRANSIENT_CODES } from './io'
import type { WatchIo } from './io'
import type { FolderPaths } from './paths'
import type { StabilitySampler } from './stability'
import type { DirEntry } from './types'

/** Directory entries checked together during a walk. */
export const SCAN_BATCH = 64
/**
 * A walk goes on only while fewer files than this wait to become stable, so an initial scan of a
 * folder of 20,000 files holds about this many pending records and timers at a time, not 20,000.
 */
export const SCAN_MAX_PENDING = 128

/** Folders a walk could not read: `dirs` are reported (with `code`), `skipped` only retried. */
export interface WalkTrouble {
  dirs: string[]
  code: string
  skipped: string[]
}

export function noTrouble(): WalkTrouble {
  return { dirs: [], code: '', skipped: [] }
}

/** Waits for `p`, or only until `signal` is aborted: a stopped walk does not wait for its consumer. */
function settledOrAborted(p: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (): void => {
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done)
    p.then(done, (e: unknown) => {
      signal.removeEventListener('abort', done)
      reject(e instanceof Error ? e : new Error(String(e)))
    })
  })
}

export class FolderWalker {
  /** Walks waiting for room (see SCAN_MAX_PENDING and FolderWatcherConfig.scanGate). */
  private roomWaiters: Array<() => void> = []
  /** Walks under way. */
  walking = 0

  constructor(
    private readonly io: WatchIo,
    private readonly paths: FolderPaths,
    private readonly sampler: StabilitySampler,
    private readonly recursive: boolean,
    private readonly scanGate: (() => Promise<void> | void) | undefined,
  ) {}

  /**
   * Walks `start` (and below it when recursive, unless `shallow`), checking every file that is not
   * ignored. Returns the error code when `start` itself can't be read; folders below it that can't
   * be read are listed in `trouble`.
   */
  async walk(
    start: string,
    via: 'scan' | 'add',
    signal: AbortSignal,
    trouble: WalkTrouble,
    shallow = false,
  ): Promise<string | undefined> {
    this.walking++
    try {
      const stack: string[] = [start]
      while (stack.length > 0) {
        const dir = stack.pop() as string
        const r = await this.io.readdir(dir, signal)
        if (signal.aborted) return undefined
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
          await this.roomToWalk(signal)
          if (signal.aborted) return undefined
          const batch = entries.slice(i, i + SCAN_BATCH)
          await Promise.all(batch.map((ent) => this.walkEntry(dir, ent, shallow ? [] : stack, via)))
          if (signal.aborted) return undefined
        }
      }
      return undefined
    } finally {
      this.walking--
    }
  }

  /** Lets waiting walks go on once the pending set is down to three quarters. */
  pendingShrank(size: number): void {
    if (this.roomWaiters.length === 0 || size > (SCAN_MAX_PENDING * 3) / 4) return
    this.wakeAll()
  }

  /** Backpressure: waits while SCAN_MAX_PENDING files are pending, then for the consumer's gate. */
  private async roomToWalk(signal: AbortSignal): Promise<void> {
    while (!signal.aborted && this.sampler.pendingCount >= SCAN_MAX_PENDING) {
      await settledOrAborted(new Promise<void>((resolve) => this.roomWaiters.push(resolve)), signal)
    }
    const gate = signal.aborted ? undefined : this.scanGate?.()
    if (gate) await settledOrAborted(gate, signal)
  }

  private wakeAll(): void {
    const waiters = this.roomWaiters
    this.roomWaiters = []
    for (const w of waiters) w()
  }

  private async walkEntry(dir: string, ent: DirEntry, stack: string[], via: 'scan' | 'add'): Promise<void> {
    const name = ent.name
    if (isIgnoredName(name)) return
    const full = path.join(dir, name)
    if (ent.isDirectory()) {
      if (this.recursive && !this.paths.isExcluded(full)) stack.push(full)
      return
    }
    // Symlinks: a link to a file is checked (stat follows it; where it leads is checked when it is
    // opened, inside.ts); a link to a folder is never entered.
    if (ent.isFile() || ent.isSymbolicLink()) await this.sampler.check(full, via)
  }
}
