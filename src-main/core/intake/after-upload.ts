/**
 * What happens to a source file once its record exists: left in place, moved into the folder's
 * `Uploaded/` subfolder, or moved to an archive folder. Never before the record exists; never
 * over another file (a clash gets " (2)", " (3)"…); across disks by copy then delete.
 */
import { constants } from 'node:fs'
import { copyFile, mkdir, rename, stat, unlink } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { EngineEmitter } from '../events'
import type { Upload, UploadStore } from '../store/uploads'
import { errnoCode, numberedNames } from '../util'

export const UPLOADED_DIR = 'Uploaded'

async function exists(p: string): Promise<boolean> {
  try {
    await stat(p)
    return true
  } catch {
    return false
  }
}

async function freeName(dir: string, name: string): Promise<string> {
  for (const n of numberedNames(name)) {
    const candidate = join(dir, n)
    if (!(await exists(candidate))) return candidate
  }
  throw new Error(`Could not find a free file name for ${name} in ${dir}.`)
}

/** Moves `src` into `dir` and returns the new path. Throws with a plain message on failure. */
export async function moveInto(src: string, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true })
  const dest = await freeName(dir, basename(src))
  try {
    await rename(src, dest)
  } catch (e) {
    if (errnoCode(e) !== 'EXDEV') throw e
    // Another disk: copy without overwriting, then remove the original.
    await copyFile(src, dest, constants.COPYFILE_EXCL)
    await unlink(src)
  }
  return dest
}

/**
 * The after-upload step of a completed row: moves its file when the folder asks for it, unless the
 * file changed since it was sent; a failure is noted on the row (and told), never thrown.
 */
export async function afterRecord(row: Upload, uploads: UploadStore, events: EngineEmitter): Promise<void> {
  if (row.afterUpload === 'leave' || !row.archiveDir) return
  try {
    const s = await stat(row.path)
    if (s.size !== row.size || Math.floor(s.mtimeMs) !== row.mtimeMs) {
      uploads.note(row.id, 'completed', {
        movedTo: '',
        lastError: 'Uploaded; the file changed since, so it was left in place.',
      })
      return
    }
    const dest = await moveInto(row.path, row.archiveDir)
    const next = uploads.note(row.id, 'completed', { movedTo: dest })
    if (next) events.emit('upload', { upload: next, previous: 'completed' })
  } catch (e) {
    const code = errnoCode(e)
    const message =
      code === 'ENOENT'
        ? 'Uploaded; the file had already been moved or deleted.'
        : `Uploaded, but the file could not be moved to ${row.archiveDir}: ${(e as Error).message}`
    uploads.note(row.id, 'completed', { movedTo: '', lastError: message })
    if (code !== 'ENOENT')
      events.emit('notice', { level: 'warning', message: `${row.name}: ${message}` })
  }
}
