/**
 * The file a row sends: the prepared photo when there is one (issue 25: what was hashed is what is
 * sent), else the original. `expect` is what intake recorded of it, so a file changed since is
 * caught before (size, mtime) or while (sha256) it is streamed, and the row is superseded.
 *
 * The body sent under a row's Idempotency-Key never changes (issue 31): the name and prompt of its
 * first send are kept on the row (`sentName`, `sentPrompt`) and sent again by every retry, while
 * the history shows where the file is now. Another body under the same key is refused by the
 * server (422), and the record the first send may have made would be left behind.
 */
import { preparedName } from '../prepare/preparer'
import type { TransitionPatch, Upload } from '../store/uploads'

export function sentFile(row: Upload): {
  path: string
  name: string
  expect?: { size: number; mtimeMs: number; sha256: string }
} {
  if (row.preparedPath !== null) {
    const expect =
      row.sha256 !== null && row.preparedSize !== null && row.preparedMtimeMs !== null
        ? { size: row.preparedSize, mtimeMs: row.preparedMtimeMs, sha256: row.sha256 }
        : undefined
    const name = row.sentName ?? preparedName(row.name, row.preparedPath)
    return { path: row.preparedPath, name, ...(expect ? { expect } : {}) }
  }
  const expect =
    row.sha256 !== null && row.size !== null && row.mtimeMs !== null
      ? { size: row.size, mtimeMs: row.mtimeMs, sha256: row.sha256 }
      : undefined
  return { path: row.path, name: row.sentName ?? row.name, ...(expect ? { expect } : {}) }
}

/** The prompt a row sends: the one of its first send under its key, else today's. */
export function sentPrompt(row: Upload): string {
  return row.sentName !== null && row.sentPrompt !== null ? row.sentPrompt : row.prompt
}

/** What a row's first send under its key fixes (written with its move to `uploading`); nothing after. */
export function fixedAtFirstSend(row: Upload): TransitionPatch {
  return row.sentName !== null ? {} : { sentName: sentFile(row).name, sentPrompt: row.prompt }
}
