/**
 * History as CSV (RFC 4180), one line at a time. Cells that a spreadsheet would run as a formula
 * (=, +, -, @ first) are prefixed with an apostrophe: a file name must never become code.
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

export function csvCell(v: unknown): string {
  if (v === null || v === undefined) return ''
  let s = String(v)
  if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = `'${s}`
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s
}

export function* toCsv(rows: Iterable<Upload>): Generator<string> {
  yield COLUMNS.map(([h]) => h).join(',') + '\r\n'
  for (const u of rows) yield COLUMNS.map(([, f]) => csvCell(f(u))).join(',') + '\r\n'
}

/** Writes rows as CSV to `destination`, streaming row by row. Returns the number of rows. */
export async function writeCsv(rows: Iterable<Upload>, destination: string): Promise<number> {
  const out = createWriteStream(destination, { encoding: 'utf8' })
  let n = 0
  for (const line of toCsv(rows)) {
    if (!out.write(line)) await once(out, 'drain')
    n++
  }
  out.end()
  await once(out, 'finish')
  return n - 1 // the header line
}
