/**
 * The emulator's deterministic extraction (sandbox/extract.ts), rule by rule, without HTTP.
 * The same rules are exercised end to end in jobs-ai-create.test.ts.
 */
import { describe, expect, it } from 'vitest'
import {
  FAIL_MARKER,
  type SourceFile,
  classifyFile,
  extract,
  findAmount,
  findDate,
  findVendor,
  parseCsv,
  parseMoneyCell,
  statementRows,
} from '../../sandbox/extract'

const file = (name: string | null, content: string | Buffer): SourceFile => ({
  name,
  bytes: typeof content === 'string' ? Buffer.from(content) : content,
})
const BINARY = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0xfe])

describe('amounts', () => {
  it('accepts "1,234.56", "₦12,500", "$12.50", "NGN 5000" (and NGN5000)', () => {
    expect(findAmount('paid 1,234.56 today')).toBe(1234.56)
    expect(findAmount('paid ₦12,500 today')).toBe(12500)
    expect(findAmount('coffee $12.50')).toBe(12.5)
    expect(findAmount('plumber NGN 5000')).toBe(5000)
    expect(findAmount('plumber NGN5000')).toBe(5000)
  })

  it('prefers the amount after "amount due", then "total" (not "subtotal")', () => {
    expect(findAmount('Subtotal 100\nTax 7.50\nTotal 107.50')).toBe(107.5)
    expect(findAmount('Total 9,000\nAmount due: 7,000.00')).toBe(7000)
    expect(findAmount('3 items ₦900 each, total ₦2,700')).toBe(2700)
  })

  it('then a currency-marked amount, then one with separators, then the largest number', () => {
    expect(findAmount('2 bags at 1,000.00 each = ₦2,000')).toBe(2000)
    expect(findAmount('2 bags at 1,000.00 each')).toBe(1000)
    expect(findAmount('Bought 3 bags for 4500')).toBe(4500)
  })

  it('never reads a date or an identifier as an amount', () => {
    expect(findAmount('INV-1001 dated 2026-01-05 and 05/01/2026')).toBeNull()
    expect(findAmount('no numbers here')).toBeNull()
  })
})

describe('dates', () => {
  it('YYYY-MM-DD or DD/MM/YYYY, first real calendar date wins', () => {
    expect(findDate('on 2026-01-03')).toBe('2026-01-03')
    expect(findDate('on 5/1/2026')).toBe('2026-01-05')
    expect(findDate('31/02/2026 is not a date, 2026-02-28 is')).toBe('2026-02-28')
    expect(findDate('2023-02-29')).toBeNull()
  })

  it('no date → today', () => {
    const r = extract({ target: 'expenses', prompt: 'Taxi 2,000', files: [], today: '2030-06-01' })
    expect(r).toMatchObject({ ok: true, drafts: [{ date: '2030-06-01', amount: 2000 }] })
  })
})

describe('vendor', () => {
  it('from "vendor: X", "from X", "at X"', () => {
    expect(findVendor('vendor: Flour Mills Nigeria\nTotal 5')).toBe('Flour Mills Nigeria')
    expect(findVendor('Invoice from Acme Ltd. for cakes')).toBe('Acme Ltd')
    expect(findVendor('Lunch at Chicken Republic total ₦12,500')).toBe('Chicken Republic')
    expect(findVendor('coffee at 10:30 at Cafe Lumen, thanks')).toBe('Cafe Lumen')
    expect(findVendor('at Kiosk 24 Lekki 4,500')).toBe('Kiosk 24 Lekki')
  })

  it('else the first non-empty line of a text attachment', () => {
    const r = extract({
      target: 'bills',
      prompt: 'record',
      files: [file('r.txt', '\n\nSHOPRITE LEKKI\nTotal 3,000')],
      today: '2026-01-01',
    })
    expect(r).toMatchObject({
      ok: true,
      drafts: [{ contact: 'SHOPRITE LEKKI', narration: 'SHOPRITE LEKKI', amount: 3000 }],
    })
  })
})

