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
import { type AiTarget, fileKind } from '../schemas'
import { type Fields, extractFields, firstLine } from './extract/fields'
import { type SourceFile, classifyFile, decodeText } from './extract/files'
import { statementRows } from './extract/statement'

export {
  BINARY_KINDS,
  type FileClass,
  REFUSED_KINDS,
  type SourceFile,
  TEXT_KINDS,
  classifyFile,
  decodeText,
  looksLikeText,
} from './extract/files'
export {
  type Fields,
  NAME_WINDOW,
  cleanName,
  extractFields,
  findAmount,
  findDate,
  findMoney,
  findVendor,
  firstLine,
} from './extract/fields'
export { type StatementRow, detectHeader, parseCsv, parseMoneyCell, statementRows } from './extract/statement'

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
