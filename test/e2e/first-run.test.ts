/**
 * First run (issue 4): connect with a bad key, then a good one; or try the demo.
 */
import { expect, it } from 'vitest'
import type { Fixtures } from '../../sandbox'
import { E2E_TIMEOUT, describeE2E, until } from './suite'

const GOOD_KEY = 'svc_sk_e2e_first_run_business_0001'
const BAD_KEY = 'svc_sk_e2e_this_key_does_not_exist_99'

const fixtures: Fixtures = {
  businesses: [{ uuid: 'b-first', name: 'Ada Bakery Ltd', key: GOOD_KEY, currency: 'NGN', country: 'NG' }],
  rate_limit: { limit: 100_000, window_seconds: 60 },
}

describeE2E('first run', (t) => {
  it(
    'first run: a bad key is refused in plain words, then a good key lands on the app',
    async () => {
      const { app, page } = await t.open({ fixtures, autoDemo: false })

      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Welcome to Bookdrop')
      await expect(page.getByRole('button', { name: 'Try demo' }).isVisible()).resolves.toBe(true)
      // The token of the printed link was read and taken out of the address (replaceState): no
      // history entry, bookmark or Referer carries it.
      expect(await page.evaluate(() => window.location.href)).not.toMatch(/token=/)
      await t.a11y('the first-run screen')

      const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Connect' }) })
      await form.getByLabel('Profile name').fill('Ada Bakery')
      await form.getByLabel('Environment').selectOption('custom')
      await form.getByLabel('Base URL').fill(app.sb!.url)
      const secret = form.getByLabel('Secret key')
      await secret.fill(BAD_KEY)
      await form.getByRole('button', { name: 'Connect' }).click()

      // Said plainly, next to the field it is about; nothing was saved, and the key is not echoed.
      const alert = form.getByRole('alert')
      await alert.waitFor()
      expect(await alert.textContent()).toMatch(/^Not connected: The server refused the key: .+/)
      expect(await alert.textContent()).toMatch(/nothing was saved/i)
      await until(() => secret.getAttribute('aria-invalid')).toBe('true')
      // The key stays in its field to be corrected, and appears nowhere else on the page.
      expect(await page.locator('body').innerText()).not.toContain(BAD_KEY)
      await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Welcome to Bookdrop')
      await t.a11y('the first-run screen with the refused key')
      await t.shot('bad-key')

      await secret.fill(GOOD_KEY)
      await form.getByRole('button', { name: 'Connect' }).click()

      // Lands on the app: the business screens, the profile in the status bar, connected.
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Capture')
      const nav = page.getByRole('navigation', { name: 'Screens' })
      await expect(nav.getByRole('button', { name: /Upload history/ }).isVisible()).resolves.toBe(true)
      await expect(nav.textContent()).resolves.toContain('Ada Bakery Ltd')
      const status = page.getByRole('contentinfo', { name: 'Status' })
      await until(() => status.textContent()).toMatch(/Ada Bakery.*Business · custom.*Connected/s)
      expect(await page.content()).not.toContain(GOOD_KEY) // the field was emptied once the key was saved
      const profiles = await app.host.service.listProfiles({})
      expect(profiles.profiles.map((p) => [p.name, p.kind, p.demo])).toEqual([
        ['Ada Bakery', 'business', false],
      ])
      await t.a11y('the capture screen')
      await t.shot()
    },
    E2E_TIMEOUT,
  )

  it(
    'demo mode: "Try demo" opens the app on the embedded emulator with sample data',
    async () => {
      const { app, page } = await t.open({ autoDemo: false })
      await page.getByRole('button', { name: 'Try demo' }).click()

      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Capture')
      const nav = page.getByRole('navigation', { name: 'Screens' })
      await expect(nav.textContent()).resolves.toMatch(/Demo.*Demo Bakery Ltd/s)
      const status = page.getByRole('contentinfo', { name: 'Status' })
      await until(() => status.textContent()).toMatch(/Demo Bakery \(demo\).*Connected/s)
      await t.a11y('the capture screen (demo)')

      // The sample data is there: the demo's invoices, with their balances.
      await nav.getByRole('button', { name: /Invoices/ }).click()
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Invoices')
      const table = page.getByRole('table', { name: 'Invoices' })
      await table.getByRole('cell', { name: 'Wedding cake order' }).waitFor()
      expect(await table.getByRole('row').count()).toBe(4) // header + 3 sample invoices
      await t.a11y('the invoices screen (demo)')

      // The partner side of the demo is one switch away (Settings lists both demo profiles).
      await nav.getByRole('button', { name: /Settings/ }).click()
      const profiles = page.getByRole('table', { name: 'Profiles' })
      await profiles.getByRole('row', { name: /Demo Partner \(demo\)/ }).waitFor()
      await t.a11y('the settings screen (demo)')
      await t.shot()

      // The same screens follow a dark OS theme, and stay readable there.
      const dark = await t.openPage({ colorScheme: 'dark' })
      await dark.goto(app.host.url)
      await until(() => dark.getByRole('heading', { level: 1 }).textContent()).toBe('Capture')
      await t.a11y('the capture screen (demo, dark theme)', dark)
      await t.shot('dark', dark)
    },
    E2E_TIMEOUT,
  )
})
