/** The calls of uploads: adding files, the history, retries, pausing, exporting. */
import { z } from 'zod'
import { UPLOAD_SOURCES, UPLOAD_STATUSES, type UploadView } from '../types'
import type { IntakeOutcome, SessionState } from '../views'
import { fileContents, none, target } from './shared'

/** Every upload status, in the order screens list them. */
export const UPLOAD_STATUS_VALUES = UPLOAD_STATUSES

export const historyFilterSchema = z
  .object({
    statuses: z.array(z.enum(UPLOAD_STATUS_VALUES)).max(10).optional(),
    targets: z.array(target).max(10).optional(),
    sources: z.array(z.enum(UPLOAD_SOURCES)).max(10).optional(),
    profileId: z.string().max(200).optional(),
    folderId: z.string().max(200).optional(),
    search: z.string().max(200).optional(),
    from: z.number().optional(),
    to: z.number().optional(),
    order: z.enum(['asc', 'desc']).optional(),
    offset: z.number().int().min(0).optional(),
    limit: z.number().int().min(1).max(1000).optional(),
  })
  .strict()
export type HistoryFilterInput = z.input<typeof historyFilterSchema>

export const UPLOAD_CALLS = {
  addFiles: z.object({
    paths: z.array(z.string().min(1)).min(1).max(1000),
    target,
    prompt: z.string().max(4000).optional(),
    processType: z.enum(['async', 'direct']).optional(),
  }),
  addFileContents: z.object({
    files: fileContents,
    target,
    prompt: z.string().max(4000).optional(),
    processType: z.enum(['async', 'direct']).optional(),
  }),
  history: historyFilterSchema,
  retryUpload: z.object({ id: z.number().int().positive() }),
  cancelUpload: z.object({ id: z.number().int().positive() }),
  retryFailed: none,
  /** Demo only: the sample receipts (sandbox/sample-receipts.ts) dropped as expenses. */
  addSampleReceipts: none,
  pauseUploads: none,
  resumeUploads: none,
  exportHistory: z.object({ filter: historyFilterSchema }),
  showSourceFile: z.object({ id: z.number().int().positive() }),
} as const

export interface UploadCalls {
  addFiles: IntakeOutcome[]
  addFileContents: IntakeOutcome[]
  history: { rows: UploadView[]; total: number }
  retryUpload: UploadView
  cancelUpload: UploadView
  retryFailed: { retried: number }
  addSampleReceipts: IntakeOutcome[]
  pauseUploads: SessionState
  resumeUploads: SessionState
  /** path is null when the person cancelled the save dialog (desktop); downloadUrl is set in the web host. */
  exportHistory: { path: string | null; rows: number; downloadUrl: string | null }
  showSourceFile: { shown: boolean; path: string }
}
