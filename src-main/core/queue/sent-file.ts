/**
 * The file a row sends: the prepared photo when there is one (issue 25: what was hashed is what is
 * sent), else the original. `expect` is what intake recorded of it, so a file changed since is
 * caught before (size, mtime) or while (sha256) it is streamed, and the row is superseded.
 */
import { preparedName } from '../prepare/preparer'
import type { Upload } from '../store/uploads'

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
    return { path: row.preparedPath, name: preparedName(row.name, row.preparedPath), ...(expect ? { expect } : {}) }
  }
  const expect =
    row.sha256 !== null && row.size !== null && row.mtimeMs !== null
      ? { size: row.size, mtimeMs: row.mtimeMs, sha256: row.sha256 }
      : undefined
  return { path: row.path, name: row.name, ...(expect ? { expect } : {}) }
}
