/**
 * Deterministic "AI" extraction for the emulator: no model, only rules a test can predict.
 *
 * - Amounts, dates and a vendor/contact are read from the prompt, `text_attachment` and text-like
 *   attachments (see `classifyFile`).
 * - A CSV bank statement gives one bank transaction per data row.
 * - A PDF or e-mail attachment is read through its text (documents.ts sets `text`), like a text file.
 * - Any other binary attachment (image, spreadsheet, a PDF without text...) gives one record named
 *   after its file, with the prompt's fields.
 * - One record per attachment; with no attachments, one record from the prompt and text_attachment.
 * - An executable or archive attachment on a non-bank pipeline, or the marker `[[sandbox:fail]]`
 *   anywhere in the text, makes the extraction fail with a reason naming the cause.
 *
 * Everything here is pure: no I/O, no clock (the caller passes `today`).
 */
import { type AiTarget, fileKind, isCalendarDate, roundMoney } from '../schemas'

// ---------------------------------------------------------------------------------------------
// Inputs and outputs
// ---------------------------------------------------------------------------------------------

/** An attachment after decoding (base64, raw) or fetching (url). */
export interface SourceFile {
  name: string | null
  bytes: Buffer
  /**
   * The text of a document (PDF, e-mail) read before extraction (documents.ts): null when it has
   * none (a scan, a damaged file); absent for other kinds, which are read from their bytes.
   */
  text?: string | null
}

export interface ExtractInput {
  target: AiTarget
  prompt: string
  textAttachment?: string
  files: SourceFile[]
  /** YYYY-MM-DD used when no date is found. */
  today: string
}

/** What one created record is built from. `source` is the index of its file in `files`, or null. */
export interface Draft {
  date: string
  narration: string
  amount: number
  /** ISO code when the text names one (NGN, ₦, $…); null: the business's currency. */
  currency: string | null
  contact: string | null
  source: number | null
}

export type Extraction = { ok: true; drafts: Draft[] } | { ok: false; reason: string }

export const FAIL_MARKER = '[[sandbox:fail]]'

/** Kinds read as text by extension. */
export const TEXT_KINDS: readonly string[] = ['txt', 'csv', 'md', 'json', 'html', 'xml', 'eml']
/** Kinds that are binary documents whatever their bytes look like (a tiny PDF can be pure ASCII). */
export const BINARY_KINDS: readonly string[] =
  'pdf jpg jpeg png webp gif bmp tif tiff heic xlsx xls ods doc docx odt'.split(' ')
/** Executables and archives: no pipeline reads them (bank upload already refuses them by its kind list). */
export const REFUSED_KINDS: readonly string[] =
  'exe dll so dylib bin msi bat cmd com sh ps1 jar apk dmg iso zip rar 7z tar gz tgz bz2 xz'.split(' ')

export type FileClass = 'text' | 'binary' | 'refused'

/** By extension first; a file with an unknown or no extension is text when it is NUL-free UTF-8. */
export function classifyFile(file: SourceFile): FileClass {
  const kind = fileKind(file.name ?? undefined)
  if (REFUSED_KINDS.includes(kind)) return 'refused'
  if (TEXT_KINDS.includes(kind)) return 'text'
  if (BINARY_KINDS.includes(kind)) return 'binary'
  return looksLikeText(file.bytes) ? 'text' : 'binary'
}

export function looksLikeText(bytes: Buffer): boolean {
  if (bytes.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}

export function decodeText(bytes: Buffer): string {
  return new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '')
}

// ---------------------------------------------------------------------------------------------
// Fields from free text
// ---------------------------------------------------------------------------------------------

export interface Fields {
  amount: number | null
  /** The currency of that amount (or, when it has none, the first one the text names). */
  currency: string | null
  date: string | null
  vendor: string | null
}

const CURRENCY_CODES = 'NGN USD EUR GBP KES GHS ZAR CAD AUD INR XOF XAF EGP'.split(' ')
const CURRENCY_SYMBOLS = '₦$€£'
/** What a currency symbol stands for ("$" is read as US dollars). */
const SYMBOL_CODES: Record<string, string> = { '₦': 'NGN', $: 'USD', '€': 'EUR', '£': 'GBP' }

