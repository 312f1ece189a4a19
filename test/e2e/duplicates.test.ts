/**
 * Issue 33 in Chromium: a re-downloaded invoice added on Capture is held ("Possible duplicate of
 * invoice.pdf, sent on … (same text)"), the Overview counts the held rows and leads to History
 * filtered to them; Send anyway in History sends one (a second create at the emulator), Discard
 * (Capture's button) sends nothing; the per-business setting is in Settings. PDFs made by the test.
 */
import type { Locator, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { receipt, receiptPdf } from '../fingerprint/receipts'
import { oneBusiness, sandboxCreates } from './helpers'
import { E2E_TIMEOUT, describeE2E, goTo, onScreen, sessionRow, until } from './suite'

const KEY = 'svc_sk_e2e_duplicates_business_01'
const { fixtures, profiles } = oneBusiness('b-dups', 'Twice Traders', KEY, 100)

const badge = (row: Locator) => row.locator('.badge').first().textContent()
/** The session row of exactly this file (another row's sentence may name it too). */
const named = (page: Page, name: string) => sessionRow(page, name).filter({ has: page.getByText(name, { exact: true }) })

describeE2E('possible duplicates', (t) => {
  it(
    'a re-download is held with its sentence; Overview counts it; Send anyway sends one, Discard none',
    async () => {
      const { app, page } = await t.openAt('Capture', { fixtures, profiles })
      const rc = receipt(3, 77)
      const pdf = async (name: string, download: number) => ({ name, mimeType: 'application/pdf', buffer: Buffer.from(await receiptPdf(rc, download)) })
      await page.getByLabel('Files to add').setInputFiles([await pdf('invoice.pdf', 0)])
      await until(() => badge(named(page, 'invoice.pdf'))).toBe('Completed')
      await page.getByLabel('Files to add').setInputFiles([await pdf('invoice (1).pdf', 1), await pdf('invoice (2).pdf', 2)])
      const again = named(page, 'invoice (1).pdf')
      await until(() => badge(again)).toBe('Held')
      await until(() => page.getByText('2 held as possible duplicates. See Needs attention.').count()).toBe(1)
      await until(() => again.locator('.possible-duplicate').textContent()).toMatch(
        /^Possible duplicate of invoice\.pdf, sent on .+ \(same text\)$/,
      )
      await t.a11y('capture with held possible duplicates')

      // Discard on Capture: never sent.
      const third = named(page, 'invoice (2).pdf')
      await until(() => badge(third)).toBe('Held')
      await third.getByRole('button', { name: 'Discard invoice (2).pdf: it is not sent' }).click()
      await until(() => badge(third)).toBe('Discarded')

      // The Overview counts what is held, and leads to History filtered to it.
      await goTo(page, /Overview/, 'Overview')
      await until(() => page.getByText(/1 possible duplicate is held for you/).count()).toBe(1)
      await page.getByRole('button', { name: 'Send anyway or discard…' }).click()
      await onScreen(page, 'Upload history')
      const rows = page.locator('.vtable__scroll [role="row"]:not(.vtable__row--loading)')
      await until(() => rows.count()).toBe(1)
      await until(() => rows.first().textContent()).toMatch(/invoice \(1\)\.pdf.*Possible duplicate of invoice\.pdf/s)
      await t.a11y('history filtered to held rows')
      await t.shot('history-held')
      await rows.first().getByRole('button', { name: 'Send anyway: invoice (1).pdf' }).click()
      await until(async () => (await sandboxCreates(app.sb!, '/expenses')).length).toBe(2)
      expect((await sandboxCreates(app.sb!, '/expenses')).map((c) => c.attachments[0]?.name).sort()).toEqual([
        'invoice (1).pdf',
        'invoice.pdf',
      ])

      // The setting, per business.
      await goTo(page, /Settings/, 'Settings')
      const hold = page.getByRole('radio', { name: /Hold possible duplicates for me/ })
      await until(() => hold.isChecked()).toBe(true)
      await page.getByRole('radio', { name: /Send them anyway/ }).check()
      await until(() => page.getByText('Saved for this business.').count()).toBe(1)
    },
    E2E_TIMEOUT,
  )
})
