/**
 * Draws the demo's sample receipts (real-looking PDFs with a text layer, the way a till or an
 * invoicing tool prints them) with pdf-lib, and writes them into sandbox/sample-receipts.ts as
 * Base64, with what each one says (vendor, total, currency, date) so tests can check that the
 * emulator reads them right.
 *
 *   npx tsx scripts/make-samples.ts            # rewrites sandbox/sample-receipts.ts
 *   npx tsx scripts/make-samples.ts --check    # exits 1 when the file is not what this script makes
 *
 * The output is byte-for-byte repeatable (fixed dates and document id), so the check can run in the
 * tests (test/sandbox/documents.test.ts). Amounts are worked out here from the lines, never typed
 * twice. Standard fonts only know WinAnsi: amounts in naira are written "NGN", not "₦".
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { format, resolveConfig } from 'prettier'
import { PDFDocument, PDFString, type PDFFont, StandardFonts, rgb } from 'pdf-lib'

const OUT = join(import.meta.dirname, '..', 'sandbox', 'sample-receipts.ts')
const FIXED_DATE = new Date('2026-03-15T09:00:00Z')

type Row =
  | { kind: 'text'; text: string; size?: number; bold?: boolean; center?: boolean }
  | { kind: 'pair'; left: string; right: string; bold?: boolean }
  | { kind: 'rule' }
  | { kind: 'gap' }

interface Sample {
  name: string
  vendor: string
  currency: string
  date: string
  total: number
  /** Paper width in points: 226 for an 80 mm till roll, 420 for an A5 invoice. */
  width: number
  rows: Row[]
}

const money = (n: number) =>
  n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, useGrouping: true })
const round = (n: number) => Math.round(n * 100) / 100
const text = (t: string, o: Partial<Extract<Row, { kind: 'text' }>> = {}): Row => ({
  kind: 'text',
  text: t,
  ...o,
})
const pair = (left: string, right: string, bold = false): Row => ({ kind: 'pair', left, right, bold })
const rule: Row = { kind: 'rule' }
const gap: Row = { kind: 'gap' }

interface Item {
  name: string
  qty: number
  price: number
}

/** Item lines, subtotal, VAT at 7.5 % (Nigeria) when asked, and the total: the rows and the total. */
function till(items: Item[], cur: string, vat: boolean): { rows: Row[]; total: number } {
  const rows: Row[] = []
  let subtotal = 0
  for (const it of items) {
    const line = round(it.qty * it.price)
    subtotal = round(subtotal + line)
    rows.push(text(it.name))
    rows.push(pair(`  ${it.qty} x ${money(it.price)}`, `${cur} ${money(line)}`))
  }
  rows.push(rule)
  const tax = vat ? round(subtotal * 0.075) : 0
  if (vat) {
    rows.push(pair('Subtotal', `${cur} ${money(subtotal)}`))
    rows.push(pair('VAT 7.5%', `${cur} ${money(tax)}`))
  }
  const total = round(subtotal + tax)
  rows.push(pair('TOTAL', `${cur} ${money(total)}`, true))
  return { rows, total }
}

