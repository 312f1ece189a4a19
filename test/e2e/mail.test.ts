/**
 * Mail in a real browser (issue 24): the demo's inbox on the Mail screen, read with one click; its
 * receipts arrive in the history with the mail's subject and sender, filterable by source; a test
 * receipt sent into it arrives live. Keyboard and screen reader checks (axe) on both screens.
 */
import { expect, it } from 'vitest'
import { E2E_TIMEOUT, describeE2E, goTo, until } from './suite'

describeE2E('mail', (t) => {
  it(
    "the demo's inbox: read it on the Mail screen, see its receipts in the history by source, send a test receipt",
    async () => {
      const { page } = await t.open()
      await goTo(page, /^Mail/, 'Mail')
      const card = page.locator('li', { has: page.getByRole('heading', { name: 'Demo inbox (demo)' }) })
      await until(() => card.textContent()).toMatch(/Off.*Sample mails are waiting/s)
      await t.a11y('the Mail screen with the demo inbox')
      await card.getByRole('button', { name: 'Read the demo inbox' }).click()
      await until(() => card.textContent()).toMatch(/Connected/)
      await t.shot('mail-screen')

      await goTo(page, /Upload history/, 'Upload history')
      await page.getByLabel('Source').selectOption('mail')
      const table = page.getByRole('table', { name: 'Upload history' })
      await until(() => table.textContent(), 30_000).toMatch(
        /Mail: Invoice and delivery note · Flour Mills Ltd/,
      )
      // Rows that arrive after the history was loaded are offered, not pushed in: take them.
      await until(async () => {
        const arrived = page.getByRole('button', { name: /^Show \d+ new uploads?$/ })
        if (await arrived.isVisible()) await arrived.click()
        return page.getByText(/^\d+ uploads?$/).textContent()
      }, 30_000).toBe('6 uploads')
      expect(await table.textContent()).toMatch(/Our March newsletter/)
      await t.a11y('the history filtered by mail')
      await t.shot('history-mail')

      await goTo(page, /^Mail/, 'Mail')
      await card.getByRole('button', { name: 'Send a test receipt' }).click()
      await goTo(page, /Upload history/, 'Upload history')
      // The history offers the rows that arrived since it was loaded.
      const more = page.getByRole('button', { name: 'Show 1 new upload' })
      await more.waitFor({ timeout: 30_000 })
      await more.click()
      await until(() => page.getByText(/^\d+ uploads?$/).textContent(), 30_000).toBe('7 uploads')
      expect(await table.textContent()).toMatch(/Mail: Receipt .+ · Corner Shop/)
    },
    E2E_TIMEOUT,
  )
})
