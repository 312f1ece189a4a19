/**
 * Text of the documents a receipt usually arrives as, for the emulator's extraction (extract.ts):
 * PDF (unpdf, the serverless build of Mozilla's PDF.js) and e-mail (.eml, postal-mime, including
 * the text of PDFs attached to it). TXT and CSV are read as they are by extract.ts.
 *
 * A document that cannot be read (a scanned PDF with no text layer, a damaged or encrypted file, an
 * image) gives null: extraction then falls back to the prompt, as the real service would with an
 * unreadable scan. A document built to cost more than it is worth (streams that expand past
 * MAX_DECODED_BYTES, an e-mail over MAX_EMAIL_BYTES) is refused: DocumentRefused, whose message
 * says why. The parsing runs in the documents worker (documents-worker.ts, withDocumentText), never
 * on the thread that answers HTTP, with the limits of DOCUMENT_LIMITS.
 */
import { availableParallelism } from 'node:os'
import { fileKind } from '../schemas'
import { TaskError, TaskPool, WorkerLimitError } from '../workers/pool'
import { AttachmentError } from './attachment-error'
import { BINARY_KINDS, type ExtractInput, type Extraction, REFUSED_KINDS, type SourceFile, TEXT_KINDS } from './extract'
import { type DecodeBudget, DocumentRefused, decodeBudget, measurePdfStreams } from './pdf-streams'

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

/** A run of a page's text layer, as PDF.js gives it (a marked-content item has no `str`). */
export type TextRun = { str: string; hasEOL?: boolean } | { type: string }

/**
 * A page's text runs as lines: runs joined by a space (unless one ends in a space already), a new
 * line where a run ends one. Linear in the runs: each line is a list of parts joined once, and
 * whether it ends in a space is the last run's own end (testing the growing line with endsWith
 * flattened it at every run: a page of a million runs took minutes).
 */
export function pageText(items: readonly TextRun[]): string {
  const lines: string[] = []
  let parts: string[] = []
  for (const item of items) {
    if (!('str' in item)) continue
    if (item.str) parts.push(item.str)
    if (item.hasEOL) {
      lines.push(parts.join(''))
      parts = []
    } else if (item.str && !item.str.endsWith(' ')) parts.push(' ')
  }
  if (parts.length > 0) lines.push(parts.join(''))
  return lines.join('\n')
}

/** Text runs read from one document at most (runs without text count too: a page can hold millions). */
export const MAX_TEXT_RUNS = 400_000

/**
 * The text layer of a PDF, page by page and line by line, or null (no text, damaged, encrypted).
 * Before PDF.js sees the file, its streams are measured (pdf-streams.ts): one that would expand
 * past what is left of `budget` refuses the document (DocumentRefused, with the reason). The text
 * is read as a stream and reading stops once MAX_DOCUMENT_TEXT characters or MAX_TEXT_RUNS runs are
 * in, so a page of a million tiny runs costs what its first runs cost.
 */
export async function pdfText(bytes: Uint8Array, budget: DecodeBudget = decodeBudget()): Promise<string | null> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const measured = await measurePdfStreams(buffer, budget)
  // A ciphered PDF's streams cannot be measured: it is not read (like a scan, the prompt is used).
  if (measured.encrypted) return null
  const { getDocumentProxy } = await import('unpdf')
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>> | null = null
  try {
    // A copy: PDF.js transfers (detaches) the buffer it is given.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false })
    const pages: string[] = []
    let chars = 0
    let runs = 0
    for (let n = 1; n <= Math.min(pdf.numPages, MAX_PDF_PAGES) && chars < MAX_DOCUMENT_TEXT && runs < MAX_TEXT_RUNS; n++) {
      const page = await pdf.getPage(n)
      const reader = page.streamTextContent().getReader()
      const items: TextRun[] = []
      for (;;) {
        const { value, done } = await reader.read()
        if (done) break
        for (const item of value.items as TextRun[]) {
          items.push(item)
          if ('str' in item) chars += item.str.length + 1
        }
        runs += value.items.length
        if (chars >= MAX_DOCUMENT_TEXT || runs >= MAX_TEXT_RUNS) {
          await reader.cancel(new Error('enough text')).catch(() => undefined)
          break
        }
      }
      pages.push(pageText(items))
    }
    return tidy(pages.join('\n\n'))
  } catch {
    return null
  } finally {
    await pdf?.destroy().catch(() => undefined)
  }
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' }

/** Elements whose content is not text: dropped with their content when they are closed. */
const HIDDEN_OPEN = /<(script|style|head)\b/iy
const HIDDEN_CLOSE: Record<string, RegExp> = {
  script: /<\/script\s*>/gi,
  style: /<\/style\s*>/gi,
  head: /<\/head\s*>/gi,
}
/** Tags that end a line of text; any other tag (a table cell's end included) is a space. */
const LINE_END_TAG = /^(?:<br\s*\/?>|<\/(?:p|div|tr|li|h\d|table)\s*>)$/i

/**
 * Visible text of an HTML body: tags dropped, block ends as line breaks, common entities decoded;
 * script, style and head dropped with their content. One pass over the body, so its cost is linear
 * in its size: each `<` is read once, up to its `>`, and a search that finds no closing `>` or
 * `</script>` is not repeated (the regular expressions this replaces scanned to the end of the body
 * again for every `<` of a body made of them: a 400 KB e-mail took minutes).
 */