function samples(): Sample[] {
  const taxi = till(
    [
      { name: 'Base fare', qty: 1, price: 1200 },
      { name: 'Distance 14.2 km', qty: 1, price: 3550 },
      { name: 'Waiting time 38 min', qty: 1, price: 950 },
      { name: 'Lekki toll gate', qty: 1, price: 250 },
    ],
    'NGN',
    false,
  )
  const shoprite = till(
    [
      { name: 'Golden Penny Flour 2kg', qty: 2, price: 2850 },
      { name: 'Peak Milk Powder 400g', qty: 1, price: 3200 },
      { name: 'Dangote Sugar 500g', qty: 3, price: 950 },
      { name: 'Baking Powder 100g', qty: 2, price: 650 },
    ],
    'NGN',
    true,
  )
  const fuel = till([{ name: 'PMS (petrol) 45.00 L', qty: 45, price: 1050 }], 'NGN', false)
  const power = till([{ name: 'Prepaid energy token', qty: 1, price: 20000 }], 'NGN', false)
  const flour = till([{ name: 'Golden Penny Flour 50kg bag', qty: 10, price: 37500 }], 'NGN', true)
  const figma = till([{ name: 'Professional plan, 1 editor', qty: 1, price: 15 }], '$', false)
  const lunch = till(
    [
      { name: 'Refuel Max meal', qty: 2, price: 2700 },
      { name: 'Chicken & Chips', qty: 1, price: 3500 },
      { name: 'Bottled water 75cl', qty: 2, price: 350 },
    ],
    'NGN',
    false,
  )

  return [
    {
      name: 'taxi-receipt.pdf',
      vendor: 'Lagos Taxi Co',
      currency: 'NGN',
      date: '2026-03-04',
      total: taxi.total,
      width: 226,
      rows: [
        text('Lagos Taxi Co', { size: 13, bold: true, center: true }),
        text('Trip receipt', { center: true }),
        gap,
        text('Date: 04/03/2026 18:42'),
        text('Pickup: Admiralty Way, Lekki'),
        text('Drop-off: Broad Street, Lagos Island'),
        text('Driver: Emeka O. | LND 482 KJ'),
        rule,
        ...taxi.rows,
        text('Paid by card **** 4421'),
        gap,
        text('Thank you for riding with us', { center: true }),
      ],
    },
    {
      name: 'shoprite-lekki.pdf',
      vendor: 'Shoprite Lekki',
      currency: 'NGN',
      date: '2026-03-07',
      total: shoprite.total,
      width: 226,
      rows: [
        text('Shoprite', { size: 14, bold: true, center: true }),
        text('Lekki Mall, Lekki-Epe Expressway', { center: true }),
        text('Tel 0700 746 7748', { center: true }),
        gap,
        text('2026-03-07 11:15   Till 4   Slip 8841'),
        rule,
        ...shoprite.rows,
        text('Card payment (Verve)'),
        gap,
        text('Thank you for shopping at Shoprite Lekki!', { center: true }),
      ],
    },
    {
      name: 'fuel-totalenergies.pdf',
      vendor: 'TotalEnergies Ikoyi',
      currency: 'NGN',
      date: '2026-03-12',
      total: fuel.total,
      width: 226,
      rows: [
        text('TotalEnergies Marketing Nigeria', { bold: true, center: true }),
        text('Merchant: TotalEnergies Ikoyi', { center: true }),
        text('Bourdillon Road, Ikoyi', { center: true }),
        gap,
        text('Date 12/03/2026  Time 07:58'),
        text('Pump 6   Attendant: Bisi'),
        rule,
        ...fuel.rows,
        text('Paid: cash'),
      ],
    },
    {
      name: 'ikeja-electric-token.pdf',
      vendor: 'Ikeja Electric',
      currency: 'NGN',
      date: '2026-03-02',
      total: power.total,
      width: 226,
      rows: [
        text('Ikeja Electric', { size: 13, bold: true, center: true }),
        text('Prepaid purchase', { center: true }),
        gap,
        text('Date: 02/03/2026 09:10'),
        text('Meter: 0451 2231 987'),
        text('Customer: Demo Bakery Ltd'),
        text('Tariff: Band A'),
        rule,
        ...power.rows,
        text('Units: 96.4 kWh'),
        text('Token: 5821 0093 4471 2208 6613'),
      ],
    },
    {
      name: 'flour-mills-invoice.pdf',
      vendor: 'Flour Mills of Nigeria Plc',
      currency: 'NGN',
      date: '2026-03-11',
      total: flour.total,
      width: 420,
      rows: [
        text('Flour Mills of Nigeria Plc', { size: 15, bold: true }),
        text('2 Old Dock Road, Apapa, Lagos'),
        gap,
        text('TAX INVOICE FMN-2026-0311', { bold: true }),
        text('Invoice date: 11/03/2026    Due: 25/03/2026'),
        text('Bill to: Demo Bakery Ltd, Admiralty Way, Lekki'),
        rule,
        ...flour.rows.map((r) =>
          r.kind === 'pair' && r.left === 'TOTAL' ? pair('Amount due', r.right, true) : r,
        ),
        gap,
        text('Bank: Zenith Bank  Account: 1012345678'),
      ],
    },
    {
      name: 'figma-subscription.pdf',
      vendor: 'Figma, Inc.',
      currency: 'USD',
      date: '2026-03-01',
      total: figma.total,
      width: 420,
      rows: [
        text('Figma, Inc.', { size: 15, bold: true }),
        text('760 Market Street, San Francisco, CA 94102'),
        gap,
        text('Receipt 2417-9903', { bold: true }),
        text('Date paid 2026-03-01'),
        text('Billed to: Demo Bakery Ltd'),
        rule,
        ...figma.rows,
        text('Paid with Visa ending 4421'),
      ],
    },
    {
      name: 'chicken-republic-lunch.pdf',
      vendor: 'Chicken Republic',
      currency: 'NGN',
      date: '2026-03-05',
      total: lunch.total,
      width: 226,
      rows: [
        text('Chicken Republic', { size: 13, bold: true, center: true }),
        text('Admiralty Way, Lekki Phase 1', { center: true }),
        gap,
        text('05/03/2026 13:27   Order 0193'),
        text('Cashier: Tunde    Takeaway'),
        rule,
        ...lunch.rows,
        text('Paid: transfer'),
      ],
    },
  ]
}

