/**
 * The partner console (issue 5), end to end: register a business (a weak password refused with the
 * rule shown, then a good one with admin access), save its keys as a profile and switch to it, grant
 * seats twice (the second prorated after the emulator's clock moves on), and a grant larger than the
 * holding explained with how much is missing.
 */
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import type { Fixtures } from '../../sandbox'
import { sandboxControl, sandboxCreates, statusBarProblems } from './helpers'
import { E2E_TIMEOUT, describeE2E, goTo, nav, until } from './suite'

const PARTNER_KEY = 'svc_partner_sk_e2e_ledger_partners_0001'
const HOLDING = 1000
const DAY = 86_400_000
const fixtures: Fixtures = {
  partners: [{ name: 'Ledger Partners', key: PARTNER_KEY, holding_credits: HOLDING }],
  businesses: [
    {
      uuid: 'b-existing',
      name: 'Existing Client Ltd',
      key: 'svc_sk_e2e_existing_client_0001',
      referred_by: PARTNER_KEY,
    },
  ],
  rate_limit: { limit: 100_000, window_seconds: 60 },
}
const BUSINESS = 'Mama Put Kitchen'
const registration = {
  business_name: BUSINESS,
  email: 'owner@mamaput.example',
  firstname: 'Ngozi',
  lastname: 'Okafor',
  country: 'NG',
  currency: 'NGN',
  timezone: 'Africa/Lagos',
  grant_access: 'admin',
}

const h1 = (page: Page) => page.getByRole('heading', { level: 1 }).textContent()

/** The <dd> of a fact (<dt>) in a dialog's result list. */
async function fact(page: Page, name: string): Promise<string> {
  const row = page
    .getByRole('dialog')
    .locator('dl.facts > div')
    .filter({
      has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }),
    })
  return ((await row.locator('dd').textContent()) ?? '').trim()
}

