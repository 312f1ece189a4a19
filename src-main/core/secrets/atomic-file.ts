import { randomBytes } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { dirname } from 'node:path'
import { errnoCode } from '../util'

/**
 * Replaces `path` with `data` so that a reader (or a crash, or `kill -9`) sees either the whole old
 * file or the whole new one, never a mix: write a temporary file next to it, flush it to disk, rename
 * it over the target, then flush the directory entry (best effort; not possible on Windows).
 */
export async function writeFileAtomic(path: string, data: string, mode = 0o600): Promise<void> {
  const tmp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  try {
    const fh = await open(tmp, 'wx', mode)
    try {
      await fh.writeFile(data, 'utf8')
      await fh.sync()
    } finally {
      await fh.close()
    }
    await renameWithRetry(tmp, path)
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined)
    throw err
  }
  try {
    const dir = await open(dirname(path), 'r')
    try {
      await dir.sync()
    } finally {
      await dir.close()
    }
  } catch {
    // Directories cannot be opened or synced on some platforms (Windows); the rename is still atomic.
  }
}

/** Windows refuses a rename while another process (an indexer, an antivirus) holds the target open. */
async function renameWithRetry(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await rename(from, to)
      return
    } catch (err) {
      const code = errnoCode(err)
      if (attempt >= 5 || (code !== 'EPERM' && code !== 'EACCES' && code !== 'EBUSY')) throw err
      await new Promise((r) => setTimeout(r, 20 * 2 ** attempt))
    }
  }
}