function currencyCode(mark: string | undefined): string | null {
  if (!mark) return null
  return SYMBOL_CODES[mark] ?? (CURRENCY_CODES.includes(mark.toUpperCase()) ? mark.toUpperCase() : null)
}
const NUMBER_SRC = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`
/** A currency marker then a number, or a number not glued to a word, "#", "/" or "-" (INV-1001). */
const MONEY_RE = new RegExp(
  String.raw`(?:(?<cur>[${CURRENCY_SYMBOLS}]|\b(?:${CURRENCY_CODES.join('|')})(?![A-Za-z]))\s?|(?<![\w.,#/-]))(?<num>${NUMBER_SRC})(?![\w]|[.,]\d)`,
  'gu',
)
const ISO_DATE_RE = /\b(\d{4})-(\d{2})-(\d{2})\b/g
const DMY_DATE_RE = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g
/** Keywords after which the amount is the one wanted, most specific first. */
const AMOUNT_KEYWORDS = [/\b(?:amount|balance) due\b/gi, /\bgrand total\b/gi, /\btotal\b/gi]

interface MoneyToken {
  value: number
  currency: string | null
  grouped: boolean
}

function moneyTokens(text: string): MoneyToken[] {
  // Dates are blanked first so 2026-01-05 never reads as an amount.
  const blanked = text
    .replace(ISO_DATE_RE, (m) => ' '.repeat(m.length))
    .replace(DMY_DATE_RE, (m) => ' '.repeat(m.length))
  const out: MoneyToken[] = []
  for (const m of blanked.matchAll(MONEY_RE)) {
    const num = m.groups?.num ?? ''
    out.push({
      value: Number(num.replace(/,/g, '')),
      currency: currencyCode(m.groups?.cur),
      grouped: /[,.]/.test(num),
    })
  }
  return out.filter((t) => Number.isFinite(t.value))
}

/**
 * The amount of a text: the first amount after "amount due"/"balance due", else "grand total", else
 * the last "total" that has one; else the first currency-marked amount ("₦12,500", "$12.50",
 * "NGN 5000"); else the first number with separators or decimals ("1,234.56"); else the largest number.
 */
export function findAmount(text: string): number | null {
  return findMoney(text).amount
}

/** The amount of a text (see findAmount) and its currency, else the first currency the text names. */
export function findMoney(text: string): { amount: number | null; currency: string | null } {
  const tokens = moneyTokens(text)
  const named =
    tokens.find((t) => t.currency)?.currency ?? currencyCode(text.match(CURRENCY_MARK_RE)?.[0]) ?? null
  const found = (t: MoneyToken) => ({ amount: roundMoney(t.value), currency: t.currency ?? named })
  for (const kw of AMOUNT_KEYWORDS) {
    const hits = [...text.matchAll(kw)].reverse()
    for (const hit of hits) {
      const after = text.slice((hit.index ?? 0) + hit[0].length, (hit.index ?? 0) + hit[0].length + 80)
      const first = moneyTokens(after)[0]
      if (first) return found(first)
    }
  }
  const pick =
    tokens.find((t) => t.currency) ??
    tokens.find((t) => t.grouped) ??
    tokens.reduce<MoneyToken | undefined>((best, t) => (!best || t.value > best.value ? t : best), undefined)
  return pick ? found(pick) : { amount: null, currency: named }
}

const pad2 = (s: string) => s.padStart(2, '0')

/** The first real calendar date written YYYY-MM-DD or DD/MM/YYYY, as YYYY-MM-DD. */
export function findDate(text: string): string | null {
  const found: { index: number; date: string }[] = []
  for (const m of text.matchAll(ISO_DATE_RE)) found.push({ index: m.index ?? 0, date: m[0] })
  for (const m of text.matchAll(DMY_DATE_RE)) {
    found.push({ index: m.index ?? 0, date: `${m[3]}-${pad2(m[2] ?? '')}-${pad2(m[1] ?? '')}` })
  }
  found.sort((a, b) => a.index - b.index)
  return found.find((f) => isCalendarDate(f.date))?.date ?? null
}

/**
 * Characters of a line looked at after "at", "from" or "vendor:": a name is cut at 80, so a longer
 * look changes nothing but the cost. Each candidate costs at most this much, so finding a vendor is
 * linear in the text (issue 23: "at 1 at 1 …" re-read the rest of the line for every "at").
 */
export const NAME_WINDOW = 200
/** The name is captured in a lookahead so a rejected candidate ("at 10:30") does not hide a later one. */
const VENDOR_PATTERNS = [
  new RegExp(String.raw`\b(?:vendor|supplier|merchant|payee)\s*[:-]\s*(?=([^\n]{1,${NAME_WINDOW}}))`, 'gi'),
  new RegExp(String.raw`\bfrom:?\s+(?=([^\n]{1,${NAME_WINDOW}}))`, 'gi'),
  new RegExp(String.raw`\bat\s+(?=([^\n]{1,${NAME_WINDOW}}))`, 'gi'),
]
/**
 * Where a name stops: punctuation, a dash, a joining word, a currency, or a number that looks like
 * an amount or a date (3+ digits, separators, decimals, a slash); "Kiosk 24 Lekki" keeps its 24.
 */
const NAME_END =
  /[,;!?|()<>]|\.(?:\s|$)|\s[-–—]\s|\s(?:on|for|dated|total|amount|worth|paid|with|via|and)\b|[₦$€£]|\s\d{3,}|\s\d+[.,/]\d|\s(?:NGN|USD|EUR|GBP)\b/i

/**
 * Words that point at the document itself, not at who issued it: "from the receipt taxi.pdf" in
 * Bookdrop's default prompt is not a vendor called "the receipt taxi.pdf".
 */
const DOCUMENT_REFERENCE =
  /^(?:(?:the|this|that|a|an|my|our|attached)\s+)?(?:receipts?|documents?|files?|attachments?|invoices?|bills?|statements?|images?|photos?|pictures?|scans?|e-?mails?|pdfs?)\b/i
/** A file name in the candidate ("taxi-receipt.pdf"): a reference to a file, not a vendor. */
const FILE_NAME = new RegExp(String.raw`[\w-]\.(?:${[...TEXT_KINDS, ...BINARY_KINDS].join('|')})\b`, 'i')

/** The vendor name at the start of `raw` (the rest of a line), or null; reads at most NAME_WINDOW characters. */
export function cleanName(raw: string): string | null {
  const head = raw.slice(0, NAME_WINDOW)
  const end = NAME_END.exec(head)
  const cut = (end ? head.slice(0, end.index) : head)
    .trim()
    .replace(/^["'“”]+|["'“”.:]+$/g, '')
    .trim()
  if (!cut || /^\d/.test(cut) || !/\p{L}/u.test(cut)) return null
  if (DOCUMENT_REFERENCE.test(cut) || FILE_NAME.test(cut)) return null
  return cut.slice(0, 80)
}

/** A vendor named by "vendor: X" (also supplier, merchant, payee), "from X" or "at X". */
export function findVendor(text: string): string | null {
  for (const re of VENDOR_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const name = cleanName(m[1] ?? '')
      if (name) return name
    }
  }
  return null
}

export function firstLine(text: string): string | null {
  const line = text.split(/\r?\n/).find((l) => /\p{L}/u.test(l))
  return line ? line.trim().slice(0, 120) : null
}

export function extractFields(text: string): Fields {
  return { ...findMoney(text), date: findDate(text), vendor: findVendor(text) }
}

// ---------------------------------------------------------------------------------------------
// CSV bank statements
// ---------------------------------------------------------------------------------------------

function detectDelimiter(text: string): string {
  const line = text.split(/\r?\n/).find((l) => l.trim()) ?? ''
  const outsideQuotes = line.replace(/"[^"]*"/g, '')
  const counts = [',', ';', '\t'].map((d) => ({ d, n: outsideQuotes.split(d).length - 1 }))
  const best = counts.reduce((a, b) => (b.n > a.n ? b : a))
  return best.n > 0 ? best.d : ','
}

/** RFC 4180-style CSV: quoted fields may hold the delimiter, newlines and doubled quotes. */
export function parseCsv(text: string): string[][] {
  const delim = detectDelimiter(text)
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  // Whether cell.trim() is empty, kept up to date as characters are added: a quote opens a quoted
  // cell only then. Calling cell.trim() at every quote made a cell full of quotes cost its length squared.
  let blank = true
  let quoted = false
  const add = (c: string) => {
    cell += c
    if (blank && c.trim() !== '') blank = false
  }
  const endCell = () => {
    row.push(cell.trim())
    cell = ''
    blank = true
  }
  const endRow = () => {
    endCell()
    if (row.some((v) => v !== '')) rows.push(row)
    row = []
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i] ?? ''
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        add('"')
        i++
      } else if (c === '"') quoted = false
      else add(c)
    } else if (c === '"' && blank) {
      quoted = true
      cell = ''
    } else if (c === delim) endCell()
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      endRow()
    } else add(c)
  }
  if (cell !== '' || row.length > 0) endRow()
  return rows
}

