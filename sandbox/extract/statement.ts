/**
 * CSV bank statements: the rows of a statement (RFC 4180-style CSV, any of `,` `;` tab), its
 * columns from a header row when it has one, and each row's date, narration and signed amount.
 */
import { roundMoney } from '../../schemas'
import { CURRENCY_MARK_RE, findDate } from './fields'

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
