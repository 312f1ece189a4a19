/**
 * Files from a drop or a file picker → `addFileContents` batches. One code path for Electron and
 * the web host: the bytes are read in the renderer (modern Electron no longer puts a path on File).
 * Files are read one at a time and sent in small batches, so memory stays bounded.
 */
import { fileToBase64 } from './base64'

/** The contract caps one file's Base64 at 36 MiB (≈ 27 MiB of bytes) and a call at 50 files. */
export const MAX_FILE_BYTES_ON_BRIDGE = Math.floor((36 * 1024 * 1024 * 3) / 4)
const MAX_FILES_PER_CALL = 50
/** Bytes of Base64 per call before a batch is sent (keeps IPC/HTTP messages reasonable). */
const MAX_BATCH_CHARS = 40 * 1024 * 1024

export interface FileContent {
  name: string
  base64: string
}

export interface Rejected {
  name: string
  reason: string
}

/**
 * Reads `files` and calls `send` with batches. Files over `maxBytes` are not read: they come back in
 * `rejected` with a reason a person can act on. Empty files go to the engine, which says why it
 * skips them, so every file has a row or a reason.
 */
export async function sendInBatches(
  files: readonly File[],
  maxBytes: number,
  send: (batch: FileContent[]) => Promise<void>,
): Promise<Rejected[]> {
  const rejected: Rejected[] = []
  const limit = Math.min(maxBytes, MAX_FILE_BYTES_ON_BRIDGE)
  let batch: FileContent[] = []
  let chars = 0
  const flush = async () => {
    if (batch.length === 0) return
    const b = batch
    batch = []
    chars = 0
    await send(b)
  }
  for (const file of files) {
    if (file.size > limit) {
      rejected.push({
        name: file.name,
        reason: `${file.name} is larger than the ${Math.round(limit / (1024 * 1024))} MB limit (Settings, Maximum file size).`,
      })
      continue
    }
    let base64: string
    try {
      base64 = await fileToBase64(file)
    } catch (e) {
      rejected.push({
        name: file.name,
        reason: `${file.name} could not be read: ${e instanceof Error ? e.message : String(e)}`,
      })
      continue
    }
    if (batch.length >= MAX_FILES_PER_CALL || chars + base64.length > MAX_BATCH_CHARS) await flush()
    batch.push({ name: file.name.slice(0, 255) || 'file', base64 })
    chars += base64.length
  }
  await flush()
  return rejected
}
