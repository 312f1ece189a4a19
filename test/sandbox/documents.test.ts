/**
 * The emulator reads documents (issue 12, "demo realism"): PDF text (unpdf), e-mails (postal-mime)
 * with their attached PDFs, TXT and CSV; it fills amount, currency, date and vendor from them, and
 * falls back to the prompt for images and PDFs without text. Every create goes over real HTTP, with
 * the prompt the app sends for a dropped receipt.
 */
import { readFileSync } from 'node:fs'
import { PDFDocument, rgb } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { recordSchema } from '../../schemas'
import { emlText, htmlText, pdfText } from '../../sandbox/documents'
import { findMoney, findVendor } from '../../sandbox/extract'
import { SAMPLE_RECEIPTS } from '../../sandbox/sample-receipts'
import { SAMPLES_FILE, render } from '../../scripts/make-samples'
import { DEFAULT_PROMPTS, renderPrompt } from '../../src-main/core/folders'
import { as1, b64, businessSandbox, createAndWait, dataOf } from './business-helpers'

const sb = businessSandbox()

/** The prompt the app sends with a dropped receipt (the default expense prompt). */
function dropPrompt(name: string): string {
  return renderPrompt(DEFAULT_PROMPTS.expenses, {
    filename: name,
    folder: '/home/ada/Receipts',
    date: new Date(2026, 3, 1),
  })
}

/** Sends one file as the app does and returns the expense it became. */
async function expenseFrom(name: string, bytes: Buffer, prompt = dropPrompt(name)) {
  const attachments = [{ file: b64(bytes), type: 'base64', name }]
  // Generous: the first PDF loads PDF.js, on a machine shared with other test runs.
  const accepted = await createAndWait(sb, '/expenses', { prompt, attachments })
  expect(accepted.status, accepted.message ?? '').toBe('completed')
  return dataOf(recordSchema, await as1(sb, 'GET', `/expenses/${accepted.resource_uuid}`))
}

async function pdfWith(lines: string[]): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([300, 400])
  lines.forEach((text, i) => page.drawText(text, { x: 20, y: 360 - i * 16, size: 10 }))
  return Buffer.from(await doc.save())
}

/** A PDF with no text layer at all, like a scan (a drawing only). */
async function scanLikePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([300, 400])
  page.drawRectangle({ x: 20, y: 20, width: 200, height: 300, color: rgb(0.9, 0.9, 0.9) })
  return Buffer.from(await doc.save())
}

describe('the demo sample receipts', () => {
  it('sandbox/sample-receipts.ts is exactly what scripts/make-samples.ts makes', async () => {
    expect(readFileSync(SAMPLES_FILE, 'utf8')).toBe(await render())
    expect(SAMPLE_RECEIPTS.length).toBeGreaterThanOrEqual(5)
    expect(SAMPLE_RECEIPTS.length).toBeLessThanOrEqual(10)
    expect(new Set(SAMPLE_RECEIPTS.map((s) => s.base64)).size).toBe(SAMPLE_RECEIPTS.length)
  })

  it('each one, dropped as the app drops it, becomes an expense with its vendor, total, currency and date', async () => {
    for (const s of SAMPLE_RECEIPTS) {
      const rec = await expenseFrom(s.name, Buffer.from(s.base64, 'base64'))
      expect(rec, s.name).toMatchObject({
        contact: s.vendor,
        narration: s.vendor,
        amount: s.total,
        currency: s.currency,
        date: s.date,
        attachment_name: s.name,
      })
    }
    // Not the "NGN 0.00 from 'the receipt taxi-receipt.pdf'" of a file the emulator never read.
    const taxi = SAMPLE_RECEIPTS.find((s) => s.name === 'taxi-receipt.pdf')!
    expect(taxi.total).toBeGreaterThan(0)
  }, 60_000)
})

describe('PDF', () => {
  it('reads the text layer line by line', async () => {
    const text = await pdfText(
      await pdfWith(['Mama Cass Kitchen', 'Date: 2026-02-14', 'Total: NGN 7,400.00']),
    )
    expect(text).toBe('Mama Cass Kitchen\nDate: 2026-02-14\nTotal: NGN 7,400.00')
  })

  it('a PDF without text (a scan) and a damaged PDF fall back to the prompt', async () => {
    expect(await pdfText(await scanLikePdf())).toBeNull()
    const damaged = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> trailer garbage')
    expect(await pdfText(damaged)).toBeNull()

    const scan = await expenseFrom(
      'scan-0007.pdf',
      await scanLikePdf(),
      'Taxi to the airport ₦6,500 on 2026-02-03',
    )
    expect(scan).toMatchObject({
      narration: 'scan-0007.pdf',
      amount: 6500,
      currency: 'NGN',
      date: '2026-02-03',
    })
    const broken = await expenseFrom('broken.pdf', damaged, 'Lunch $24.00')
    expect(broken).toMatchObject({ narration: 'broken.pdf', amount: 24, currency: 'USD' })
  }, 60_000)

  it('an image falls back to the prompt; the default prompt alone gives no vendor and no amount', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
    const rec = await expenseFrom('IMG_20260304_1842.png', png)
    expect(rec).toMatchObject({
      narration: 'IMG_20260304_1842.png',
      amount: 0,
      contact: null,
      currency: 'NGN',
    })
  })

  it('a file with no extension that starts like a PDF is read as one', async () => {
    const rec = await expenseFrom('receipt', await pdfWith(['Kilimanjaro Restaurant', 'Total $18.40']))
    expect(rec).toMatchObject({ contact: 'Kilimanjaro Restaurant', amount: 18.4, currency: 'USD' })
  })
})

