/**
 * What the stability sampler (stability.ts) keeps: a record per file it waits for (pending), per
 * file it reported (emitted) and per check in flight, and what it needs from its watcher.
 */
import type { Peek, PeekHost } from './peek'
import type { CandidateSource, WatchCandidate, WatchVanished } from './types'
import type { WriterProbe } from './writers'

/** What started a check: a watcher event, a walk, or a pending file's own sample timer. */
export type Via = 'add' | 'change' | 'unlink' | 'scan' | 'sample'

/** A file seen but not yet stable. */
export interface Pending {
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
  /**
   * Monotonic ms (performance.now()) when a stat first returned the current state: that version
   * was written before then (this process's clock, whatever the file system stamps), so a program
   * that wrote it had opened it by then (see writers.ts).
   */
  versionSeenAt: number
  /** Consecutive samples that agreed on the current state. */
  samples: number
  timer: NodeJS.Timeout | undefined
  /** The version (size:mtime) last peeked at, and what the peek found. */
  peekedVersion: string | undefined
  peek: Peek | undefined
}

/** The version last reported for a path: one small record per file. */
export interface Emitted {
  size: number
  mtimeMs: number
  unreadable: boolean
  outside: boolean
  /** Walk generation that last saw the file. */
  seen: number
}

export interface CheckSlot {
  again: boolean
  via: Via
  path: string
  done: Promise<void>
}

/** What the sampler needs from its watcher. */
export interface SamplerHost extends PeekHost {
  readonly folderId: string
  readonly stabilityMs: number
  /** See FolderWatcherConfig.unfinishedQuietMs. */
  readonly unfinishedQuietMs: number
  readonly acceptedKinds: ReadonlySet<string>
  readonly writers: WriterProbe
  /** The current watch session's signal: aborted on stop() and while the folder is lost. */
  session(): AbortSignal
  /** True while the watcher polls (network shares may report cached attributes). */
  polling(): boolean
  /** The mtime cut-off of ignoreOlderThanMs, if any. */
  cutoffMs(): number | undefined
  candidate(c: WatchCandidate): void
  vanished(v: WatchVanished): void
  /** The pending set shrank (walks waiting for room may go on). */
  pendingShrank(size: number): void
  warn(where: string, e: unknown): void
}
