/**
 * What happens to a source file once its record exists: left in place, moved into the folder's
 * `Uploaded/` subfolder, or moved to an archive folder. Never before the record exists; never
 * over another file (a clash gets " (2)", " (3)"…); across disks by copy then delete.
 */
import { constants } from 'node:fs'
import { copyFile, mkdir, rename, stat, unlink } from 'node:fs/promises'
import { basename, extname, join } from 'node:path'

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
  const ext = extname(name)
  const stem = ext ? name.slice(0, -ext.length) : name
  let candidate = join(dir, name)
  for (let n = 2; await exists(candidate); n++) candidate = join(dir, `${stem} (${n})${ext}`)
  return candidate
}

/** Moves `src` into `dir` and returns the new path. Throws with a plain message on failure. */
export async function moveInto(src: string, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true })
  const dest = await freeName(dir, basename(src))
  try {
    await rename(src, dest)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e
    // Another disk: copy without overwriting, then remove the original.
    await copyFile(src, dest, constants.COPYFILE_EXCL)
    await unlink(src)
  }
  return dest
}