describe('file kinds', () => {
  it('text by extension, binary by extension, refused executables and archives', () => {
    expect(classifyFile(file('a.csv', BINARY))).toBe('text')
    expect(classifyFile(file('a.pdf', '%PDF-1.4 ascii only'))).toBe('binary')
    expect(classifyFile(file('setup.EXE', 'MZ'))).toBe('refused')
    expect(classifyFile(file('a.zip', 'PK'))).toBe('refused')
  })

  it('unknown extension: valid UTF-8 without NUL is text, anything else binary', () => {
    expect(classifyFile(file('note', 'Total ₦500'))).toBe('text')
    expect(classifyFile(file(null, BINARY))).toBe('binary')
    expect(classifyFile(file('x.dat', Buffer.from([0xc3, 0x28])))).toBe('binary')
  })

  it('one record per attachment; a binary one is named after its file with the prompt amount', () => {
    const r = extract({
      target: 'expenses',
      prompt: 'Fuel ₦8,000',
      files: [file('fuel.pdf', BINARY), file('b.txt', 'Total 10'), file(null, BINARY)],
      today: '2026-01-01',
    })
    expect(r).toMatchObject({
      ok: true,
      drafts: [
        { narration: 'fuel.pdf', amount: 8000, source: 0 },
        { amount: 10, source: 1 },
        { narration: 'attachment 3', amount: 8000, source: 2 },
      ],
    })
  })

  it('an executable fails the extraction with a reason naming the file', () => {
    const r = extract({ target: 'income', prompt: 'x', files: [file('tool.dll', 'MZ')], today: '2026-01-01' })
    expect(r).toEqual({ ok: false, reason: expect.stringContaining('"tool.dll"') })
  })

  it(`the ${FAIL_MARKER} marker fails it, in the prompt, text_attachment or a text file`, () => {
    const base = { target: 'expenses' as const, today: '2026-01-01' }
    expect(extract({ ...base, prompt: FAIL_MARKER, files: [] }).ok).toBe(false)
    expect(extract({ ...base, prompt: 'x', textAttachment: FAIL_MARKER, files: [] }).ok).toBe(false)
    expect(extract({ ...base, prompt: 'x', files: [file('a.txt', FAIL_MARKER)] }).ok).toBe(false)
  })
})

describe('CSV bank statements', () => {
  it('quoted fields hold delimiters, newlines and doubled quotes', () => {
    expect(parseCsv('a,"b, c","say ""hi""","two\nlines"\r\n\r\n1,2,3,4')).toEqual([
      ['a', 'b, c', 'say "hi"', 'two\nlines'],
      ['1', '2', '3', '4'],
    ])
    expect(parseCsv('a;b\n1;2')).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ])
  })

  it('money cells: separators, currency, sign, parentheses, DR', () => {
    expect(parseMoneyCell('1,234.50')).toBe(1234.5)
    expect(parseMoneyCell('₦5,000')).toBe(5000)
    expect(parseMoneyCell('NGN 5000')).toBe(5000)
    expect(parseMoneyCell('-12.5')).toBe(-12.5)
    expect(parseMoneyCell('(4,500)')).toBe(-4500)
    expect(parseMoneyCell('450.50 DR')).toBe(-450.5)
    expect(parseMoneyCell('2026-01-02')).toBeNull()
    expect(parseMoneyCell('')).toBeNull()
  })

  it('header with debit and credit: credit − debit; balance ignored; footer rows skipped', () => {
    const csv =
      'Date,Narration,Debit,Credit,Balance\n2026-01-02,Flour,"12,000",,88000\n03/01/2026,Sales,,500,88500\n,Closing balance,,,88500\n'
    expect(statementRows(csv)).toEqual([
      { date: '2026-01-02', narration: 'Flour', amount: -12000 },
      { date: '2026-01-03', narration: 'Sales', amount: 500 },
    ])
  })

  it('header with one amount column; "Transaction Date" is the date, not the description', () => {
    const csv =
      'Transaction Date,Value Date,Details,Amount (NGN)\n2026-01-02,2026-01-03,POS Shoprite,(4500)\n'
    expect(statementRows(csv)).toEqual([{ date: '2026-01-02', narration: 'POS Shoprite', amount: -4500 }])
  })

  it('no header: the date cell, the last money cell, the first other text', () => {
    expect(statementRows('2026-01-02;Fuel;-500\n2026-01-03;Sales;1200\n')).toEqual([
      { date: '2026-01-02', narration: 'Fuel', amount: -500 },
      { date: '2026-01-03', narration: 'Sales', amount: 1200 },
    ])
  })

  it('bank pipeline: one draft per row; other pipelines read a CSV as one text record', () => {
    const csv = file('s.csv', 'Date,Description,Amount\n2026-01-02,A,1\n2026-01-03,B,2\n')
    const bank = extract({ target: 'bank-transactions', prompt: 'Jan', files: [csv], today: '2026-01-01' })
    expect(bank.ok && bank.drafts.map((d) => d.narration)).toEqual(['A', 'B'])
    const expense = extract({ target: 'expenses', prompt: 'Jan', files: [csv], today: '2026-01-01' })
    expect(expense.ok && expense.drafts).toHaveLength(1)
  })
})
