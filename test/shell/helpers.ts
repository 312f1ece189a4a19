import type { EngineEvents } from '../../src-main/core/events'
import type { Upload, UploadStatus } from '../../src-main/core/store/uploads'
import { upload as uploadView } from '../renderer/fake-bridge'

/**
 * A plausible upload row of main: the renderer tests' row (test/renderer/fake-bridge.ts) at time 0,
 * plus its Idempotency-Key (never sent yet); only what a test sets matters.
 */
export function upload(id: number, status: UploadStatus, extra: Partial<Upload> = {}): Upload {
  return {
    idempotencyKey: `k${id}`,
    sentName: null,
    sentPrompt: null,
    ...uploadView({ mtimeMs: 0, createdAt: 0, updatedAt: 0, id, status, ...extra }),
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