const CURRENCY_MARK_RE = new RegExp(
  `[${CURRENCY_SYMBOLS}]|\\b(?:${CURRENCY_CODES.join('|')})(?![A-Za-z])`,
  'g',
)

/** "1,234.50", "-12.5", "(12.50)", "₦5,000", "NGN 5000", "12.50 DR" → signed number; else null. */
export function parseMoneyCell(cell: string): number | null {
  let s = cell.replace(CURRENCY_MARK_RE, '').trim()
  let negative = false
  if (/^\(.*\)$/.test(s)) {
    negative = true
    s = s.slice(1, -1).trim()
  }
  if (/\s*DR$/i.test(s)) negative = true
  s = s.replace(/\s*(?:DR|CR)$/i, '')
  if (s.startsWith('-')) negative = !negative
  s = s.replace(/^[-+]\s*/, '').replace(/,/g, '')
  if (!/^\d+(?:\.\d+)?$/.test(s)) return null
  const n = roundMoney(Number(s))
  return negative ? -n : n
}

interface Columns {
  date?: number
  description?: number
  amount?: number
  debit?: number
  credit?: number
}

const HEADER_RULES: [keyof Columns, RegExp][] = [
  ['date', /date/],
  ['debit', /debit|withdrawal|money out|paid out|^dr$/],
  ['credit', /credit|deposit|money in|paid in|^cr$/],
  ['amount', /amount|^value$/],
  ['description', /desc|narration|details|particulars|memo|remark|payee|reference|transaction|^name$/],
]

