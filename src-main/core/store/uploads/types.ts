/**
 * The upload as main works with it (a row of the uploads table), the shapes its store takes, and
 * the table handle the store's parts share. Every part of the store imports from here, never from
 * `store/uploads.ts` (the entry).
 */
import type { AiTarget } from '../../../../schemas'
import type { FromStatus, UploadStatus } from '../../lifecycle'
import { printable } from '../../names'
import type { UploadSource, UploadView } from '../../../../contract/types'
import type { RecordSummary } from '../../../../contract/review'
import type { Db } from '../db'

/**
 * A row of the uploads table: the public view plus what only main uses. The record it made
 * (issue 32) lives in the records table: `record` is null and `recordCount` 0 as the store reads
 * the row; the app joins them in (`toUploadView`).
 */
export interface Upload extends UploadView {
  /** Sent with every attempt of this file's create, so a retry never creates a second record. */
  idempotencyKey: string
  /**
   * The file name and prompt sent under that key, fixed at its first send (null: not sent yet):
   * every retry sends them again, whatever the file is called now (the history shows `name`).
   */
  sentName: string | null
  sentPrompt: string | null
}

/**
 * The row as the contract shows it (history, events): main's own fields left out, and every name
 * and path printable (one line, in its own order; names.ts), whatever the file system held.
 */
export function toUploadView(u: Upload, records?: { record: RecordSummary | null; recordCount: number }): UploadView {
  const { idempotencyKey: _key, sentName: _sentName, sentPrompt: _sentPrompt, ...view } = u
  return {
    ...view,
    record: records ? records.record : view.record,
    recordCount: records ? records.recordCount : view.recordCount,
    name: printable(view.name),
    path: printable(view.path),
    movedTo: view.movedTo === null ? null : printable(view.movedTo),
    archiveDir: view.archiveDir === null ? null : printable(view.archiveDir),
  }
}

/** Fields a transition or note writes (never the status: that is the move itself). */
export type TransitionPatch = Partial<Omit<Upload, 'id' | 'status' | 'createdAt' | 'updatedAt'>>

export type NewUpload = Pick<
  Upload,
  'profileId' | 'target' | 'source' | 'path' | 'name' | 'prompt' | 'status'
> &
  Partial<Omit<Upload, 'id' | 'createdAt' | 'updatedAt' | 'idempotencyKey'>>

export interface HistoryFilter {
  statuses?: UploadStatus[]
  targets?: AiTarget[]
  /** Where the files came from (folder, drop, command line, mail, phone). */
  sources?: UploadSource[]
  profileId?: string
  folderId?: string
  /** Case-insensitive substring of the file name. */
  search?: string
  /** created_at bounds, epoch ms, inclusive. */
  from?: number
  to?: number
  /** Newest first unless 'asc'. */
  order?: 'asc' | 'desc'
  offset?: number
  limit?: number
}

/** The uploads table as the store's parts share it. */
export interface UploadTable {
  readonly db: Db
  /** Writes through this store so far: cached counts taken before the latest one are stale. */
  writes: number
}

/** `UploadStore.transition`: the one way a status changes (see store/uploads/changes.ts). */
export type TransitionFn = (
  row: number | Upload,
  from: FromStatus & UploadStatus,
  to: UploadStatus,
  patch?: TransitionPatch,
  now?: number,
) => Upload | undefined
