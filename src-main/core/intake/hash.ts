import { type Hash, createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { type FileHandle, readFile } from 'node:fs/promises'

/** Files up to this size are read in one call (cheaper than a stream); larger ones are streamed. */
export const WHOLE_READ_BYTES = 1024 * 1024

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

/** sha256 of an open file, read from its start (the descriptor checked by openInside). */
export async function sha256Handle(handle: FileHandle, sizeHint: number): Promise<string> {
  const h = createHash('sha256')
  if (sizeHint <= WHOLE_READ_BYTES) {
    // Not zero-filled: only the bytes read are hashed.
    const buf = Buffer.allocUnsafe(sizeHint + 1)
    let got = 0
    for (;;) {
      const { bytesRead } = await handle.read(buf, got, buf.length - got, got)
      if (bytesRead === 0) break
      got += bytesRead
      if (got === buf.length) break
    }
    h.update(buf.subarray(0, got))
    // Grew while being read: hash the rest too (the caller sees the size change).
    return got <= sizeHint ? h.digest('hex') : hashFrom(handle, h, got)
  }
  return hashFrom(handle, h, 0)
}

/** Feeds `h` the file's bytes from `pos` to its end, 256 KiB at a time, and returns the digest. */
async function hashFrom(handle: FileHandle, h: Hash, pos: number): Promise<string> {
  const chunk = Buffer.alloc(256 * 1024)
  for (;;) {
    const { bytesRead } = await handle.read(chunk, 0, chunk.length, pos)
    if (bytesRead === 0) break
    h.update(chunk.subarray(0, bytesRead))
    pos += bytesRead
  }
  return h.digest('hex')
}

/**
 * The bytes of an open file of about `size` bytes, from its start; one byte more is asked for, so a
 * file that grew meanwhile comes back longer than `size` (the caller sees the change).
 */
export async function readAll(handle: FileHandle, size: number): Promise<Buffer> {
  // Not zero-filled: only the bytes read are handed out (the subarray below).
  const buf = Buffer.allocUnsafe(size + 1)
  let got = 0
  while (got < buf.length) {
    const { bytesRead } = await handle.read(buf, got, buf.length - got, got)
    if (bytesRead === 0) break
    got += bytesRead
  }
  return buf.subarray(0, got)
}
