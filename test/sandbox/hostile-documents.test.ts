/**
 * Documents built to hurt their reader (issue 23). In the demo the emulator runs inside the app's
 * own process, so a receipt must never cost more than its size says:
 *
 * - the three text routines that were quadratic (the PDF line builder, the HTML tag stripper, the
 *   vendor search; and the CSV reader's quote rule) now cost about ten times more for an input ten
 *   times larger, measured on the very inputs that made them quadratic (the best of a few runs; a
 *   quadratic routine costs a hundred times more, linear about ten);
 * - a PDF whose streams expand to a gigabyte is refused, with the reason, before PDF.js sees it,
 *   whatever filter it hides behind (Flate, a name spelled with #xx, Flate twice, RunLength, LZW);
 * - a PDF of a million text runs is read up to the text kept, well within the reader's limits.
 */
import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { MAX_DOCUMENT_TEXT, emlText, htmlText, pageText, pdfText } from '../../sandbox/documents'
import { extract, findVendor, parseCsv } from '../../sandbox/extract'
import {
  DocumentRefused,
  MAX_DECODED_BYTES,
  decodeBudget,
  measurePdfStreams,
} from '../../sandbox/pdf-streams'
import {
  atOneText,
  emailWithPdf,
  inflateBombPdf,
  lessThanEmail,
  lzwBomb,
  manyRunsPdf,
  pdfWithContent,
  runLengthBomb,
  zeroBomb,
} from '../../scripts/bench/hostile-documents'
import { as1, b64, businessSandbox, createAndWait } from './business-helpers'

const MB = 1024 * 1024

/** The best time of `fn` over a few runs (at least 30 ms of runs), ms; each run gets a fresh input. */
function bestTime(make: () => unknown, fn: (input: never) => unknown, budgetMs = 30): number {
  let best = Infinity
  let spent = 0
  for (let i = 0; i < 5 && (i < 2 || spent < budgetMs); i++) {
    const input = make()
    const t = performance.now()
    fn(input as never)
    const ms = performance.now() - t
    best = Math.min(best, ms)
    spent += ms
  }
  return best
}

/**
 * How much more `fn` costs for an input `factor` times larger. Returns after one run of the large
 * input when that one already costs far more than linear (a quadratic routine is not run again).
 */
function growth(
  make: (size: number) => unknown,
  fn: (input: never) => unknown,
  size: number,
  factor = 10,
): number {
  bestTime(() => make(size), fn) // warm the code up
  const small = Math.max(
    bestTime(() => make(size), fn),
    0.05,
  )
  const big = make(size * factor)
  const t = performance.now()
  fn(big as never)
  const once = performance.now() - t
  if (once / small > factor * 10) return once / small
  return (
    Math.min(
      once,
      bestTime(() => make(size * factor), fn),
    ) / small
  )
}

/** Linear: ten times the input costs about ten times (here at most 30: timing on a shared machine). */
const LINEAR = 30

