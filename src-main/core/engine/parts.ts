/** What the engine hands its parts (./folders.ts, ./retake.ts, ./orphans.ts, ./mail.ts). */
import type { EngineEmitter } from '../events'
import type { FolderStore } from '../folders'
import type { UploadQueue } from '../queue/queue'
import type { UploadStore } from '../store/uploads'
import type { FileTaker } from './take'

export interface EngineParts {
  uploads: UploadStore
  folders: FolderStore
  events: EngineEmitter
  /** The way into intake for every source. */
  taker: FileTaker
  /** The upload queue: kicked when a row is queued, told of storage faults. */
  queue: UploadQueue
  /** The largest file taken now (Settings changes it live). */
  maxFileBytes: () => number
  /** True once the engine is closing: work in progress stops at its next step. */
  closed: () => boolean
}
