import type { EngineEvents } from '../../src-main/core/events'
import type { Upload, UploadStatus } from '../../src-main/core/store/uploads'

/** A plausible upload row; only what a test sets matters. */
export function upload(id: number, status: UploadStatus, extra: Partial<Upload> = {}): Upload {
  return {
    id,
    profileId: 'p1',
    target: 'expenses',
    source: 'drop',
    folderId: null,
    path: `/tmp/receipt-${id}.pdf`,
    name: `receipt-${id}.pdf`,
    size: 1000,
    mtimeMs: 0,
    sha256: null,
    prompt: '',
    processType: 'async',
    status,
    reason: null,
    attempts: 0,
    nextAttemptAt: null,
    lastError: null,
    errorCode: null,
    httpStatus: null,
    idempotencyKey: `k${id}`,
    jobReference: null,
    acceptedAt: null,
    polls: 0,
    recordUuid: null,
    recordType: null,
    duplicateOf: null,
    forced: false,
    afterUpload: 'leave',
    archiveDir: null,
    movedTo: null,
    createdAt: 0,
    updatedAt: 0,
    completedAt: null,
    ...extra,
  }
}

export function uploadEvent(
  id: number,
  status: UploadStatus,
  previous: UploadStatus | null,
  extra: Partial<Upload> = {},
): EngineEvents['upload'] {
  return { upload: upload(id, status, extra), previous }
}