describe('the text routines are linear in their input', () => {
  it('the vendor search ("at 1 at 1 …": each "at" re-read the rest of the line)', () => {
    for (const unit of ['at 1 ', 'from 1 ', 'vendor: 1 ', 'at the file.pdf ']) {
      expect(
        growth((n) => atOneText(n, unit), findVendor, 20_000),
        unit,
      ).toBeLessThan(LINEAR)
    }
    // The whole extraction of a text attachment, as the emulator runs it.
    const extractText = (text: string) =>
      extract({
        target: 'expenses',
        prompt: 'Receipt',
        files: [{ name: 'r.txt', bytes: Buffer.from(text) }],
        today: '2026-01-01',
      })
    expect(growth((n) => atOneText(n), extractText, 20_000)).toBeLessThan(LINEAR)
  })

  it('the HTML tag stripper (a body of "<", of "<script", of "<br" …)', () => {
    for (const unit of ['<', '<script', '<style x', '<br ', '</p ', '&#1']) {
      expect(
        growth((n) => unit.repeat(n / unit.length), htmlText, 40_000),
        unit,
      ).toBeLessThan(LINEAR)
    }
  })

  it('the PDF line builder (a page of tiny runs with no line end)', () => {
    const runs = (n: number) => Array.from({ length: n / 2 }, () => ({ str: 'a', hasEOL: false }))
    expect(growth(runs, pageText, 40_000)).toBeLessThan(LINEAR)
  })

  it('the CSV reader (a cell full of quotes)', () => {
    expect(growth((n) => `a${'"'.repeat(n)}`, parseCsv, 40_000)).toBeLessThan(LINEAR)
  })

  it('keeps what they read: the same text, fields and lines as before', () => {
    expect(
      htmlText(
        '<html><head><title>x</title></head><body><p>Total<br>NGN&nbsp;5</p><script>1<2</script><td>a</td><td>b</td></body>',
      ),
    ).toBe('    Total\nNGN 5\n  a  b  ')
    expect(htmlText('a < b and c > d')).toBe('a   d')
    expect(htmlText('x <script> no end')).toBe('x   no end')
    expect(htmlText('<script<script>x</script>y<STYLE >c</style >d')).toBe(' y d')
    expect(
      pageText([
        { str: 'Total' },
        { str: '12.50', hasEOL: true },
        { type: 'beginMarkedContent' },
        { str: 'Shop ' },
        { str: 'Ltd' },
      ]),
    ).toBe('Total 12.50\nShop Ltd ')
    expect(findVendor('Paid at 10:30 at Mama Put Kitchen, Lekki')).toBe('Mama Put Kitchen')
    expect(findVendor(`at ${'x'.repeat(300)}`)).toBe('x'.repeat(80))
    expect(parseCsv('a,"b ""c""",  "d"\n1,2,3')).toEqual([
      ['a', 'b "c"', 'd'],
      ['1', '2', '3'],
    ])
  })
})

