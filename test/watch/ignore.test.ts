import { describe, expect, it } from 'vitest'
import { EPOCH_CUTOFF_THRESHOLD_MS, cutoffFor, isIgnoredName } from '../../src-main/core/watch'

describe('isIgnoredName', () => {
  it.each([
    '.DS_Store',
    '.hidden.pdf',
    '.#receipt.pdf', // emacs lock
    '._receipt.pdf', // AppleDouble
    '.~lock.sheet.xlsx#', // LibreOffice lock
    '~$report.docx', // Office owner file
    '~$',
    'scan.tmp',
    'SCAN.TMP',
    'scan.pdf.temp',
    'statement.pdf.part',
    'statement.pdf.partial',
    'statement.pdf.crdownload',
    'statement.pdf.download',
    'statement.pdf.opdownload',
    'invoice.pdf.swp',
    '.invoice.pdf.swp',
    'invoice.pdf.swo',
    'invoice.pdf.swx',
    'invoice.pdf~',
    '#invoice.pdf#', // emacs autosave
    'Thumbs.db',
    'thumbs.db',
    'ehthumbs.db',
    'desktop.ini',
    'Desktop.ini',
    '$RECYCLE.BIN',
    'System Volume Information',
    'Icon\r',
    'receipt.pdf.sb-5f2a9c1e-Q8xYzA', // macOS safe-save copy
    'page.pdf.crswap',
    '',
    '.',
    '..',
  ])('ignores %j', (name) => {
    expect(isIgnoredName(name)).toBe(true)
  })

  it.each([
    'receipt.pdf',
    'Receipt 2024-03-01.PDF',
    'statement.csv',
    'no-extension',
    'tmp.pdf', // "tmp" as a stem is fine
    'part-1.jpg',
    'my~file.png', // a tilde inside the name
    '#1 receipt.pdf', // starts with # but does not end with it
    'reçu café ☕ 東京.pdf',
    'thumbs.db.pdf',
    'a'.repeat(240) + '.pdf',
  ])('keeps %j', (name) => {
    expect(isIgnoredName(name)).toBe(false)
  })
})

describe('cutoffFor (ignoreOlderThanMs)', () => {
  it('counts a duration back from start', () => {
    expect(cutoffFor(60_000, 1_700_000_000_000)).toBe(1_700_000_000_000 - 60_000)
  })
  it('takes a value of 1e12 or more as an epoch time', () => {
    expect(cutoffFor(EPOCH_CUTOFF_THRESHOLD_MS + 5, 1_800_000_000_000)).toBe(EPOCH_CUTOFF_THRESHOLD_MS + 5)
    expect(cutoffFor(1_700_000_000_000, 1_800_000_000_000)).toBe(1_700_000_000_000)
  })
  it('has no cut-off when unset or not a number', () => {
    expect(cutoffFor(undefined, 1)).toBeUndefined()
    expect(cutoffFor(Number.NaN, 1)).toBeUndefined()
  })
})
