/**
 * History as CSV (RFC 4180), one line at a time. A file name is whatever a person, a mail sender or
 * a shared folder called it, so no cell may ever become a formula, whichever separator the
 * spreadsheet that opens the file splits at (`,`, or `;` in much of Europe, or tab):
 *
 * - a text cell that starts with `=`, `+`, `-`, `@`, tab or CR is neutralised as OWASP advises: an
 *   apostrophe in front; and so is every separator or line break inside a cell that is followed by
 *   one of those (`x;=1+1;.txt` becomes `x;'=1+1;.txt`): a spreadsheet that splits at `;` does not
 *   see the quotes of a `,` file, and would start a cell there;
 * - every cell holding `,` `;` `"` CR LF or tab is quoted (`"` doubled), so a `;` or `,`
 *   spreadsheet keeps it one cell;
 * - control and bidirectional characters (U+202E turns `gpj.exe` around) are written as `<U+202E>`.
 */
import { once } from 'node:events'
import { createWriteStream } from 'node:fs'
import type { Upload } from './uploads'

const COLUMNS: [string, (u: Upload) => unknown][] = [
  ['id', (u) => u.id],
  ['created_at', (u) => new Date(u.createdAt).toISOString()],
  ['file', (u) => u.name],
  ['path', (u) => u.path],
  ['size_bytes', (u) => u.size],
  ['sha256', (u) => u.sha256],
  ['target', (u) => u.target],
  ['source', (u) => u.source],
  ['status', (u) => u.status],
  ['reason', (u) => u.reason],
  ['message', (u) => u.lastError],
  ['attempts', (u) => u.attempts],
  ['job_reference', (u) => u.jobReference],
  ['record_uuid', (u) => u.recordUuid],
  ['duplicate_of', (u) => u.duplicateOf],
  ['moved_to', (u) => u.movedTo],
  ['completed_at', (u) => (u.completedAt ? new Date(u.completedAt).toISOString() : null)],
  ['mail_from', (u) => u.mailFrom],
  ['mail_subject', (u) => u.mailSubject],
]

/**
 * Where a spreadsheet may start a new cell inside ours: the separators spreadsheets split at, and a
 * line break (a spreadsheet that splits at `;` does not see the quotes of our `,` cells).
 */
const BREAKS = ',;\\t\\r\\n'
/** What makes a spreadsheet read a cell as a formula (or a DDE call) when it comes first. */
const TRIGGERS = '=+\\-@\\t\\r'
const STARTS_AS_FORMULA = new RegExp(`^[${TRIGGERS}]`)
const FORMULA_INSIDE = new RegExp(`([${BREAKS}])(?=[${TRIGGERS}])`, 'g')
const NEEDS_QUOTES = /[",;\r\n\t]/
/**
 * Control characters (tab, CR and LF excepted: quoted, they are data), bidirectional controls, and
 * line and paragraph separators: never written as they are.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
const INVISIBLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g

/**
 * One cell: text escaped, neutralised and quoted as above; numbers as they are; null empty. A cell
 * that starts like a formula gets an apostrophe in front, and so does every place inside it where a
 * spreadsheet splitting at another separator would start a cell that looks like one
 * (`x;=1+1;.txt` is written `x;'=1+1;.txt`).
 */
export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (typeof v !== 'string') return String(v)
  let s = v.replace(INVISIBLE, (c) => `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}>`)
  s = s.replace(FORMULA_INSIDE, "$1'")
  if (STARTS_AS_FORMULA.test(s)) s = `'${s}`
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s
}

export function* toCsv(rows: Iterable<Upload>): Generator<string> {
  yield COLUMNS.map(([h]) => h).join(',') + '\r\n'
  for (const u of rows) yield COLUMNS.map(([, f]) => csvCell(f(u))).join(',') + '\r\n'
}

/** Writes rows as CSV to `destination`, streaming row by row. Returns the number of rows. */
export async function writeCsv(rows: Iterable<Upload>, destination: string): Promise<number> {
  // Owner-only: the history names every receipt and where it came from.
  const out = createWriteStream(destination, { encoding: 'utf8', mode: 0o600 })
  let n = 0
  for (const line of toCsv(rows)) {
    if (!out.write(line)) await once(out, 'drain')
    n++
  }
  out.end()
  await once(out, 'finish')
  return n - 1 // the header line
}