describe('a PDF whose streams expand past the budget', () => {
  it('is refused before PDF.js sees it, with the reason, after reading no more than the budget', async () => {
    const bomb = inflateBombPdf(1024)
    expect(bomb.length).toBeLessThan(1.1 * MB) // 1 MB on disk, 1 GB inflated
    const budget = decodeBudget()
    await expect(measurePdfStreams(bomb, budget)).rejects.toThrow(DocumentRefused)
    // Stopped just past the budget: the other 900 MB were never inflated.
    expect(budget.left).toBeLessThan(0)
    expect(-budget.left).toBeLessThan(MB)
    await expect(pdfText(bomb)).rejects.toThrow(
      /expand to more than 128 MB, more than Bookdrop reads from one document/,
    )
  })

  it('whatever filter it hides behind', async () => {
    const bombs: [string, Buffer][] = [
      ['a name spelled with #xx', inflateBombPdf(200, '/Fl#61teDecode')],
      ['the short name', inflateBombPdf(200, '/Fl')],
      ['an array of filters', inflateBombPdf(200, '[/FlateDecode]')],
      ['Flate twice', pdfWithContent(deflateSync(zeroBomb(200)), '/Filter [/FlateDecode /FlateDecode]')],
      [
        'ASCIIHex then Flate',
        pdfWithContent(Buffer.from(`${zeroBomb(200).toString('hex')}>`), '/Filter [/AHx /Fl]'),
      ],
      ['RunLength', pdfWithContent(runLengthBomb(MAX_DECODED_BYTES + MB), '/Filter /RunLengthDecode')],
      ['LZW', pdfWithContent(lzwBomb(40_000), '/Filter /LZWDecode')],
      [
        'a filter given by reference',
        pdfWithContent(zeroBomb(200), '/Filter 9 0 R')
          .toString('latin1')
          .replace('%%EOF', '9 0 obj /FlateDecode endobj\n%%EOF'),
      ],
      ['no dictionary it can read', pdfWithContent(zeroBomb(200), '/Filter /FlateDecode /Junk (unclosed')],
    ].map(([what, pdf]) => [
      what as string,
      Buffer.isBuffer(pdf) ? pdf : Buffer.from(pdf as string, 'latin1'),
    ])
    for (const [what, pdf] of bombs) {
      await expect(measurePdfStreams(pdf, decodeBudget()), what).rejects.toThrow(DocumentRefused)
    }
  })

  it('in an e-mail, the attached PDFs share one budget', async () => {
    await expect(emlText(emailWithPdf(inflateBombPdf(200)))).rejects.toThrow(
      /an attached PDF: its compressed parts expand to more than 128 MB/,
    )
    // Two PDFs of 70 MB each: neither is over, together they are.
    const two = emailWithPdf(inflateBombPdf(70))
      .toString('latin1')
      .replace(
        '--b--',
        `${emailWithPdf(inflateBombPdf(70), 'b.pdf').toString('latin1').split('--b\r\n')[2]}--b--`,
      )
    await expect(emlText(Buffer.from(two, 'latin1'))).rejects.toThrow(DocumentRefused)
  })

  it('an ordinary PDF is measured and read as before', async () => {
    const pdf = pdfWithContent(
      deflateSync(Buffer.from('BT /F1 12 Tf 20 700 Td (Total NGN 1,250.00) Tj ET')),
      '/Filter /FlateDecode',
    )
    const report = await measurePdfStreams(pdf, decodeBudget())
    expect(report).toEqual({ encrypted: false, streams: 1 })
    expect(await pdfText(pdf)).toBe('Total NGN 1,250.00')
  })

  it('an encrypted PDF is not handed to PDF.js (its streams cannot be measured): it reads as no text', async () => {
    // (PDF.js itself also gives no text for this one, after inflating its 200 MB: seconds, not milliseconds.)
    const pdf = inflateBombPdf(200).toString('latin1').replace('/Root 1 0 R', '/Root 1 0 R /Encr#79pt 9 0 R')
    expect(await pdfText(Buffer.from(pdf, 'latin1'))).toBeNull()
  })
})

describe('hostile documents sent to the emulator', () => {
  const sb = businessSandbox()

  it('a 1 MB PDF that inflates to 1 GB fails its job with the reason', async () => {
    const job = await createAndWait(sb, '/expenses', {
      prompt: 'Receipt',
      attachments: [{ file: b64(inflateBombPdf(1024)), type: 'base64', name: 'bomb.pdf' }],
    })
    expect(job.status).toBe('failed')
    expect(job.message).toBe(
      'bomb.pdf could not be read: its compressed parts expand to more than 128 MB, more than Bookdrop reads from one document',
    )
  }, 30_000)

  it('a PDF of a million text runs, an e-mail of 400 KB of "<" and a text of 400 KB of "at 1" are read', async () => {
    const pdf = manyRunsPdf(1_000_000)
    expect(pdf.length).toBeLessThan(40 * 1024)
    for (const [name, bytes] of [
      ['runs.pdf', pdf],
      ['lt.eml', lessThanEmail(400 * 1024)],
      ['at.txt', Buffer.from(atOneText(400 * 1024))],
    ] as const) {
      const job = await createAndWait(sb, '/expenses', {
        prompt: 'Receipt',
        attachments: [{ file: b64(bytes), type: 'base64', name }],
      })
      expect(job.status, `${name}: ${job.message}`).toBe('completed')
    }
    // What was kept of the runs: the text kept per document, no more.
    const text = await pdfText(pdf)
    expect(text?.length).toBeLessThanOrEqual(MAX_DOCUMENT_TEXT)
    expect(text?.startsWith('a a a')).toBe(true)
    expect((await as1(sb, 'GET', '/expenses')).status).toBe(200)
  }, 60_000)
})
