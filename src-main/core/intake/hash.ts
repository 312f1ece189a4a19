import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'

/** sha256 of a file, streamed (memory does not grow with the file). */
export function sha256File(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const h = createHash('sha256')
    const s = createReadStream(path, { highWaterMark: 256 * 1024 })
    s.on('data', (c) => h.update(c))
    s.on('error', reject)
    s.on('end', () => resolve(h.digest('hex')))
  })
}
