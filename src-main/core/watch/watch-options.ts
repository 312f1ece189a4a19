/**
 * What a FolderWatcher is given besides its config: its defaults, the numbers it takes from a
 * FolderWatcherConfig (each kept within its bounds), the mtime cut-off of ignoreOlderThanMs, the
 * writer probe every watcher of the process shares, and what tests may replace or reach.
 */
import { encodeFsName } from '../names'
import { type CreateWatcher, READY_TIMEOUT_MS } from './chokidar-source'
import type { FolderWatcherConfig, WatchFs } from './types'
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
export const JITTER = 0.2

/** A duration below this is counted back from start(); at or above, it is an epoch time (ms). */
export const EPOCH_CUTOFF_THRESHOLD_MS = 1e12

/** The mtime cut-off of ignoreOlderThanMs (see FolderWatcherConfig), or undefined for none. */
export function cutoffFor(ignoreOlderThanMs: number | undefined, startedAt: number): number | undefined {
  if (ignoreOlderThanMs === undefined || !Number.isFinite(ignoreOlderThanMs)) return undefined
  return ignoreOlderThanMs >= EPOCH_CUTOFF_THRESHOLD_MS ? ignoreOlderThanMs : startedAt - ignoreOlderThanMs
}

/** The watcher's timings from its config: defaults where unset, each kept within its bounds. */
export function watchTimings(config: FolderWatcherConfig): {
  stabilityMs: number
  rescanIntervalMs: number
  pollIntervalMs: number
  recoverInitialMs: number
  recoverMaxMs: number
  unfinishedQuietMs: number
} {
  const stabilityMs = Math.max(20, config.stabilityMs ?? WATCH_DEFAULTS.stabilityMs)
  const rescanIntervalMs = Math.max(50, config.rescanIntervalMs ?? WATCH_DEFAULTS.rescanIntervalMs)
  const pollIntervalMs = Math.max(20, config.pollIntervalMs ?? WATCH_DEFAULTS.pollIntervalMs)
  const recoverInitialMs = Math.max(10, config.recoverInitialMs ?? WATCH_DEFAULTS.recoverInitialMs)
  const recoverMaxMs = Math.max(recoverInitialMs, config.recoverMaxMs ?? WATCH_DEFAULTS.recoverMaxMs)
  const unfinishedQuietMs = Math.max(
    stabilityMs,
    config.unfinishedQuietMs ?? WATCH_DEFAULTS.unfinishedQuietMs,
  )
  return { stabilityMs, rescanIntervalMs, pollIntervalMs, recoverInitialMs, recoverMaxMs, unfinishedQuietMs }
}

/** The writer probe every watcher of this process shares (one walk of /proc answers them all). */
let sharedWriters: WriterProbe | undefined
export function defaultWriters(): WriterProbe {
  return (sharedWriters ??= new ProcWriterProbe(encodeFsName))
}

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
