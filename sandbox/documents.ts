/**
 * Text of the documents a receipt usually arrives as, for the emulator's extraction (extract.ts):
 * PDF (unpdf, the serverless build of Mozilla's PDF.js) and e-mail (.eml, postal-mime, including
 * the text of PDFs attached to it). TXT and CSV are read as they are by extract.ts.
 *
 * A document that cannot be read (a scanned PDF with no text layer, a damaged file, an image) gives
 * null: extraction then falls back to the prompt, as the real service would with an unreadable scan.
 * Nothing here throws for bad input. The parsing runs in the documents worker (documents-worker.ts,
 * withDocumentText), never on the thread that answers HTTP.
 */
import { availableParallelism } from 'node:os'
import { fileKind } from '../schemas'
import { TaskPool, WorkerLimitError } from '../workers/pool'
import { AttachmentError } from './attachment-error'
import { BINARY_KINDS, REFUSED_KINDS, type SourceFile, TEXT_KINDS } from './extract'

/** Pages read from one PDF: a receipt's total is on its first pages, and a huge PDF must not stall a job. */
export const MAX_PDF_PAGES = 20
/** Characters of text kept per document (extraction looks for a handful of fields). */
export const MAX_DOCUMENT_TEXT = 200_000

const PDF_MAGIC = Buffer.from('%PDF-')
const KNOWN_KINDS = [...TEXT_KINDS, ...BINARY_KINDS, ...REFUSED_KINDS]

/** A .pdf, or a file without a known extension that starts like one. */
function isPdf(file: SourceFile): boolean {
  const kind = fileKind(file.name ?? undefined)
  if (kind === 'pdf') return true
  return !KNOWN_KINDS.includes(kind) && file.bytes.subarray(0, PDF_MAGIC.length).equals(PDF_MAGIC)
}

function isEml(file: SourceFile): boolean {
  return fileKind(file.name ?? undefined) === 'eml'
}

function tidy(text: string): string | null {
  const t = text
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
  return t ? t.slice(0, MAX_DOCUMENT_TEXT) : null
}

/** The text layer of a PDF, page by page and line by line, or null (no text, damaged, encrypted). */
export async function pdfText(bytes: Uint8Array): Promise<string | null> {
  const { getDocumentProxy } = await import('unpdf')
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | null = null
  try {
    // A copy: PDF.js transfers (detaches) the buffer it is given.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false })
    const pages: string[] = []
    for (let n = 1; n <= Math.min(pdf.numPages, MAX_PDF_PAGES); n++) {
      const page = await pdf.getPage(n)
      const content = await page.getTextContent()
      let line = ''
      const lines: string[] = []
      for (const item of content.items) {
        if (!('str' in item)) continue
        line += item.str
        if (item.hasEOL) {
          lines.push(line)
          line = ''
        } else if (item.str && !line.endsWith(' ')) line += ' '
      }
      if (line) lines.push(line)
      pages.push(lines.join('\n'))
    }
    return tidy(pages.join('\n\n'))
  } catch {
    return null
  } finally {
    await pdf?.destroy().catch(() => undefined)
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** Visible text of an HTML body: tags dropped, block ends as line breaks, common entities decoded. */
export function htmlText(html: string): string {
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|tr|li|h\d|table)\s*>/gi, '\n')
    .replace(/<\/t[dh]\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === '#') {
        const code = e[1]?.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m
      }
      return ENTITIES[e.toLowerCase()] ?? m
    })
}

/**
 * An e-mail as text: who sent it ("From: <name>", a vendor when the body names none), the subject,
 * the body (plain text, else the HTML's text), the text of attached PDFs, and the date it was sent
 * (last, so a date printed in the receipt wins).
 */
export async function emlText(bytes: Uint8Array): Promise<string | null> {
  try {
    const { default: PostalMime } = await import('postal-mime')
    const mail = await PostalMime.parse(bytes, { attachmentEncoding: 'arraybuffer' })
    const parts: string[] = []
    const from = mail.from && 'name' in mail.from ? mail.from.name || mail.from.address : null
    if (from) parts.push(`From: ${from}`)
    if (mail.subject) parts.push(mail.subject)
    const body = mail.text?.trim() ? mail.text : mail.html ? htmlText(mail.html) : ''
    if (body.trim()) parts.push(body)
    for (const a of mail.attachments) {
      const name = a.filename ?? ''
      if (a.mimeType !== 'application/pdf' && fileKind(name) !== 'pdf') continue
      const content = typeof a.content === 'string' ? Buffer.from(a.content) : new Uint8Array(a.content)
      const text = await pdfText(content)
      if (text) parts.push(text)
    }
    const sent = mail.date ? new Date(mail.date) : null
    if (sent && !Number.isNaN(sent.getTime())) parts.push(`Sent ${sent.toISOString().slice(0, 10)}`)
    return tidy(parts.join('\n'))
  } catch {
    return null
  }
}

/** The text of a PDF or e-mail attachment (null when it has none), or undefined for other kinds. */
export async function documentText(file: SourceFile): Promise<string | null | undefined> {
  if (isEml(file)) return emlText(file.bytes)
  if (isPdf(file)) return pdfText(file.bytes)
  return undefined
}

/** What the documents worker (documents-worker.ts) offers. */
export type DocumentTasks = {
  documentText(file: { name: string | null; bytes: Uint8Array }): Promise<string | null | undefined>
}

/**
 * The documents worker's limits (workers/pool.ts). A receipt's PDF is read in tens of ms; a hostile
 * one (a content stream that inflates to a gigabyte, a text layer built to be slow) meets one of
 * these instead of stopping the process that answers the API (in the demo: the app's own).
 */
export const DOCUMENT_LIMITS: { timeoutMs: number; maxHeapMb: number } = { timeoutMs: 10_000, maxHeapMb: 256 }

/** A pool of document readers, one per emulator (closed by its stop()). */
export function documentPool(
  maxInputBytes: number,
  limits: Partial<typeof DOCUMENT_LIMITS> = {},
): TaskPool<DocumentTasks> {
  return new TaskPool<DocumentTasks>('documents', {
    limits: { ...DOCUMENT_LIMITS, ...limits, maxInputBytes },
    size: Math.min(2, availableParallelism()),
  })
}

/**
 * The files with `text` set for the documents among them (PDF, e-mail), each read in the documents
 * worker. A document that passes a limit of the reader is an AttachmentError naming the file and the
 * limit (the job fails with it; `direct` answers 400), never a stalled server.
 */
export async function withDocumentText(files: SourceFile[], pool: TaskPool<DocumentTasks>): Promise<SourceFile[]> {
  const out: SourceFile[] = []
  for (const f of files) {
    if (!isEml(f) && !isPdf(f)) {
      out.push(f)
      continue
    }
    try {
      const text = await pool.run('documentText', { name: f.name, bytes: f.bytes })
      out.push(text === undefined ? f : { ...f, text })
    } catch (e) {
      if (e instanceof WorkerLimitError && e.kind !== 'stopped')
        throw new AttachmentError(`${f.name ?? 'the attachment'} could not be read: ${e.message}`)
      throw e
    }
  }
  return out
}
