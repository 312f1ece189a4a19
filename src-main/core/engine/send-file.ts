/** The file of a row as the queue reads it to send it, opened inside its folder at send time. */
import type { FolderStore } from '../folders'
import { rowName } from '../intake/intake'
import { printable } from '../names'
import type { SendFile } from '../queue/queue'
import type { Upload } from '../store/uploads'
import { type InsideFs, PROC_FD, openInside, realPathOf } from '../watch/inside'

/**
 * Opened where it is checked (a watched folder's file must still lie inside the folder, so a link
 * swapped in after intake cannot win), and, on Linux, read through that very descriptor
 * (`/proc/self/fd/N`; it also reads a name that is not UTF-8). Elsewhere the row's path is read
 * after the check: its size, mtime and sha256 must still match the row (the client checks them),
 * so nothing else can be sent.
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
    // The path changed while it was opened, or a read error: try again shortly (same key).
    throw failure(
      opened.why === 'changed' ? 'file_changed' : 'file_read_error',
      `${rowName(row.path)} could not be opened to send it (${opened.message}).`,
    )
  }
  const handle = opened.handle
  const release = () => handle.close().catch(() => undefined)
  // A receipt-sized file is read through this descriptor; a large one streams from its path.
  const procFd = fs.procFd === undefined ? PROC_FD : fs.procFd
  if (procFd) return { path: `${procFd}/${handle.fd}`, handle, release }
  return { path: row.path, handle, release }
}
