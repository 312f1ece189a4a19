import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readFile } from 'node:fs/promises'

/** Files up to this size are read in one call (cheaper than a stream); larger ones are streamed. */
const WHOLE_READ_BYTES = 1024 * 1024

/** sha256 of a file; streamed above 1 MiB, so memory does not grow with the file. */
export async function sha256File(path: string, sizeHint?: number): Promise<string> {
  if (sizeHint !== undefined && sizeHint <= WHOLE_READ_BYTES) {
    return createHash('sha256')
      .update(await readFile(path))
      .digest('hex')
  }
  return new Promise((resolve, reject) => {
    const h = createHash('sha256')
    const s = createReadStream(path, { highWaterMark: 256 * 1024 })
    s.on('data', (c) => h.update(c))
    s.on('error', reject)
    s.on('end', () => resolve(h.digest('hex')))
  })
}