const LINE = 14

async function draw(s: Sample): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  doc.setTitle(s.name.replace(/\.pdf$/, ''))
  doc.setAuthor(s.vendor)
  doc.setCreator('Bookdrop demo (scripts/make-samples.ts)')
  doc.setProducer('pdf-lib')
  doc.setCreationDate(FIXED_DATE)
  doc.setModificationDate(FIXED_DATE)
  // A fixed document id: the same receipt is the same file every time (the app's duplicate check).
  const id = PDFString.of(s.name)
  doc.context.trailerInfo.ID = doc.context.obj([id, id])
  const regular = await doc.embedFont(StandardFonts.Helvetica)
  const bold = await doc.embedFont(StandardFonts.HelveticaBold)
  const height = 60 + s.rows.reduce((h, r) => h + (r.kind === 'gap' ? 8 : r.kind === 'rule' ? 10 : LINE), 0)
  const page = doc.addPage([s.width, height])
  const margin = 16
  const ink = rgb(0.1, 0.1, 0.12)
  let y = height - 30
  const write = (t: string, x: number, font: PDFFont, size: number) =>
    page.drawText(t, { x, y, size, font, color: ink })
  for (const r of s.rows) {
    if (r.kind === 'gap') {
      y -= 8
      continue
    }
    if (r.kind === 'rule') {
      page.drawLine({
        start: { x: margin, y: y + 6 },
        end: { x: s.width - margin, y: y + 6 },
        thickness: 0.6,
        color: rgb(0.6, 0.6, 0.6),
        dashArray: [2, 2],
      })
      y -= 10
      continue
    }
    if (r.kind === 'text') {
      const font = r.bold ? bold : regular
      const size = r.size ?? 9
      const w = font.widthOfTextAtSize(r.text, size)
      write(r.text, r.center ? (s.width - w) / 2 : margin, font, size)
    } else {
      const font = r.bold ? bold : regular
      const size = r.bold ? 10 : 9
      write(r.left, margin, font, size)
      write(r.right, s.width - margin - font.widthOfTextAtSize(r.right, size), font, size)
    }
    y -= LINE
  }
  return doc.save({ useObjectStreams: false })
}

/** The text of sandbox/sample-receipts.ts. */
export async function render(): Promise<string> {
  const entries: string[] = []
  for (const s of samples()) {
    const bytes = await draw(s)
    entries.push(
      [
        '  {',
        `    name: ${JSON.stringify(s.name)},`,
        `    vendor: ${JSON.stringify(s.vendor)},`,
        `    currency: ${JSON.stringify(s.currency)},`,
        `    date: ${JSON.stringify(s.date)},`,
        `    total: ${s.total},`,
        `    base64: ${JSON.stringify(Buffer.from(bytes).toString('base64'))},`,
        '  },',
      ].join('\n'),
    )
  }
  const code = `/**
 * The demo's sample receipts: PDFs with a text layer, as a till or an invoicing tool prints them,
 * with what each one says. Generated by scripts/make-samples.ts (do not edit; run it again, and
 * \`npx tsx scripts/make-samples.ts --check\` says whether this file is current). Kept as Base64
 * in code, so the emulator's demo has them wherever it runs (tests, the web host, the packaged app).
 */
import type { SampleReceipt } from './sample-receipt'

export const SAMPLE_RECEIPTS: readonly SampleReceipt[] = [
${entries.join('\n')}
]
`
  // Formatted as the repository's prettier would, so `npm run format` leaves it alone.
  return format(code, { ...(await resolveConfig(OUT)), filepath: OUT })
}

/** The file this script writes. */
export const SAMPLES_FILE = OUT

// Run as a script (not when a test imports render()).
if (process.argv[1] && /make-samples\.ts$/.test(process.argv[1])) {
  const out = await render()
  if (process.argv.includes('--check')) {
    if (readFileSync(OUT, 'utf8') !== out) {
      console.error(`${OUT} is not current: run npx tsx scripts/make-samples.ts`)
      process.exit(1)
    }
    console.log(`${OUT} is current`)
  } else {
    writeFileSync(OUT, out)
    console.log(`wrote ${OUT}`)
  }
}
