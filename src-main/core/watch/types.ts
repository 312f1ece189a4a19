/**
 * Public types of the folder watcher: what the engine configures and what it hears back.
 *
 * The watcher only detects. It turns file-system events (and periodic rescans) into "stable file
 * candidates"; the engine decides dedup, queueing and uploads (design.md §2, "the life of a receipt").
 */
import type { Stats } from 'node:fs'
import type { InspectFn } from '../intake/inspect'
import type { WriterProbe } from './writers'
import type { Coded } from '../../../contract/message'

export interface FolderWatcherConfig {
  /** The watched folder's id in the engine's store; echoed on every event. */
  id: string
  /** Absolute path of the watched folder (resolved with path.resolve). */
  path: string
  /** Watch sub-folders too. */
  recursive: boolean
  /**
   * Accepted extensions, lower case, without the dot ("pdf", "jpg"). Files of other kinds are still
   * reported, flagged `accepted: false`, so the engine can mark them skipped ('unsupported kind').
   */
  acceptedKinds: readonly string[]
  /** Poll instead of using native events (network drives). */
  usePolling: boolean
  /** Poll interval when polling (configured or after an EMFILE/ENOSPC fallback). Default 1000 ms. */
  pollIntervalMs?: number
  /**
   * "Don't take files already there on first add": files whose modification time is older than
   * the cut-off are ignored. A duration (below 1e12) counts back from when `start()` is called;
   * a value of 1e12 or more is an epoch time in ms, "modified before this instant" (e.g. the time
   * the folder was added), the same convention as EPOCH_THRESHOLD for rate-limit resets.
   * For a file that newly appears while watching (a live `add` event), the later of mtime and
   * ctime counts, because a move or copy into the folder keeps an old mtime but updates ctime.
   */
  ignoreOlderThanMs?: number
  /**
   * A file is taken only once its size and mtime have not changed for this long (and at least two
   * samples agree). Default 300 ms. Sampling runs every stabilityMs / 2.
   */
  stabilityMs?: number
  /** Periodic rescan interval, jittered ±20 %. Default 60 000 ms. */
  rescanIntervalMs?: number
  /** Absolute paths of sub-folders never watched or scanned (`Uploaded/`, an archive folder…). */
  excludeDirs?: readonly string[]
  /** First delay before checking whether a missing folder came back. Default 1000 ms. */
  recoverInitialMs?: number
  /** The delay doubles after each failed check, up to this. Default 30 000 ms. */
  recoverMaxMs?: number
  /**
   * The consumer's backpressure: a scan awaits this before each batch of directory entries, so a
   * folder of many existing files is handed over no faster than the consumer takes them. Live
   * events do not wait. A walk stops waiting for it when the watcher stops.
   */
  scanGate?: () => Promise<void> | void
  /**
   * A file that looks unfinished (its format's end marker missing) or that a program still holds
   * open for writing is taken only once it has not changed for this long, with a note saying so.
   * Default 60 000 ms.
   */
  unfinishedQuietMs?: number
  /** The content check (intake/inspect.ts) used to tell a finished file; default: in process. */
  inspect?: InspectFn
  /** Who still writes a file (Linux /proc); default: the shared probe of this process. */
  writers?: WriterProbe
}

/** How a candidate was first noticed. */
export type CandidateSource = 'watcher' | 'scan'

export interface WatchCandidate {
  folderId: string
  /** The real path (every link resolved) of the watched folder, where the file was found. */
  root: string
  /** Absolute path. */
  path: string
  /** Base name (`path.basename(path)`). */
  name: string
  /** Bytes; 0 when the file could not be stat'ed (see `unreadable`). */
  size: number
  /** Modification time (epoch ms); 0 when the file could not be stat'ed. */
  mtimeMs: number
  /** Lower-case extension without the dot (schemas `fileKind`), '' when there is none. */
  kind: string
  /** `kind` is one of the folder's accepted kinds. */
  accepted: boolean
  /** Epoch ms when the first event (or scan hit) of the episode that ended in this version arrived. */
  detectedAt: number
  /** Epoch ms when the file was found stable and this candidate was emitted. */
  stableAt: number
  /** The file exists but cannot be stat'ed or read; `unreadableReason` says why in plain words. */
  unreadable: boolean
  unreadableReason?: string
  /** The file is a link to a file outside the watched folder (its real path is not inside `root`): never read. */
  outside?: boolean
  /**
   * Set when the file is taken although it did not look finished (its end marker missing, or still
   * open for writing) because it had not changed for unfinishedQuietMs: plain words for its row.
   */
  note?: string
  source: CandidateSource
}

/** A file that was seen but disappeared before it became stable (deleted, renamed, moved away). */
export interface WatchVanished {
  folderId: string
  path: string
  name: string
  kind: string
  /** Whether the kind was accepted: an engine may ignore vanished temp files of other kinds. */
  accepted: boolean
  detectedAt: number
}

export type WatchState = 'starting' | 'watching' | 'polling' | 'error' | 'stopped'

export interface WatchStatus {
  folderId: string
  state: WatchState
  /** Plain words for a person, e.g. why the folder is in error, or that polling is used. */
  message?: string
  /** The same sentence as a catalogue id with parameters, for the person's language (issue 34). */
  messageCoded?: Coded
}

/** Event map of `FolderWatcher` (a typed `EventEmitter`). */
export interface FolderWatcherEvents {
  candidate: [WatchCandidate]
  vanished: [WatchVanished]
  status: [WatchStatus]
  /** A walk of the whole folder finished (the engine then looks again at files it skipped). */
  scanned: [{ folderId: string }]
}

/** A directory entry (a node:fs Dirent has these). */
export interface DirEntry {
  name: string
  isFile(): boolean
  isDirectory(): boolean
  isSymbolicLink(): boolean
}

/** The few file-system calls the watcher makes itself; replaceable in tests to inject failures. */
export interface WatchFs {
  stat(path: string): Promise<Stats>
  access(path: string, mode: number): Promise<void>
  readdir(path: string): Promise<DirEntry[]>
}
