/**
 * The test set of issue 33, drawn by the tests (no binary fixtures): receipts of a few shop
 * templates as photos (sharp, from SVG text: paper on a table, as a phone sees it) and as PDFs
 * with a text layer (pdf-lib), plus the variants a receipt arrives as twice: re-encoded at JPEG
 * quality 70, scaled 4000×3000 → 1600×1200, cropped by 2–4 %, and re-downloaded (only
 * /CreationDate, /ModDate and /ID changed). Used by test/fingerprint/*.test.ts and the bench.
 */
import sharp from 'sharp'
import { PDFDocument, PDFHexString, PDFName, StandardFonts } from 'pdf-lib'

export interface Line {
  label: string
  price: string
}

export interface Receipt {
  shop: string
  address: string
  date: string
  lines: Line[]
  total: string
  /** Layout of the shop's template: font size and line height (px on a 1000 px wide paper). */
  font: number
  lead: number
}

/** A deterministic pseudo-random sequence (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SHOPS = [
  'CORNER GROCER',
  'CAFE LUMEN',
  'HARDWARE HUB',
  'BOOK NOOK',
  'FUEL STOP 24',
  'PHARMA PLUS',
  'BAKERY ROSE',
]
const ITEMS = [
  'Milk 1L',
  'Bread',
  'Coffee beans',
  'Screws M4',
  'Notebook A5',
  'Diesel',
  'Aspirin',
  'Croissant',
  'Tape',
  'Apples 1kg',
  'Batteries AA',
  'Water 6x',
]

/** A receipt of shop template `t` (0..6), its lines drawn from `seed`. */
export function receipt(t: number, seed: number): Receipt {
  const r = rng(seed * 7919 + t)
  const n = 4 + Math.floor(r() * 5)
  const lines: Line[] = []
  let sum = 0
  for (let i = 0; i < n; i++) {
    const cents = 50 + Math.floor(r() * 4000)
    sum += cents
    lines.push({ label: ITEMS[Math.floor(r() * ITEMS.length)]!, price: (cents / 100).toFixed(2) })
  }
  const day = 1 + Math.floor(r() * 28)
  return {
    shop: SHOPS[t % SHOPS.length]!,
    address: `${10 + t * 7} Market Street, Springfield`,
    date: `2026-0${1 + (t % 9)}-${String(day).padStart(2, '0')} 1${t % 10}:${String(10 + Math.floor(r() * 49))}`,
    lines,
    total: (sum / 100).toFixed(2),
    font: 34 + (t % 4) * 4,
    lead: 1.45 + (t % 3) * 0.1,
  }
}

