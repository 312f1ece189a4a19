/**
 * A mail's body text as the queue sends it (`text_attachment`, through its `textOf` hook): read
 * from the file the runner kept, and checked to be the version recorded.
 */
import { readFile } from 'node:fs/promises'
import type { Upload } from '../store/uploads'

/** Reads a mail's body text file for sending (checks it is the version recorded). */
export async function readBodyText(row: Pick<Upload, 'path' | 'name' | 'size' | 'sha256'>): Promise<string> {
  let buf: Buffer
  try {
    buf = await readFile(row.path)
  } catch (e) {
    const code = (e as { code?: string }).code
    throw Object.assign(new Error(`The text of this mail (${row.path}) is no longer there.`), {
      status: 0,
      errorCode: code === 'ENOENT' ? 'file_not_found' : 'file_read_error',
      retryable: false,
    })
  }
  const { createHash } = await import('node:crypto')
  if (
    (row.size !== null && buf.length !== row.size) ||
    (row.sha256 !== null && createHash('sha256').update(buf).digest('hex') !== row.sha256)
  ) {
    throw Object.assign(new Error(`"${row.name}" changed on disk after it was queued; nothing was sent.`), {
      status: 0,
      errorCode: 'file_superseded',
      retryable: false,
    })
  }
  return buf.toString('utf8')
}
