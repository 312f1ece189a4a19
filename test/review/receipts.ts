/**
 * Receipts with a text layer the emulator's extraction reads (sandbox/extract/fields.ts: "Vendor:",
 * an ISO date, "Total: NGN 12,400.00"), made with pdf-lib, for Review's tests and bench. Each PDF
 * is different bytes and text (a line of its own), so the engine never holds one as the same file.
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib'

export interface ReceiptSpec {
  name: string
  vendor: string
  /** YYYY-MM-DD */
  date: string
  /** The total in NGN, or null for a receipt that shows none. */
  total: number | null
  /** Other words, so two receipts of one purchase differ in text. */
  lines?: string[]
}

const naira = (n: number) => n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })

/** The receipt's lines, as printed. */
export function receiptLines(r: ReceiptSpec): string[] {
  return [
    `Vendor: ${r.vendor}`,
    `Date: ${r.date}`,
    ...(r.lines ?? ['Thank you for your custom']),
    ...(r.total === null ? ['Paid by card, amount on the slip'] : [`Total: NGN ${naira(r.total)}`]),
    `Ref ${r.name}`,
  ]
}

/** A one-page PDF of the receipt. */
export async function receiptPdf(r: ReceiptSpec): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  const lines = receiptLines(r)
  const page = doc.addPage([300, 80 + lines.length * 18])
  let y = page.getHeight() - 40
  for (const line of lines) {
    page.drawText(line, { x: 20, y, size: 11, font, color: rgb(0.1, 0.1, 0.12) })
    y -= 18
  }
  return Buffer.from(await doc.save({ useObjectStreams: false }))
}
