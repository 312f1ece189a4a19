/** Issue 32's five text-PDF receipts with known vendor, date and total, shared by the engine and app tests. */
import { localDay } from '../../src-main/core/review/flags'

export const today = localDay()
export const nextYear = `${Number(today.slice(0, 4)) + 1}-01-15`

/**
 * flour.pdf and flour-delivery.pdf are two documents of one purchase (other text, same vendor, date
 * and total); kiosk.pdf has no total; paper.pdf is dated next year; cloud.pdf is in US dollars.
 */
export const FIVE = {
  'flour.pdf': `Flour Mills Ltd receipt\nVendor: Flour Mills\nDate: ${today}\nTotal: NGN 12,400.00\n`,
  'kiosk.pdf': `Kiosk receipt\nVendor: Kiosk Lekki\nDate: ${today}\nThank you for shopping\n`,
  'paper.pdf': `Paper order\nVendor: Paper Co\nDate: ${nextYear}\nTotal: NGN 5,000.00\n`,
  'cloud.pdf': `Hosting invoice\nVendor: Cloud Host\nDate: ${today}\nTotal: USD 20.00\n`,
  'flour-delivery.pdf': `Delivery note for your purchase\nSupplier: Flour Mills\nDelivered ${today}\nAmount due: NGN 12400.00\n`,
}
