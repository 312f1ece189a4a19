/**
 * What the emulator's routes and its job runner share besides the state: the attachment limits,
 * the timers stop() clears and the documents worker. startSandbox (index.ts) builds it.
 */
import type { TaskPool } from '../workers/pool'
import type { DocumentTasks } from './documents'

export interface RouteContext {
  urlFetchCa?: string
  urlFetchTimeoutMs?: number
  /** Largest decoded attachment accepted. */
  maxAttachmentBytes: number
  /** Timers owned by the emulator (job progress); cleared on stop. */
  timers: Set<NodeJS.Timeout>
  /** Where documents are read (a worker with limits); closed on stop. */
  documents: TaskPool<DocumentTasks>
}
