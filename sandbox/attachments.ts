/**
 * Attachment bytes for the emulator's AI creates (2.4): decoding `base64` and `raw` on arrival,
 * fetching `url` once over https with a timeout, and the digests written to the create log.
 */
import { createHash } from 'node:crypto'
import https from 'node:https'
import { type Attachment, LIMITS } from '../schemas'
import { AttachmentError } from './attachment-error'
import { type DocumentTasks, withDocumentText } from './documents'
import type { SourceFile } from './extract'
import type { TaskPool } from '../workers/pool'

export { AttachmentError } from './attachment-error'

/** An attachment as accepted: bytes already decoded, or a URL still to fetch. */
export type PendingFile = { name: string | null; bytes: Buffer } | { name: string | null; url: string }

export interface FetchOptions {
  /** Extra trusted CA certificates (PEM). */
  ca?: string
  timeoutMs: number
  maxBytes: number
}

const MIB = 1024 * 1024

function tooLarge(label: string, bytes: number | null, max: number): AttachmentError {
  const size = bytes === null ? 'larger than' : `${bytes} bytes, more than`
  return new AttachmentError(
    `${label} is ${size} the largest attachment accepted (${max} bytes, ${max / MIB} MiB)`,
  )
}

/** The name an attachment goes by: its `name`, else the last segment of its URL path. */
function nameOf(a: Attachment): string | null {
  if (a.name) return a.name
  if (a.type !== 'url') return null
  try {
    const last = new URL(a.file).pathname.split('/').pop()
    return last ? decodeURIComponent(last) : null
  } catch {
    return null
  }
}

/** Decodes inline attachments at once (throwing when one is too large); URLs are kept for later. */
export function acceptAttachment(
  a: Attachment,
  index: number,
  maxBytes = LIMITS.maxAttachmentBytes,
): PendingFile {
  const name = nameOf(a)
  if (a.type === 'url') return { name, url: a.file }
  const bytes = a.type === 'base64' ? Buffer.from(a.file, 'base64') : Buffer.from(a.file, 'latin1')
  if (bytes.length > maxBytes)
    throw tooLarge(`attachments.${index}${name ? ` "${name}"` : ''}`, bytes.length, maxBytes)
  return { name, bytes }
}

/** A URL fit for a message: origin and path, never the query (it may hold a signature). */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url)
    return `${u.origin}${u.pathname}`
  } catch {
    return 'the url'
  }
}

/** GETs `url` once: no retry, no redirect; any status but 2xx, an error or the timeout rejects. */
export function fetchOnce(url: string, opts: FetchOptions): Promise<Buffer> {
  const where = describeUrl(url)
  return new Promise((resolve, reject) => {
    let settled = false
    const finish = (err: AttachmentError | null, body?: Buffer) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      if (err) {
        req.destroy()
        reject(err)
      } else resolve(body ?? Buffer.alloc(0))
    }
    const req = https.get(url, opts.ca ? { ca: opts.ca } : {}, (res) => {
      const status = res.statusCode ?? 0
      if (status < 200 || status > 299) {
        res.resume()
        return finish(
          new AttachmentError(`fetching ${where} failed: HTTP ${status} (a 2xx answer is required)`),
        )
      }
      const chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > opts.maxBytes) finish(tooLarge(`the file at ${where}`, null, opts.maxBytes))
        else chunks.push(chunk)
      })
      res.on('end', () => finish(null, Buffer.concat(chunks)))
      res.on('close', () => {
        if (!res.complete)
          finish(new AttachmentError(`fetching ${where} failed: the connection closed early`))
      })
    })
    req.on('error', (e) => finish(new AttachmentError(`fetching ${where} failed: ${e.message}`)))
    const timer = setTimeout(
      () => finish(new AttachmentError(`fetching ${where} timed out after ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    )
  })
}

/**
 * Fetches every URL attachment (once each) and returns all files with their bytes, and the text of
 * the documents among them (PDF, e-mail: documents.ts).
 */
export async function resolveFiles(
  pending: PendingFile[],
  opts: FetchOptions,
  documents: TaskPool<DocumentTasks>,
): Promise<SourceFile[]> {
  const files = await Promise.all(
    pending.map(async (p) => ('url' in p ? { name: p.name, bytes: await fetchOnce(p.url, opts) } : p)),
  )
  return withDocumentText(files, documents)
}

export function digest(file: SourceFile): { name: string | null; sha256: string; bytes: number } {
  return {
    name: file.name,
    sha256: createHash('sha256').update(file.bytes).digest('hex'),
    bytes: file.bytes.length,
  }
}
