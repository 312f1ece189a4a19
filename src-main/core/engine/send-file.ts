/** The file of a row as the queue reads it to send it, opened inside its folder at send time. */
import type { FolderStore } from '../folders'
import { rowName } from '../intake/intake'
import { printable } from '../names'
import type { SendFile } from '../queue/queue'
import type { Upload } from '../store/uploads'
import { type InsideFs, openInside, realPathOf } from '../watch/inside'
import { TRANSIENT_CODES } from '../watch/io'

/** Errors of an open that pass: the process or system out of descriptors or memory, a disk's hiccup. */
const OPEN_AGAIN: ReadonlySet<string> = new Set([...TRANSIENT_CODES, 'EIO', 'EBUSY', 'ENOMEM', 'ETIMEDOUT', 'ESTALE'])

function openProblem(code: string): string {
  if (code === 'EMFILE' || code === 'ENFILE') return `too many files are open, ${code}`
  if (code === 'EIO') return 'the disk reported a read error, EIO'
  if (code === 'EBUSY') return 'another program holds it, EBUSY'
  return `the system said ${code}`
}

/**
 * Opened where it is checked (a watched folder's file must still lie inside the folder, so a link
 * swapped in after intake cannot win), and read only through that very descriptor, on every system
 * and at every size: a link swapped in after the check is never opened. Its size, mtime and sha256
 * must still match the row (the client checks them), so nothing else can be sent.
 */
export async function fileForSend(row: Upload, folders: FolderStore, fs: InsideFs = {}): Promise<SendFile> {
  const folder = row.folderId ? folders.get(row.folderId) : undefined
  const root = folder ? await realPathOf(folder.path).catch(() => folder.path) : null
  const opened = await openInside(row.path, root, fs)
  if (!opened.ok) {
    const failure = (errorCode: string, message: string) =>
      Object.assign(new Error(message), { status: 0, errorCode, retryable: false })
    if (opened.why === 'outside')
      throw failure(
        'file_outside_folder',
        `${rowName(row.path)} is now a link to a file outside the watched folder (${printable(opened.realPath)}); nothing was sent.`,
      )
    if (opened.why === 'not_file')
      throw failure('not_a_file', `${rowName(row.path)} is not a regular file any more; nothing was sent.`)
    if (opened.why === 'error' && opened.code === 'ENOENT')
      throw failure('file_not_found', `${rowName(row.path)} was moved or deleted before it was sent.`)
    // An error that passes (too many open files, a read error): the row waits and tries again.
    if (opened.why === 'error' && OPEN_AGAIN.has(opened.code))
      throw failure('file_unavailable', `${rowName(row.path)} could not be opened (${openProblem(opened.code)}).`)
    // The path changed while it was opened: try again shortly. Another error lasts (no permission).
    throw failure(
      opened.why === 'changed' ? 'file_changed' : 'file_read_error',
      `${rowName(row.path)} could not be opened to send it (${opened.message}).`,
    )
  }
  const handle = opened.handle
  // Every byte sent is read through this descriptor, whatever the size; the path only names it.
  return { path: row.path, handle, release: () => handle.close().catch(() => undefined) }
}
