/**
 * The document behind a record, read for the Review screen's preview (issue 32). The page names an
 * upload by its id; main decides which local copy that is and reads it where it is allowed to be:
 *
 * - the prepared photo (HEIC → JPEG, scaled) when there is one: inside the data folder;
 * - a watched folder's file: inside that folder (or, once moved after upload, inside the folder it
 *   was moved to), opened with the same check the send path uses (`openInside`: the real path of
 *   the descriptor opened, so a link swapped in cannot point elsewhere);
 * - a mail's part or text, a phone's photo, a file added in the browser: inside the data folder;
 * - a file a person dropped on the desktop window or named on the command line: that file, as
 *   sending it does (the person gave that path).
 *
 * The bytes are read through the checked descriptor, at most MAX_PREVIEW_BYTES, and sniffed: a PDF,
 * a picture a browser shows (JPEG, PNG, GIF, WebP), or text (a mail's body). No path is answered.
 */
import { realpath } from 'node:fs/promises'
import type { ReviewDocument } from '../../../contract/calls/document'
import { MAX_PREVIEW_BYTES, MAX_PREVIEW_TEXT } from '../../../contract/calls/document'
import { AppError } from '../app-error'
import { printable } from '../names'
import type { Upload } from '../store/uploads'
import { type InsideFs, isInsideReal, openInside, realPathOf } from '../watch/inside'

/** The fields of an upload row the reader goes by. */
export type DocumentRow = Pick<Upload, 'name' | 'path' | 'source' | 'folderId' | 'preparedPath' | 'movedTo' | 'archiveDir'>

/** What the reader needs to know about where files may be. */
export interface DocumentPlaces {
  /** Bookdrop's data folder (mail parts, phone photos, browser drops, prepared photos). */
  dataDir: string
  /** A watched folder's path by id (undefined when the folder is gone). */
  folderPath(folderId: string): string | undefined
  fs?: InsideFs
}

const IMAGE_MAGIC: { mime: string; test: (b: Buffer) => boolean }[] = [
  { mime: 'image/jpeg', test: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { mime: 'image/png', test: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { mime: 'image/gif', test: (b) => b.subarray(0, 4).toString('latin1') === 'GIF8' },
  {
    mime: 'image/webp',
    test: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP',
  },
]

/** What the bytes are, by their content (never by the name alone). */
export function sniff(bytes: Buffer): { kind: 'pdf' } | { kind: 'image'; mime: string } | { kind: 'text' } | null {
  // A PDF may have a few bytes before its header (readers look in the first 1024).
  if (bytes.subarray(0, 1024).includes('%PDF-')) return { kind: 'pdf' }
  for (const m of IMAGE_MAGIC) if (m.test(bytes)) return { kind: 'image', mime: m.mime }
  const head = bytes.subarray(0, 8192)
  if (head.includes(0)) return null
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return { kind: 'text' }
  } catch {
    return null
  }
}

async function realOr(p: string): Promise<string | null> {
  return realpath(p).then(
    (r) => r,
    () => null,
  )
}

/** Which file of the row to read, and the folder its real path must lie in (null: the person's own file). */
async function placeOf(row: DocumentRow, places: DocumentPlaces): Promise<{ path: string; root: string | null }> {
  const data = await realOr(places.dataDir)
  if (row.preparedPath) return { path: row.preparedPath, root: data ?? places.dataDir }
  if (row.source === 'watch') {
    if (row.movedTo && row.archiveDir) {
      return { path: row.movedTo, root: await realPathOf(row.archiveDir).catch(() => row.archiveDir) }
    }
    const folder = row.folderId ? places.folderPath(row.folderId) : undefined
    if (!folder) throw new AppError('not_found', `The watched folder of ${printable(row.name)} is no longer set up, so its document cannot be shown.`)
    return { path: row.path, root: await realPathOf(folder).catch(() => folder) }
  }
  if (row.source === 'mail' || row.source === 'phone') return { path: row.path, root: data ?? places.dataDir }
  // A drop: in the browser a copy in the data folder; on the desktop the file the person dropped.
  if (data && isInsideReal(await realPathOf(row.path).catch(() => row.path), data)) return { path: row.path, root: data }
  return { path: row.path, root: null }
}

/** Reads the document of an upload row for the preview, or throws an AppError a person can read. */
export async function readReviewDocument(row: DocumentRow, places: DocumentPlaces): Promise<ReviewDocument> {
  const name = printable(row.name)
  const { path, root } = await placeOf(row, places)
  const opened = await openInside(path, root, places.fs)
  if (!opened.ok) {
    if (opened.why === 'outside') {
      throw new AppError(
        'file_outside_folder',
        `${name} is now a link to a file outside the place Bookdrop took it from, so it is not shown.`,
      )
    }
    if (opened.why === 'error' && opened.code === 'ENOENT') {
      throw new AppError('file_not_found', `${name} is no longer on this computer (moved or deleted), so it cannot be shown.`)
    }
    throw new AppError('file_read_error', `${name} could not be opened to show it (${opened.message}).`)
  }
  const { handle, stat } = opened
  try {
    if (stat.size > MAX_PREVIEW_BYTES) {
      throw new AppError(
        'too_large',
        `${name} is ${Math.round(stat.size / 1024 / 1024)} MB, more than the ${MAX_PREVIEW_BYTES / 1024 / 1024} MB the preview shows: open it from its folder.`,
      )
    }
    // Read through the checked descriptor, never past the cap (the file may grow meanwhile).
    const buf = Buffer.alloc(Math.min(stat.size, MAX_PREVIEW_BYTES))
    let got = 0
    while (got < buf.length) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got)
      if (bytesRead === 0) break
      got += bytesRead
    }
    const bytes = buf.subarray(0, got)
    const kind = sniff(bytes)
    if (!kind) {
      throw new AppError('not_previewable', `${name} is not a PDF, a picture or text the preview can show: open it from its folder.`)
    }
    if (kind.kind === 'text') {
      return { kind: 'text', name, text: bytes.toString('utf8').slice(0, MAX_PREVIEW_TEXT), size: got }
    }
    const base64 = bytes.toString('base64')
    return kind.kind === 'pdf'
      ? { kind: 'pdf', name, mime: 'application/pdf', base64, size: got }
      : { kind: 'image', name, mime: kind.mime, base64, size: got }
  } finally {
    await handle.close().catch(() => undefined)
  }
}