/** The same receipt with `digits` digits of its total changed (1–3): a look-alike, never a duplicate. */
export function otherTotal(rc: Receipt, digits: number, seed: number): Receipt {
  const r = rng(seed)
  const chars = [...rc.total]
  const places = chars.map((c, i) => (/\d/.test(c) ? i : -1)).filter((i) => i >= 0)
  const picked = new Set<number>()
  while (picked.size < Math.min(digits, places.length)) picked.add(places[Math.floor(r() * places.length)]!)
  for (const i of picked) chars[i] = String((Number(chars[i]) + 1 + Math.floor(r() * 8)) % 10)
  return { ...rc, total: chars.join('') }
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;')

/** The receipt's paper as SVG, 1000 px wide (its height follows its lines). */
export function paperSvg(rc: Receipt): { svg: string; width: number; height: number } {
  const w = 1000
  const f = rc.font
  const step = Math.round(f * rc.lead)
  const rows: string[] = []
  let y = 90 + f
  const text = (x: number, s: string, anchor = 'start', size = f, weight = 'normal') =>
    rows.push(
      `<text x="${x}" y="${y}" font-size="${size}" font-weight="${weight}" text-anchor="${anchor}">${esc(s)}</text>`,
    )
  text(w / 2, rc.shop, 'middle', f * 1.4, 'bold')
  y += step * 1.4
  text(w / 2, rc.address, 'middle', f * 0.8)
  y += step
  text(w / 2, rc.date, 'middle', f * 0.8)
  y += step * 1.5
  for (const l of rc.lines) {
    text(70, l.label)
    text(w - 70, l.price, 'end')
    y += step
  }
  rows.push(
    `<line x1="70" x2="${w - 70}" y1="${y - step / 2}" y2="${y - step / 2}" stroke="#222" stroke-width="3" stroke-dasharray="12 8"/>`,
  )
  y += step * 0.4
  text(70, 'TOTAL', 'start', f * 1.2, 'bold')
  text(w - 70, rc.total, 'end', f * 1.2, 'bold')
  y += step * 2
  text(w / 2, 'Thank you for your visit', 'middle', f * 0.8)
  const height = Math.round(y + 90)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${height}"><rect width="100%" height="100%" fill="#fbfaf6"/><g font-family="DejaVu Sans Mono, monospace" fill="#1d1d1d">${rows.join('')}</g></svg>`
  return { svg, width: w, height }
}

/**
 * A photo of the receipt: the paper on a table (a mild gradient), `width` × `height` px, the paper
 * about 85 % of the photo's height; a JPEG at quality `quality`.
 */
export async function receiptPhoto(
  rc: Receipt,
  o: { width?: number; height?: number; quality?: number } = {},
): Promise<Buffer> {
  const W = o.width ?? 4000
  const H = o.height ?? 3000
  const paper = paperSvg(rc)
  const ph = Math.round(H * 0.85)
  const pw = Math.round((paper.width * ph) / paper.height)
  const paperPng = await sharp(Buffer.from(paper.svg), { density: 72 * (ph / paper.height) })
    .resize(pw, ph, { fit: 'fill' })
    .png()
    .toBuffer()
  const table = `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#7a6a58"/><stop offset="1" stop-color="#5c4f42"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`
  return sharp(Buffer.from(table))
    .composite([{ input: paperPng, left: Math.round((W - pw) / 2), top: Math.round((H - ph) / 2) }])
    .jpeg({ quality: o.quality ?? 92 })
    .toBuffer()
}

/** The photo re-encoded at JPEG quality `q` (a messenger's or mail client's re-compression). */
export function reencode(jpeg: Buffer, q = 70): Promise<Buffer> {
  return sharp(jpeg).jpeg({ quality: q }).toBuffer()
}

/** The photo scaled to `w` × `h` (4000×3000 → 1600×1200). */
export function rescale(jpeg: Buffer, w: number, h: number): Promise<Buffer> {
  return sharp(jpeg).resize(w, h, { fit: 'fill' }).jpeg({ quality: 85 }).toBuffer()
}

/** The photo with `pct` % cut from its edges (`sides`: which ones; default all four). */
export async function crop(
  jpeg: Buffer,
  pct: number,
  sides: readonly ('left' | 'top' | 'right' | 'bottom')[] = ['left', 'top', 'right', 'bottom'],
): Promise<Buffer> {
  const m = await sharp(jpeg).metadata()
  const W = m.width!
  const H = m.height!
  const dx = Math.round((W * pct) / 100)
  const dy = Math.round((H * pct) / 100)
  const left = sides.includes('left') ? dx : 0
  const top = sides.includes('top') ? dy : 0
  const width = W - left - (sides.includes('right') ? dx : 0)
  const height = H - top - (sides.includes('bottom') ? dy : 0)
  return sharp(jpeg).extract({ left, top, width, height }).jpeg({ quality: 90 }).toBuffer()
}

/**
 * The receipt as a PDF with a text layer (an invoicing tool's download). `download` changes what a
 * second download changes: /CreationDate, /ModDate and the trailer's /ID.
 */
export async function receiptPdf(rc: Receipt, download = 0): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false })
  const at = new Date(Date.UTC(2026, 2, 15, 9, 0, download))
  doc.setCreationDate(at)
  doc.setModificationDate(at)
  doc.setProducer('Invoicer 3.1')
  const font = await doc.embedFont(StandardFonts.Courier)
  const bold = await doc.embedFont(StandardFonts.CourierBold)
  const page = doc.addPage([300, 120 + rc.lines.length * 16 + 120])
  let y = page.getHeight() - 40
  const size = 9
  page.drawText(rc.shop, { x: 20, y, size: 12, font: bold })
  y -= 16
  page.drawText(rc.address, { x: 20, y, size: 7, font })
  y -= 12
  page.drawText(rc.date, { x: 20, y, size: 7, font })
  y -= 22
  for (const l of rc.lines) {
    page.drawText(l.label, { x: 20, y, size, font })
    page.drawText(l.price, { x: 280 - font.widthOfTextAtSize(l.price, size), y, size, font })
    y -= 16
  }
  y -= 6
  page.drawText('TOTAL', { x: 20, y, size: 10, font: bold })
  page.drawText(rc.total, { x: 280 - bold.widthOfTextAtSize(rc.total, 10), y, size: 10, font: bold })
  const id = PDFHexString.of(
    `${(download + 1).toString(16).padStart(8, '0')}c0ffee${download.toString(16).padStart(4, '0')}`,
  )
  doc.context.trailerInfo.ID = doc.context.obj([id, id])
  void PDFName
  return doc.save({ useObjectStreams: false })
}

/** A scanned receipt: one page whose only content is the photo (a JPEG XObject), no text layer. */
export async function scannedPdf(jpeg: Buffer, download = 0): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false })
  doc.setCreationDate(new Date(Date.UTC(2026, 2, 15, 9, 0, download)))
  const img = await doc.embedJpg(jpeg)
  const page = doc.addPage([img.width / 4, img.height / 4])
  page.drawImage(img, { x: 0, y: 0, width: img.width / 4, height: img.height / 4 })
  return doc.save({ useObjectStreams: false })
}
