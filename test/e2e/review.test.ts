/**
 * Review (issue 32), through the real engine, the emulator and Chromium: five receipts with known
 * vendor, date and total (one with no total, one dated next year, one a second document of another's
 * purchase: other text, same vendor, date and total) show what they became in History and on
 * Review with the right flags; an edit reaches the emulator's record; Mark reviewed survives a
 * reload; the keyboard moves through the list and the preview follows; the document sits beside the
 * fields at 1280×800 and 1024×700 without the page scrolling, and stacks at 640 px.
 */
import { expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import type { Fixtures } from '../../sandbox'
import { type ReceiptSpec, receiptPdf } from '../review/receipts'
import { E2E_TIMEOUT, type E2E, describeE2E, goTo, nav, onScreen, until } from './suite'

const KEY = 'svc_sk_e2e_review_business_0001'
const fixtures: Fixtures = {
  businesses: [{ uuid: 'b-review', name: 'Review Bakery Ltd', key: KEY, currency: 'NGN', country: 'NG' }],
  rate_limit: { limit: 100_000, window_seconds: 60 },
  job_delay_ms: 50,
}
const profiles = [{ name: 'Review Bakery', kind: 'business' as const, key: KEY }]

const now = new Date()
const thisMonth = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`
const NEXT_YEAR = `${now.getUTCFullYear() + 1}-02-10`

/** In the order they are added: the second Shoprite document comes last (newest on top). */
const RECEIPTS: ReceiptSpec[] = [
  { name: 'mama-put.pdf', vendor: 'Mama Put Kitchen', date: `${thisMonth}-01`, total: 12400 },
  { name: 'kiosk-slip.pdf', vendor: 'Kiosk Lekki', date: '2026-03-05', total: null },
  { name: 'ikoyi-prints.pdf', vendor: 'Ikoyi Prints', date: NEXT_YEAR, total: 3000 },
  { name: 'shoprite-receipt.pdf', vendor: 'Shoprite Lekki', date: `${thisMonth}-02`, total: 8250 },
  {
    name: 'shoprite-card-slip.pdf',
    vendor: 'Shoprite Lekki',
    date: `${thisMonth}-02`,
    total: 8250,
    lines: ['Card payment slip', 'Approved, customer copy'],
  },
]

const squash = (s: string | null) => (s ?? '').replace(/\s+/g, ' ').trim()
const money = (n: number) => squash(new Intl.NumberFormat('en-US', { style: 'currency', currency: 'NGN' }).format(n))
const day = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number)
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(new Date(y!, m! - 1, d!))
}

async function addReceipts(page: Page, specs: ReceiptSpec[]): Promise<void> {
  const files = await Promise.all(
    specs.map(async (r) => ({ name: r.name, mimeType: 'application/pdf', buffer: await receiptPdf(r) })),
  )
  await page.getByLabel('Files to add').setInputFiles(files)
}

/** Opens the app, adds the five receipts (the last one after the others are done), waits for Review 5. */
async function fiveReceipts(t: E2E) {
  const { app, page } = await t.openAt('Capture', { fixtures, profiles })
  await addReceipts(page, RECEIPTS.slice(0, 4))
  await until(() => page.locator('.upload-row__record').count(), 40_000).toBe(4)
  await addReceipts(page, RECEIPTS.slice(4))
  await until(() => page.locator('.upload-row__record').count(), 40_000).toBe(5)
  await until(() => nav(page).getByRole('button', { name: /^Review/ }).textContent()).toMatch(/Review\s*5/)
  return { app, page }
}

const list = (page: Page) => page.locator('main').getByRole('listbox')
const detailName = (page: Page) => page.locator('#review-detail-name')
const preview = (page: Page) => page.locator('.preview')

/** The record shown is `name`, and its document is painted (a canvas or picture of it). */
async function showing(page: Page, name: string): Promise<void> {
  await until(() => detailName(page).textContent()).toBe(name)
  const id = await page.locator('.review-list [aria-selected="true"]').getAttribute('data-uuid')
  expect(id).toBeTruthy()
  await until(() => preview(page).getAttribute('data-painted')).toMatch(/^\d+$/)
}

/** The document beside the fields: sizes, sides, and neither the page nor <main> scrolls. */
async function layout(page: Page) {
  return page.evaluate(() => {
    const doc = document.querySelector('.preview canvas, .preview img')!.getBoundingClientRect()
    const form = document.querySelector('.review-form')!.getBoundingClientRect()
    const main = document.querySelector('main')!
    return {
      doc: { w: doc.width, h: doc.height, left: doc.left, right: doc.right, top: doc.top, bottom: doc.bottom },
      form: { left: form.left, top: form.top, bottom: form.bottom },
      pageScrolls: document.documentElement.scrollHeight > window.innerHeight + 1,
      mainScrolls: main.scrollHeight > main.clientHeight + 1,
    }
  })
}

describeE2E('review', (t) => {
  it(
    'five receipts: their values in History and Review, the right flags, the duplicate one click away',
    async () => {
      const { page } = await fiveReceipts(t)
      // Capture's rows already say what each became.
      const capture = squash(await page.locator('.upload-row__record').allTextContents().then((x) => x.join('|')))
      expect(capture).toContain(`Mama Put Kitchen · ${day(`${thisMonth}-01`)} · ${money(12400)}`)

      await goTo(page, /Upload history/, 'Upload history')
      const rows = page.locator('.vtable__scroll [role="row"]')
      await until(() => rows.count()).toBe(5)
      const history = squash((await rows.allTextContents()).join('|'))
      expect(history).toContain(`Mama Put Kitchen · ${day(`${thisMonth}-01`)} · ${money(12400)}`)
      expect(history).toContain(`Ikoyi Prints · ${day(NEXT_YEAR)} · ${money(3000)}`)
      expect(history).toContain(`Shoprite Lekki · ${day(`${thisMonth}-02`)} · ${money(8250)}`)
      expect(history).toContain(`Kiosk Lekki · ${day('2026-03-05')}`)
      // History's file names are readable at 1280 px (not cut to a few letters).
      const fileCell = await rows.first().locator('[role="cell"]').nth(1).boundingBox()
      expect(fileCell!.width).toBeGreaterThan(150)

      // A row opens its record on Review.
      await page.getByRole('button', { name: new RegExp(`^Mama Put Kitchen · `) }).click()
      await onScreen(page, 'Review')
      await showing(page, 'mama-put.pdf')
      await t.a11y('the review screen')
      const detail = page.locator('.review-detail')
      expect(squash(await detail.locator('.review-detail__title').textContent())).toContain('Expense from Drop')
      await expect.poll(() => page.getByLabel('Vendor').inputValue()).toBe('Mama Put Kitchen')
      expect(await page.getByLabel('Date').inputValue()).toBe(`${thisMonth}-01`)
      expect(await page.getByLabel('Total').inputValue()).toBe('12400.00')
      expect(await page.getByLabel('Currency').inputValue()).toBe('NGN')
      expect(await page.locator('.review-flags').count()).toBe(0)

      // The filters count; the newest record is on top of "All".
      await page.getByRole('button', { name: /^All/ }).click()
      const options = list(page).getByRole('option')
      await until(() => options.count()).toBe(5)
      expect(squash(await options.first().textContent())).toContain('Shoprite Lekki')
      expect(squash(await options.first().textContent())).toContain('shoprite-card-slip.pdf')
      await until(() => page.getByRole('button', { name: /^Flagged/ }).textContent()).toMatch(/Flagged\s*[345]/)

      const flagsOf = async (name: string) => {
        await list(page).getByRole('option', { name: new RegExp(name.replace('.', '\\.')) }).click()
        await showing(page, name)
        return squash(await page.locator('.review-flags').textContent().catch(() => ''))
      }
      expect(await flagsOf('kiosk-slip.pdf')).toContain('No total')
      expect(await flagsOf('ikoyi-prints.pdf')).toContain('Date in the future')
      expect(await flagsOf('shoprite-card-slip.pdf')).toContain('Possible duplicate of shoprite-receipt.pdf')
      // One click opens the other document of that purchase.
      await page.getByRole('button', { name: /^Possible duplicate of shoprite-receipt\.pdf/ }).click()
      await showing(page, 'shoprite-receipt.pdf')
      await t.shot('review-duplicate')

      // The Overview: this month's spending in the business's currency, and what waits, leading to Review.
      await goTo(page, /Overview/, 'Overview')
      const spent = page.locator('.money__figures .kpi').filter({ hasText: 'Spent this month' })
      await until(async () => squash(await spent.locator('.kpi__value').textContent())).toMatch(/^NGN [\d,]+\.\d\d$/)
      await page.getByRole('button', { name: 'Review them' }).click()
      await onScreen(page, 'Review')
      expect(await page.getByRole('button', { name: /^To review/ }).getAttribute('aria-pressed')).toBe('true')
    },
    E2E_TIMEOUT * 2,
  )

  it(
    'an edit reaches the emulator (Total in the person’s format), Mark reviewed survives a reload, the keyboard moves through the list',
    async () => {
      const { app, page } = await fiveReceipts(t)
      await goTo(page, /^Review/, 'Review')
      const options = list(page).getByRole('option')
      await until(() => options.count()).toBe(5)
      await showing(page, 'shoprite-card-slip.pdf')
      // The list's order (newest first; the first four completed in one batch, in any order).
      const order = await options.evaluateAll((els) =>
        els.map((e) => e.querySelector('.review-opt__details')?.textContent?.split(' · ')[0] ?? ''),
      )
      expect(order[0]).toBe('shoprite-card-slip.pdf')

      // Keyboard: J/K and the arrows move the selection; the document follows.
      await list(page).focus()
      await page.keyboard.press('j')
      await showing(page, order[1]!)
      await page.keyboard.press('ArrowDown')
      await showing(page, order[2]!)
      await page.keyboard.press('k')
      await showing(page, order[1]!)
      await page.keyboard.press('ArrowUp')
      await showing(page, order[0]!)
      await page.keyboard.press('End')
      await showing(page, order[4]!)

      // The slip with no total gets one, written as the person writes numbers (en-US here).
      await list(page).getByRole('option', { name: /kiosk-slip\.pdf/ }).click()
      await showing(page, 'kiosk-slip.pdf')
      await page.getByLabel('Total').fill('2,500.50')
      await page.getByLabel('Narration').fill('Bottled water for the shop')
      await page.getByRole('button', { name: 'Save' }).click()
      await until(async () => squash(await page.locator('.review-form [role="status"]').textContent())).toContain(
        `Saved. The server now has: Kiosk Lekki · ${day('2026-03-05')} · ${money(2500.5)}`,
      )
      const uuid = await page.locator('.review-list [aria-selected="true"]').getAttribute('data-uuid')
      const res = await fetch(`${app.sb!.url}/expenses/${uuid}`, { headers: { 'X-API-Key': KEY } })
      const rec = ((await res.json()) as { data: { total_amount?: number; amount?: number; narration: string } }).data
      expect(rec.narration).toBe('Bottled water for the shop')
      expect(rec.total_amount ?? rec.amount).toBe(2500.5)

      // Mark reviewed (R, with the list focused): the count drops and it leaves "To review".
      const reviewNav = nav(page).getByRole('button', { name: /^Review/ })
      await page.getByRole('button', { name: /^To review/ }).click()
      await until(() => options.count()).toBe(5)
      const mark = page.getByRole('button', { name: /^Mark reviewed/ })
      expect(await mark.getAttribute('aria-keyshortcuts')).toBe('R')
      expect(await mark.getAttribute('title')).toMatch(/R\b/)
      await list(page).getByRole('option', { name: /mama-put\.pdf/ }).click()
      await showing(page, 'mama-put.pdf')
      await list(page).focus()
      await page.keyboard.press('r')
      await until(() => reviewNav.textContent()).toMatch(/Review\s*4/)
      await until(() => options.count()).toBe(4)
      expect(await list(page).getByRole('option', { name: /mama-put\.pdf/ }).count()).toBe(0)

      await page.reload()
      await onScreen(page, 'Review')
      await until(() => nav(page).getByRole('button', { name: /^Review/ }).textContent()).toMatch(/Review\s*4/)
      await page.getByRole('button', { name: /^All/ }).click()
      await list(page).getByRole('option', { name: /mama-put\.pdf/ }).click()
      await showing(page, 'mama-put.pdf')
      await until(() => page.locator('.review-detail__actions').textContent()).toMatch(/^Reviewed/)
    },
    E2E_TIMEOUT * 2,
  )

  it(
    'the document beside the fields at 1280×800 and 1024×700 without the page scrolling; stacked at 640 px; German totals',
    async () => {
      const app = await t.app({ fixtures, profiles })
      const page = t.page
      await page.goto(app.host.url)
      await onScreen(page, 'Capture')
      await addReceipts(page, RECEIPTS.slice(0, 2))
      await until(() => page.locator('.upload-row__record').count(), 40_000).toBe(2)
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 1024, height: 700 },
      ]) {
        await page.setViewportSize(viewport)
        await goTo(page, /^Review/, 'Review')
        await list(page).getByRole('option', { name: /kiosk-slip\.pdf/ }).click()
        await showing(page, 'kiosk-slip.pdf')
        const l = await layout(page)
        expect(l.doc.w, `${viewport.width}: document width`).toBeGreaterThanOrEqual(100)
        expect(l.doc.h, `${viewport.width}: document height`).toBeGreaterThanOrEqual(100)
        expect(l.doc.right, `${viewport.width}: document left of the fields`).toBeLessThanOrEqual(l.form.left)
        expect(l.doc.top, `${viewport.width}: document beside, not above`).toBeLessThan(l.form.bottom)
        expect(l.pageScrolls || l.mainScrolls, `${viewport.width}: no page scroll`).toBe(false)
        await t.shot(`${viewport.width}`)
        await goTo(page, /Capture/, 'Capture')
      }
      await page.setViewportSize({ width: 640, height: 800 })
      await goTo(page, /^Review/, 'Review')
      await list(page).getByRole('option', { name: /kiosk-slip\.pdf/ }).click()
      await showing(page, 'kiosk-slip.pdf')
      const narrow = await layout(page)
      expect(narrow.doc.bottom, 'stacked at 640 px: the document above the fields').toBeLessThanOrEqual(narrow.form.top)
      await t.shot('640')

      // A German reader writes "12,50" (the interface in German: its catalogue's words).
      const de = await t.openPage({ locale: 'de-DE' })
      await de.goto(`${app.host.url}#review`)
      await onScreen(de, 'Prüfen')
      await list(de).getByRole('option', { name: /kiosk-slip\.pdf/ }).click()
      await showing(de, 'kiosk-slip.pdf')
      await de.getByLabel('Gesamtbetrag').fill('12,50')
      await de.getByRole('button', { name: 'Speichern' }).click()
      await until(() => de.locator('.review-form [role="status"]').textContent()).toContain('Gespeichert')
      expect(await de.getByLabel('Gesamtbetrag').inputValue()).toBe('12,50')
      const uuid = await de.locator('.review-list [aria-selected="true"]').getAttribute('data-uuid')
      const res = await fetch(`${app.sb!.url}/expenses/${uuid}`, { headers: { 'X-API-Key': KEY } })
      const rec = ((await res.json()) as { data: { total_amount?: number; amount?: number } }).data
      expect(rec.total_amount ?? rec.amount).toBe(12.5)
    },
    E2E_TIMEOUT * 2,
  )
})
