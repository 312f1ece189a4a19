/** The calls of Settings' "Data folder" section (issue 31): its size per part, and freeing it. */
import { none } from './shared'

export const DATA_FOLDER_CALLS = {
  getDataFolder: none,
  /** Deletes every local copy of a receipt that no unfinished upload needs. */
  freeDataFolder: none,
} as const

/** Bytes the data folder takes, per part (the renderer words them). */
export interface DataFolderView {
  /** The history database (with its write-ahead log). */
  database: number
  /** Photos prepared before they were sent. */
  prepared: number
  /** Mail attachments. */
  mail: number
  /** What phones sent. */
  phone: number
  /** Files added in the browser. */
  dropped: number
  /** History exports. */
  exports: number
  /** Everything else (logs, the window's state…). */
  other: number
  total: number
}

/** What "Free space" deleted, and the folder's size after. */
export interface FreedView {
  files: number
  bytes: number
  size: DataFolderView
}

export interface DataFolderCalls {
  getDataFolder: DataFolderView
  freeDataFolder: FreedView
}