describe('e-mail', () => {
  const qpReceipt = [
    'From: "Bolt Receipts" <receipts@bolt.example>',
    'To: ada@demo-bakery.example',
    'Subject: Your Bolt ride on Tuesday',
    'Date: Tue, 10 Mar 2026 19:02:11 +0100',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    'Thanks for riding with Bolt.',
    'Ride fare =E2=82=A63,100.00',
    'Service fee =E2=82=A6200.00',
    'Total =E2=82=A63,300.00',
    '',
  ].join('\r\n')

  it('a quoted-printable receipt: sender as vendor, the total in naira, the date it was sent', async () => {
    const text = await emlText(Buffer.from(qpReceipt))
    expect(text).toContain('Total ₦3,300.00')
    const rec = await expenseFrom('bolt-ride.eml', Buffer.from(qpReceipt))
    expect(rec).toMatchObject({ contact: 'Bolt Receipts', amount: 3300, currency: 'NGN', date: '2026-03-10' })
  })

  it('an HTML e-mail with a PDF receipt attached: the PDF is read too', async () => {
    const sample = SAMPLE_RECEIPTS.find((s) => s.name === 'figma-subscription.pdf')!
    const html = b64('<html><body><p>Hi Ada,</p><p>Your receipt is attached.&nbsp;Thanks!</p></body></html>')
    const eml = [
      'From: Figma <billing@figma.example>',
      'Subject: Your Figma receipt',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/html; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      html,
      '--b1',
      `Content-Type: application/pdf; name="${sample.name}"`,
      `Content-Disposition: attachment; filename="${sample.name}"`,
      'Content-Transfer-Encoding: base64',
      '',
      ...(sample.base64.match(/.{1,76}/g) ?? []),
      '--b1--',
      '',
    ].join('\r\n')
    const rec = await expenseFrom('figma.eml', Buffer.from(eml))
    expect(rec).toMatchObject({ amount: sample.total, currency: 'USD', date: sample.date, contact: 'Figma' })
  }, 60_000)

  it('HTML is read as its visible text', () => {
    expect(htmlText('<style>p{}</style><p>Total&nbsp;&#8358;1,000</p><br>Thanks')).toMatch(
      /Total ₦1,000\s*\nThanks/,
    )
  })
})

describe('text, and what is and is not a vendor or a currency', () => {
  it('a TXT receipt in dollars keeps its currency; one without a currency takes the business one', async () => {
    const usd = await expenseFrom('coffee.txt', Buffer.from('Blue Bottle Coffee\nLatte x2\nTotal $11.50\n'))
    expect(usd).toMatchObject({ contact: 'Blue Bottle Coffee', amount: 11.5, currency: 'USD' })
    const plain = await expenseFrom('bread.txt', Buffer.from('Bread Hub\nTotal 2,400.00\n'))
    expect(plain).toMatchObject({ amount: 2400, currency: 'NGN' })
  })

  it('"from the receipt x.pdf" names the file, not a vendor; "from Lagos Taxi Co" does', () => {
    expect(findVendor(dropPrompt('taxi-receipt.pdf'))).toBeNull()
    expect(findVendor('Record this document from scan_0001.jpg')).toBeNull()
    expect(findVendor('Taxi from Lagos Taxi Co, 2,000')).toBe('Lagos Taxi Co')
  })

  it('the currency of the amount taken, else the first one named', () => {
    expect(findMoney('Total $12.50')).toEqual({ amount: 12.5, currency: 'USD' })
    expect(findMoney('Paid NGN 5000')).toEqual({ amount: 5000, currency: 'NGN' })
    expect(findMoney('All prices in EUR\nTotal 40.00')).toEqual({ amount: 40, currency: 'EUR' })
    expect(findMoney('£3.20 tea')).toEqual({ amount: 3.2, currency: 'GBP' })
    expect(findMoney('Total 40.00')).toEqual({ amount: 40, currency: null })
  })
})