/** Column positions from a header row, or null when the row is data (it holds a date or an amount). */
export function detectHeader(row: string[]): Columns | null {
  if (row.some((c) => findDate(c) !== null || parseMoneyCell(c) !== null)) return null
  const cols: Columns = {}
  const used = new Set<number>()
  for (const [field, re] of HEADER_RULES) {
    const i = row.findIndex((c, idx) => {
      const h = c.toLowerCase()
      if (used.has(idx) || h.includes('balance') || (field !== 'date' && h.includes('date'))) return false
      return re.test(h)
    })
    if (i >= 0) {
      cols[field] = i
      used.add(i)
    }
  }
  return Object.keys(cols).length > 0 ? cols : null
}

export interface StatementRow {
  date: string | null
  narration: string | null
  amount: number | null
}

function rowWithHeader(row: string[], cols: Columns): StatementRow {
  const cell = (i: number | undefined) => (i === undefined ? '' : (row[i] ?? ''))
  let amount = parseMoneyCell(cell(cols.amount))
  if (cols.amount === undefined && (cols.debit !== undefined || cols.credit !== undefined)) {
    const debit = parseMoneyCell(cell(cols.debit))
    const credit = parseMoneyCell(cell(cols.credit))
    amount = debit === null && credit === null ? null : roundMoney((credit ?? 0) - Math.abs(debit ?? 0))
  }
  return { date: findDate(cell(cols.date)), narration: cell(cols.description) || null, amount }
}

/** No header: the first date cell, the last money cell, the first other text cell. */
function rowWithoutHeader(row: string[]): StatementRow {
  const dateIdx = row.findIndex((c) => findDate(c) !== null)
  const moneyIdx = row.findLastIndex((c, i) => i !== dateIdx && parseMoneyCell(c) !== null)
  const text = row.find((c, i) => i !== dateIdx && i !== moneyIdx && c !== '')
  return {
    date: dateIdx >= 0 ? findDate(row[dateIdx] ?? '') : null,
    narration: text ?? null,
    amount: moneyIdx >= 0 ? parseMoneyCell(row[moneyIdx] ?? '') : null,
  }
}

/** One entry per data row; rows with neither a date nor an amount (titles, footers) are skipped. */
export function statementRows(text: string): StatementRow[] {
  const rows = parseCsv(text)
  const first = rows[0]
  const cols = first ? detectHeader(first) : null
  const data = cols ? rows.slice(1) : rows
  return data
    .map((r) => (cols ? rowWithHeader(r, cols) : rowWithoutHeader(r)))
    .filter((r) => r.date !== null || r.amount !== null)
}

