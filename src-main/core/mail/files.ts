/**
 * Where mail receipts are kept: `<dataDir>/mail/<account>/<UIDVALIDITY>-<UID>/<part>/<name>`, in
 * folders only this user can open (0700) and files only this user can read (0600). An attachment
 * is streamed from the server to its file and hashed on the way; intake takes it once it is whole.
 * The row's name is the attachment's own (the server detects the type by it).
 */
import { createWriteStream } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { privateDir } from '../store/private-dir'

export const MAIL_DIR = 'mail'

/** A mail part's folder (one per part, so two attachments of one name never meet). */
export function partDir(
  dataDir: string,
  accountId: string,
  uidValidity: string,
  uid: number,
  part: string,
): string {
  const safeAccount = accountId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64)
  const safePart = part.replace(/[^0-9.a-z]/gi, '_').slice(0, 32)
  return join(dataDir, MAIL_DIR, safeAccount, `${uidValidity.replace(/\D/g, '')}-${uid}`, safePart)
}

/** A file kept: where it is, its size and its sha256. */
export interface SavedFile {
  path: string
  size: number
  sha256: string
}

/** `dir/name`, its folder made (private) first. */
async function fileIn(dir: string, name: string): Promise<string> {
  await privateDir(dir)
  return join(dir, name)
}

/**
 * Streams `source` into `dir/name`, at most `maxBytes`, hashing the bytes as they are written.
 * A download cut short leaves a partial file nothing refers to: intake takes a file only once it
 * is whole, and the next try writes it again from the start.
 */
export async function saveStream(
  dir: string,
  name: string,
  source: Readable,
  maxBytes: number,
): Promise<SavedFile> {
  const path = await fileIn(dir, name)
  const hash = createHash('sha256')
  let bytes = 0
  await pipeline(
    source,
    async function* (chunks: AsyncIterable<Buffer>) {
      for await (const c of chunks) {
        bytes += c.length
        if (bytes > maxBytes) throw new Error(`the attachment is larger than ${maxBytes} bytes`)
        hash.update(c)
        yield c
      }
    },
    createWriteStream(path, { mode: 0o600 }),
  )
  return { path, size: bytes, sha256: hash.digest('hex') }
}

/** Writes a small attachment fetched whole to `dir/name`; returns its path, size and sha256. */
export async function saveBytes(dir: string, name: string, bytes: Buffer): Promise<SavedFile> {
  const path = await fileIn(dir, name)
  await writeFile(path, bytes, { mode: 0o600 })
  return { path, size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }
}

/** Writes text to `dir/name`. Returns the path. */
export async function saveText(dir: string, name: string, text: string): Promise<string> {
  const path = await fileIn(dir, name)
  await writeFile(path, text, { mode: 0o600 })
  return path
}