describeE2E('partner console', (t) => {
  it(
    'registers a business (weak password refused, then admin access), switches to it, and grants seats twice and too many',
    async () => {
      const app = await t.app({
        fixtures,
        profiles: [{ name: 'Ledger Partners', kind: 'partner', key: PARTNER_KEY }],
      })
      const sb = app.sb!
      const page = t.page
      await page.goto(app.host.url)
      // A partner opens on its overview, which lists the businesses still without seats.
      await until(() => h1(page)).toBe('Overview')
      await page
        .getByRole('table', { name: 'Businesses without seats' })
        .getByText('Existing Client Ltd', { exact: true })
        .waitFor()
      await goTo(page, /Referred businesses/, 'Referred businesses')
      await page.getByRole('cell', { name: 'Existing Client Ltd', exact: true }).waitFor()
      // A partner profile sees the console, not the business screens.
      expect(
        await nav(page)
          .getByRole('button', { name: /Capture/ })
          .count(),
      ).toBe(0)
      await t.a11y('the referred businesses screen')

      // ---- register: a weak password is refused, with the rule shown -------------------------------
      await goTo(page, /Register a business/, 'Register a business')
      await t.a11y('the register form')
      const form = page.locator('form.register')
      await form.getByLabel(/^Business name/).fill(registration.business_name)
      await form.getByLabel(/^Owner’s email/).fill(registration.email)
      await form.getByLabel(/^Owner’s first name/).fill(registration.firstname)
      await form.getByLabel(/^Owner’s last name/).fill(registration.lastname)
      const password = form.getByRole('textbox', { name: 'Password (required)' })
      await password.fill('secret')
      await form.getByLabel(/^Country/).fill(registration.country)
      await form.getByLabel(/^Currency/).fill(registration.currency)
      await form.getByLabel(/^Time zone/).selectOption(registration.timezone)
      await expect(form.getByLabel(/^Admin:/).isChecked()).resolves.toBe(true)

      const rules = form.getByRole('list', { name: 'Password rules' })
      const ruleState = () =>
        rules
          .locator('li')
          .evaluateAll((lis) =>
            lis.map((li) => `${li.getAttribute('data-rule')}:${li.getAttribute('data-ok')}`),
          )
      expect(await ruleState()).toEqual(['length:false', 'letter:true', 'number:false', 'special:false'])

      await form.getByRole('button', { name: 'Register business' }).click()
      const passwordError = form.locator('.field--invalid .field__error')
      // The rules it misses, in plain words (issue 34).
      await until(() => passwordError.textContent()).toBe(
        'The password needs at least 8 characters, a number, and a special character (such as ! @ # $ %).',
      )
      await until(() => password.getAttribute('aria-invalid')).toBe('true')
      expect(await form.getByRole('alert').textContent()).toBe('Some fields need attention.')
      // The same rule the server applies (the server words it its own way).
      const server = await fetch(`${sb.url}/register-business`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-API-Key': PARTNER_KEY },
        body: JSON.stringify({ ...registration, password: 'secret' }),
      })
      expect(server.status).toBe(400)
      expect(((await server.json()) as { message: string }).message).toBe(
        'password: password needs at least 8 characters, a number, a special character (such as ! @ # $ %)',
      )
      expect(await sandboxCreates(sb, '/register-business')).toEqual([])
      await t.a11y('the register form with a weak password')
      await t.shot('weak-password')

      // ---- then a good one, with admin access: keys held by main, only a hint shown -----------------
      await password.fill('Str0ng!pass')
      expect(await ruleState()).toEqual(['length:true', 'letter:true', 'number:true', 'special:true'])
      await form.getByRole('button', { name: 'Register business' }).click()
      const done = page.getByRole('region', { name: `${BUSINESS} is registered` })
      await done.waitFor()
      expect(
        await done
          .locator('dd')
          .filter({ hasText: /^svc_sk_…/ })
          .textContent(),
      ).toMatch(/^svc_sk_…[\w-]{4}$/)
      expect(await page.locator('body').innerText()).not.toMatch(/svc_sk_[A-Za-z0-9_-]{8,}/)
      expect(await sandboxCreates(sb, '/register-business')).toHaveLength(1)
      await t.a11y('the registered business')

      // ---- save its keys as a profile, and switch to it: the business screens appear ----------------
      await expect(done.getByLabel('Profile name').inputValue()).resolves.toBe(BUSINESS)
      await done.getByRole('button', { name: 'Save as a profile' }).click()
      await until(() => done.getByRole('status').textContent()).toMatch(/^Saved as a profile\./)
      await done.getByRole('button', { name: `Switch to ${BUSINESS}` }).click()
      await until(() => h1(page)).toBe('Capture')
      for (const screen of [/Capture/, /Watched folders/, /Upload history/, /Purchase orders/, /Invoices/]) {
        expect(await nav(page).getByRole('button', { name: screen }).count()).toBe(1)
      }
      expect(
        await nav(page)
          .getByRole('button', { name: /Register a business/ })
          .count(),
      ).toBe(0)
      const status = page.getByRole('contentinfo', { name: 'Status' })
      await until(() => status.textContent()).toMatch(
        new RegExp(`${BUSINESS}.*Business · custom.*Connected`, 's'),
      )
      expect(await statusBarProblems(page)).toEqual([])
      await t.a11y('the business screens of the new profile')
      await t.shot('switched')

      // ---- back to the partner profile ------------------------------------------------------------------
      await goTo(page, /Settings/, 'Settings')
      await t.a11y('the settings screen (partner and business profiles)')
      await page.getByRole('button', { name: 'Switch to Ledger Partners' }).click()
      await until(() =>
        nav(page)
          .getByRole('button', { name: /Referred businesses/ })
          .count(),
      ).toBe(1)
      await goTo(page, /Referred businesses/, 'Referred businesses')
      const bizRow = page.getByRole('row', { name: new RegExp(BUSINESS) })
      await bizRow.waitFor()

      // ---- a first grant: 1 seat for 1 month, 150 credits, a new period ---------------------------------
      await bizRow.getByRole('button', { name: `Add seats for ${BUSINESS}` }).click()
      const dialog = page.getByRole('dialog')
      await until(() => dialog.locator('.quote').textContent()).toMatch(/^Cost150 credits/)
      await t.a11y('the add-seats dialog (first grant)')
      await dialog.getByRole('button', { name: 'Grant for 150 credits' }).click()
      await until(() => dialog.getByRole('heading').textContent()).toBe(`Seats granted to ${BUSINESS}`)
      expect(await fact(page, 'Prorated')).toBe('No: a new period starts')
      expect(await fact(page, 'Seats now')).toBe('1')
      expect(await fact(page, 'Charged')).toBe('150 credits')
      expect(await fact(page, 'Holding now')).toBe(`${(HOLDING - 150).toLocaleString('en-US')} credits`)
      await t.a11y('the first grant')
      await dialog.getByRole('button', { name: 'Done' }).click()
      await until(() => dialog.count()).toBe(0)

      // ---- 12 days later (emulator clock): 2 more seats join the running period, prorated ---------------
      await sandboxControl(sb, 'clock', { advance_ms: 12 * DAY })
      await page.getByRole('button', { name: 'Reload' }).click()
      // Plan and status in words (issue 34), not the API's "plus" and "active".
      await until(() => bizRow.textContent()).toMatch(/Plus.*Active/)
      await bizRow.getByRole('button', { name: `Add seats for ${BUSINESS}` }).click()
      await dialog.getByLabel('Seats').fill('2')
      await until(() => dialog.locator('.quote').textContent()).toMatch(/^Cost \(estimate\)/)
      await t.a11y('the add-seats dialog (later grant)')
      await dialog.getByRole('button', { name: /^Grant for/ }).click()
      await until(() => dialog.getByRole('heading').textContent()).toBe(`Seats granted to ${BUSINESS}`)
      // ⌈150 × 2 seats × 18 remaining days ÷ 30⌉ = 180, not the full 300 of a month.
      const prorated = Math.ceil((150 * 2 * 18) / 30)
      expect(await fact(page, 'Prorated')).toBe('Yes: charged for the rest of the running period')
      expect(await fact(page, 'Seats now')).toBe('3')
      expect(await fact(page, 'Charged')).toBe(`${prorated} credits`)
      expect(prorated).toBeLessThan(150 * 2 * 1)
      const holding = HOLDING - 150 - prorated
      expect(await fact(page, 'Holding now')).toBe(`${holding} credits`)
      await t.a11y('the prorated grant')
      await t.shot('prorated')
      await dialog.getByRole('button', { name: 'Done' }).click()
      await until(() => dialog.count()).toBe(0)

      // ---- more than the holding: refused, and how much is missing is said ------------------------------
      await bizRow.getByRole('button', { name: `Add seats for ${BUSINESS}` }).click()
      await dialog.getByLabel('Seats').fill('10')
      const needed = Math.ceil((150 * 10 * 18) / 30)
      expect(needed).toBeGreaterThan(holding)
      await dialog.getByRole('button', { name: /^Grant for/ }).click()
      await until(() => dialog.getByRole('alert').textContent()).toBe(
        `Your partner credit holding is too small: this grant needs ${needed} credits and the holding has ${holding}, so ${needed - holding} credits are missing. Top up the holding, or grant fewer seats or months.`,
      )
      await t.a11y('the refused grant')
      await t.shot()
      const grants = await sandboxCreates(sb, '/referred-businesses/:business_uuid/add-seats')
      expect(grants).toHaveLength(2) // nothing was charged for the refused one
    },
    E2E_TIMEOUT,
  )
})