// ---------------------------------------------------------------------------------------------
// Drafts
// ---------------------------------------------------------------------------------------------

function fileLabel(file: SourceFile, index: number): string {
  return file.name ?? `attachment ${index + 1}`
}

interface Context {
  input: ExtractInput
  /** Prompt and text_attachment together: the fallback for every field. */
  base: Fields
  promptLine: string
}

function promptDraft(ctx: Context): Draft {
  return {
    date: ctx.base.date ?? ctx.input.today,
    narration: ctx.promptLine,
    amount: ctx.base.amount ?? 0,
    currency: ctx.base.currency,
    contact: ctx.base.vendor,
    source: null,
  }
}

function binaryDraft(ctx: Context, file: SourceFile, index: number): Draft {
  return {
    date: ctx.base.date ?? ctx.input.today,
    narration: fileLabel(file, index),
    amount: ctx.base.amount ?? 0,
    currency: ctx.base.currency,
    contact: ctx.base.vendor,
    source: index,
  }
}

function textDraft(ctx: Context, text: string, file: SourceFile, index: number): Draft {
  const own = extractFields(text)
  const vendor = own.vendor ?? ctx.base.vendor ?? firstLine(text)
  const amount = own.amount ?? ctx.base.amount
  return {
    date: own.date ?? ctx.base.date ?? ctx.input.today,
    narration: vendor ?? fileLabel(file, index),
    amount: amount ?? 0,
    // The currency that goes with the amount taken: the file's own, or the prompt's.
    currency: own.amount !== null ? (own.currency ?? ctx.base.currency) : (ctx.base.currency ?? own.currency),
    contact: vendor,
    source: index,
  }
}

function statementDrafts(ctx: Context, text: string, file: SourceFile, index: number): Draft[] {
  return statementRows(text).map((r, row) => ({
    date: r.date ?? ctx.input.today,
    narration: r.narration ?? `${fileLabel(file, index)} row ${row + 1}`,
    amount: r.amount ?? 0,
    currency: null,
    contact: null,
    source: index,
  }))
}

function fileDrafts(ctx: Context, file: SourceFile, index: number): Extraction {
  const cls = classifyFile(file)
  const label = fileLabel(file, index)
  if (cls === 'refused') {
    return {
      ok: false,
      reason: `"${label}" is an executable or archive (.${fileKind(file.name ?? undefined)}), which cannot be read: send a PDF, an image, a spreadsheet or a text file`,
    }
  }
  if (cls === 'binary') {
    // A PDF (or e-mail) with a text layer is read like a text file; a scan, an image: the prompt.
    return {
      ok: true,
      drafts: [file.text ? textDraft(ctx, file.text, file, index) : binaryDraft(ctx, file, index)],
    }
  }
  const text = file.text ?? decodeText(file.bytes)
  if (text.includes(FAIL_MARKER))
    return { ok: false, reason: `"${label}" asked the sandbox to fail (${FAIL_MARKER})` }
  if (ctx.input.target === 'bank-transactions' && fileKind(file.name ?? undefined) === 'csv') {
    const drafts = statementDrafts(ctx, text, file, index)
    return drafts.length > 0
      ? { ok: true, drafts }
      : { ok: false, reason: `"${label}" has no transaction rows` }
  }
  return { ok: true, drafts: [textDraft(ctx, text, file, index)] }
}

/** Turns an AI create request into drafts of the records to create, or a reason it cannot. */
export function extract(input: ExtractInput): Extraction {
  const baseText = [input.prompt, input.textAttachment ?? ''].join('\n')
  if (baseText.includes(FAIL_MARKER)) {
    return {
      ok: false,
      reason: `the request asked the sandbox to fail (${FAIL_MARKER} in prompt or text_attachment)`,
    }
  }
  const ctx: Context = {
    input,
    base: extractFields(baseText),
    promptLine: firstLine(input.prompt) ?? input.prompt.trim().slice(0, 120),
  }
  if (input.files.length === 0) return { ok: true, drafts: [promptDraft(ctx)] }
  const drafts: Draft[] = []
  for (const [index, file] of input.files.entries()) {
    const r = fileDrafts(ctx, file, index)
    if (!r.ok) return r
    drafts.push(...r.drafts)
  }
  return { ok: true, drafts }
}
