/**
 * What happens to a source file once its record exists: left in place, moved into the folder's
 * `Uploaded/` subfolder, or moved to an archive folder. Never before the record exists; never over
 * another file: the move makes a new name for the file and fails if anything already has it (a
 * hard link, `link()`, which the system refuses with EEXIST, then the old name removed), so two
 * files finishing at once can never take the same name; a taken name gets " (2)", " (3)"… Across
 * disks (or where hard links are not supported) the file is copied to a name created exclusively
 * (COPYFILE_EXCL), its times kept, then the original removed.
 */
import { constants } from 'node:fs'
import { copyFile, link, lstat, mkdir, stat, unlink, utimes } from 'node:fs/promises'
import { basename } from 'node:path'
import type { EngineEmitter } from '../events'
import { fsPath, printable } from '../names'
import type { Upload, UploadStore } from '../store/uploads'
import { NoFreeNameError, createAtFreeName, errnoCode, numberedNames } from '../util'
import { coded } from '../../../contract/coded'
import { JOB_STATES } from '../../../contract/main-states'

export const UPLOADED_DIR = 'Uploaded'

/** link() cannot be used here (another disk, a file system without hard links): copy instead. */
const NO_LINK = new Set(['EXDEV', 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EINVAL'])

/**
 * Moves `src` into `dir` under its own name, or the first numbered one that is free at the moment
 * it is taken, and returns the new path. Never replaces a file. Throws with a plain message on
 * failure (the source is then still where it was).
 */
export async function moveInto(src: string, dir: string): Promise<string> {
  await mkdir(fsPath(dir), { recursive: true })
  const source = await lstat(fsPath(src))
  let copy = false
  const take = async (dest: string): Promise<void> => {
    if (!copy) {
      try {
        await link(fsPath(src), fsPath(dest))
        await unlink(fsPath(src))
        return
      } catch (e) {
        const code = errnoCode(e)
        if (code === 'EEXIST') {
          // Linked there by a move the app was stopped in the middle of: finish that one.
          const there = await lstat(fsPath(dest)).catch(() => null)
          if (there && there.dev === source.dev && there.ino === source.ino && source.nlink > 1) {
            await unlink(fsPath(src))
            return
          }
          throw e
        }
        if (!code || !NO_LINK.has(code)) throw e
        copy = true
      }
    }
    // Another disk: an exclusive copy (fails if the name exists), its times kept, then the original removed.
    try {
      await copyFile(fsPath(src), fsPath(dest), constants.COPYFILE_EXCL)
    } catch (e) {
      // A partial copy of ours is removed (never a file that had the name); the original stays.
      if (errnoCode(e) !== 'EEXIST') await unlink(fsPath(dest)).catch(() => undefined)
      throw e
    }
    const st = await stat(fsPath(src))
    await utimes(fsPath(dest), st.atimeMs / 1000, st.mtimeMs / 1000).catch(() => undefined)
    await unlink(fsPath(src))
  }
  try {
    return await createAtFreeName(dir, numberedNames(basename(src)), take)
  } catch (e) {
    if (!(e instanceof NoFreeNameError)) throw e
    throw new Error(`Could not find a free file name for ${printable(basename(src))} in ${printable(dir)}.`)
  }
}

/**
 * The after-upload step of a completed row: moves its file when the folder asks for it, unless the
 * file changed since it was sent; a failure is noted on the row (and told), never thrown.
 */
export async function afterRecord(row: Upload, uploads: UploadStore, events: EngineEmitter): Promise<void> {
  if (row.afterUpload === 'leave' || !row.archiveDir) return
  try {
    const s = await stat(fsPath(row.path))
    if (s.size !== row.size || Math.floor(s.mtimeMs) !== row.mtimeMs) {
      uploads.note(row.id, 'completed', {
        movedTo: '',
        lastError: coded(JOB_STATES.changedAfterUpload),
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
        : `Uploaded, but the file could not be moved to ${printable(row.archiveDir)}: ${printable((e as Error).message)}`
    uploads.note(row.id, 'completed', { movedTo: '', lastError: message })
    if (code !== 'ENOENT')
      events.emit('notice', { level: 'warning', message: `${row.name}: ${message}` })
  }
}