export function htmlText(html: string): string {
  const out: string[] = []
  const unclosed = new Set<string>()
  let i = 0
  while (i < html.length) {
    const lt = html.indexOf('<', i)
    if (lt < 0) {
      out.push(html.slice(i))
      break
    }
    out.push(html.slice(i, lt))
    HIDDEN_OPEN.lastIndex = lt
    const hidden = HIDDEN_OPEN.exec(html)?.[1]?.toLowerCase()
    if (hidden && !unclosed.has(hidden)) {
      const close = HIDDEN_CLOSE[hidden]!
      close.lastIndex = lt
      const end = close.exec(html)
      if (end) {
        out.push(' ')
        i = end.index + end[0].length
        continue
      }
      unclosed.add(hidden) // none to the end: no later one of this kind is closed either
    }
    const gt = html.indexOf('>', lt + 1)
    if (gt < 0) {
      // No tag can end any more: the rest is text.
      out.push(html.slice(lt))
      break
    }
    const tag = html.slice(lt, gt + 1)
    out.push(LINE_END_TAG.test(tag) ? '\n' : ' ')
    i = gt + 1
  }
  return out.join('').replace(/&(#\d+|#x[\da-f]+|[a-z]+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const code = e[1]?.toLowerCase() === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m
    }
    return ENTITIES[e.toLowerCase()] ?? m
  })
}

/** Largest e-mail read (the emulator's attachment limit; benchmarks raise that one, not this). */
export const MAX_EMAIL_BYTES = 30 * 1024 * 1024
/** PDFs attached to one e-mail that are read, and the largest one read; others are left unread. */
export const MAX_ATTACHED_PDFS = 5
export const MAX_ATTACHED_PDF_BYTES = 20 * 1024 * 1024

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`
}

/**
 * An e-mail as text: who sent it ("From: <name>", a vendor when the body names none), the subject,
 * the body (plain text, else the HTML's text), the text of attached PDFs, and the date it was sent
 * (last, so a date printed in the receipt wins). The attached PDFs share one decode budget: an
 * e-mail is one document, however many parts it has.
 */
export async function emlText(bytes: Uint8Array): Promise<string | null> {
  if (bytes.byteLength > MAX_EMAIL_BYTES)
    throw new DocumentRefused(`the e-mail is ${megabytes(bytes.byteLength)}, over the ${megabytes(MAX_EMAIL_BYTES)} Bookdrop reads`)
  const budget = decodeBudget()
  try {
    const { default: PostalMime } = await import('postal-mime')
    const mail = await PostalMime.parse(bytes, { attachmentEncoding: 'arraybuffer' })
    const parts: string[] = []
    const from = mail.from && 'name' in mail.from ? mail.from.name || mail.from.address : null
    if (from) parts.push(`From: ${from}`)
    if (mail.subject) parts.push(mail.subject)
    const body = mail.text?.trim() ? mail.text : mail.html ? htmlText(mail.html) : ''
    if (body.trim()) parts.push(body)
    let pdfs = 0
    for (const a of mail.attachments) {
      const name = a.filename ?? ''
      if (a.mimeType !== 'application/pdf' && fileKind(name) !== 'pdf') continue
      const content = typeof a.content === 'string' ? Buffer.from(a.content) : new Uint8Array(a.content)
      if (++pdfs > MAX_ATTACHED_PDFS || content.byteLength > MAX_ATTACHED_PDF_BYTES) continue
      const text = await pdfText(content, budget)
      if (text) parts.push(text)
    }
    const sent = mail.date ? new Date(mail.date) : null
    if (sent && !Number.isNaN(sent.getTime())) parts.push(`Sent ${sent.toISOString().slice(0, 10)}`)
    return tidy(parts.join('\n'))
  } catch (e) {
    if (e instanceof DocumentRefused) throw new DocumentRefused(`an attached PDF: ${e.message}`)
    return null
  }
}

/**
 * The text of a PDF or e-mail attachment (null when it has none), or undefined for other kinds.
 * Throws DocumentRefused (its message says why) for a document past a bound of pdf-streams.ts or
 * of the e-mail.
 */
export async function documentText(file: SourceFile): Promise<string | null | undefined> {
  if (isEml(file)) return emlText(file.bytes)
  if (isPdf(file)) return pdfText(file.bytes)
  return undefined
}

/** What the documents worker (documents-worker.ts) offers. */
export type DocumentTasks = {
  documentText(file: { name: string | null; bytes: Uint8Array }): Promise<string | null | undefined>
  /** extract.ts's extraction of a request whose documents were read (withDocumentText). */
  extract(input: ExtractInput): Extraction
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
      // A limit of the worker, or a refusal of the document itself (pdf-streams.ts, the e-mail's bounds).
      if ((e instanceof WorkerLimitError && e.kind !== 'stopped') || e instanceof TaskError)
        throw new AttachmentError(`${f.name ?? 'the attachment'} could not be read: ${e.message}`)
      throw e
    }
  }
  return out
}

/**
 * extract.ts's extraction, run in the documents worker: it reads the text of every attachment and
 * of the prompt, which a request of the emulator's body limit makes megabytes of. Past a limit of
 * the worker the extraction fails with the limit as its reason (the job fails, `direct` answers 400).
 */
export async function extractInWorker(input: ExtractInput, pool: TaskPool<DocumentTasks>): Promise<Extraction> {
  try {
    // Not one document's input limit: the request's text and all its files, each bounded already
    // (the body limit, the attachment limit of each fetched file).
    return await pool.run('extract', input, { maxInputBytes: Infinity })
  } catch (e) {
    if ((e instanceof WorkerLimitError && e.kind !== 'stopped') || e instanceof TaskError)
      return { ok: false, reason: `the attachments could not be read: ${e.message}` }
    throw e
  }
}
