/**
 * Where mail receipts are kept: `<dataDir>/mail/<account>/<UIDVALIDITY>-<UID>/<part>/<name>`, in
 * folders only this user can open (0700) and files only this user can read (0600). An attachment
 * is streamed from the server to a temporary file, then renamed into place: a file under its final
 * name is always whole. The row's name is the attachment's own (the server detects the type by it).
 */
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { extname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

export const MAIL_DIR = 'mail'

/**
 * A file name safe to create in one folder: no separators, `..`, leading dots, control or reserved
 * characters, not a Windows device name; at most 120 characters with the extension kept.
 */
export function safeFileName(raw: string, fallback = 'attachment'): string {
  let n = raw.normalize('NFC')
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  n = n.replace(/[\u0000-\u001f\u007f]/g, '')
  n = n.replace(/[\\/]/g, '_').replace(/[<>:"|?*]/g, '_')
  n = n
    .replace(/\.{2,}/g, '.')
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(n)) n = `_${n}`
  if (n === '') n = fallback
  if (n.length > 120) {
    const ext = extname(n).slice(0, 16)
    n = n.slice(0, 120 - ext.length) + ext
  }
  return n
}

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

async function privateDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 })
}

/** Streams `source` into `dir/name` (through a temporary file), at most `maxBytes`. Returns the path. */
export async function saveStream(
  dir: string,
  name: string,
  source: Readable,
  maxBytes: number,
): Promise<string> {
  await privateDir(dir)
  const final = join(dir, name)
  const tmp = join(dir, `.${process.pid}.download`)
  let bytes = 0
  try {
    await pipeline(
      source,
      async function* (chunks: AsyncIterable<Buffer>) {
        for await (const c of chunks) {
          bytes += c.length
          if (bytes > maxBytes) throw new Error(`the attachment is larger than ${maxBytes} bytes`)
          yield c
        }
      },
      createWriteStream(tmp, { mode: 0o600 }),
    )
    await rename(tmp, final)
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined)
    throw e
  }
  return final
}

/** Writes text to `dir/name` (through a temporary file). Returns the path. */
export async function saveText(dir: string, name: string, text: string): Promise<string> {
  await privateDir(dir)
  const final = join(dir, name)
  const tmp = join(dir, `.${process.pid}.text`)
  await writeFile(tmp, text, { mode: 0o600 })
  await rename(tmp, final)
  return final
}
