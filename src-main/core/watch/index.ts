/**
 * Watched folders: chokidar watchers + jittered rescans → stable file candidates for the engine.
 * Plain Node; never imports 'electron'.
 */
export { FolderWatcher, WATCH_DEFAULTS, EPOCH_CUTOFF_THRESHOLD_MS, cutoffFor } from './folder-watcher'
export type { FolderWatcherDeps, FolderWatcherTestHooks } from './folder-watcher'
export { isIgnoredName } from './ignore'
export type {
  CandidateSource,
  FolderWatcherConfig,
  FolderWatcherConfig as WatcherOptions,
  FolderWatcherEvents,
  WatchCandidate,
  WatchFs,
  WatchState,
  WatchStatus,
  WatchVanished,
} from './types'
