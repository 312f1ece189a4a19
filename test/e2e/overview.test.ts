/**
 * Issue 12 end to end, in Chromium through the web host: "Try demo" offers the sample receipts; once
 * dropped, the emulator reads each PDF (vendor, total, currency) and the overview counts them; a
 * partner's overview lists businesses without seats and remembers a grant. The overview and the
 * demo's Capture are checked at 1280×800 and 1024×700, in light and dark: nothing in the screen
 * scrolls sideways, every control is inside the window, axe finds nothing serious, and a screenshot of each goes to
 * test-results/overview-<size>-<theme>-<screen>.png.
 */
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import type { Fixtures } from '../../sandbox'
import { SAMPLE_RECEIPTS } from '../../sandbox/sample-receipts'
import { AI_CREDITS_PER_CREATE } from '../../schemas'
import { screenshot } from './helpers'
import { type ScreenSpec, eachLook } from './looks'
import { type E2E, E2E_TIMEOUT, describeE2E, goTo, onScreen, until } from './suite'

const SIZES = [
  { width: 1280, height: 800 },
  { width: 1024, height: 700 },
] as const

/** Money as the renderer writes it (en-US), spaces normalised. */
const money = (n: number, currency: string) =>
  new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(n).replace(/\s/g, ' ')

/** What does not fit the window: sideways scrolling (page or a box in it), controls outside it. */
async function fitProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    const vw = document.documentElement.clientWidth
    if (document.documentElement.scrollWidth > vw + 1)
      out.push(`the page scrolls sideways (${document.documentElement.scrollWidth}px in ${vw}px)`)
    for (const el of document.querySelectorAll<HTMLElement>('main *')) {
      const s = getComputedStyle(el)
      if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1)
        out.push(
          `${el.tagName.toLowerCase()}.${el.className} scrolls sideways (${el.scrollWidth}px in ${el.clientWidth}px)`,
        )
    }
    for (const el of document.querySelectorAll<HTMLElement>('main button, main a[href], main summary')) {
      const r = el.getBoundingClientRect()
      if (r.width === 0 || r.height === 0) continue
      if (r.right > vw + 1 || r.left < -1)
        out.push(
          `"${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}" is outside the window`,
        )
    }
    return out
  })
}

/**
 * Each screen at both sizes and in both themes: fit, axe, and a screenshot. (The status bar's own
 * fit is layout.test.ts's business.)
 */
async function everyLook(
  t: E2E,
  url: string,
  screens: ScreenSpec[],
  tag: string,
): Promise<string[]> {
  const problems: string[] = []
  await eachLook(t, url, screens, SIZES, async (page, s, where) => {
    for (const p of await fitProblems(page)) problems.push(`${where} ${s.title}: ${p}`)
    await t.a11y(`${s.title} (${where})`, page)
    await screenshot(page, `overview-${where}-${tag}-${s.title}`)
  })
  return problems
}

/** The overview's figure under `label` ("Files sent"). */
function kpi(page: Page, label: string) {
  return page
    .locator('dl.kpis .kpi')
    .filter({ has: page.locator('dt', { hasText: label }) })
    .locator('.kpi__value')
}

const figuresShown = (p: Page) => p.locator('dl.kpis').waitFor()

describeE2E('overview and demo', (t) => {
  it(
    'Try demo offers the sample receipts; dropped, they become expenses with their vendors and totals, and the overview counts them',
    async () => {
      const { app, page } = await t.open({ autoDemo: false })
      await page.getByRole('button', { name: 'Try demo' }).click()
      await onScreen(page, 'Capture')
      const offer = page.getByRole('region', { name: 'Try it with sample receipts' })
      await offer.getByRole('button', { name: 'Drop the sample receipts' }).click()

      // Each one is sent, read by the emulator, and its record made.
      const session = page.getByRole('region', { name: /^This session/ })
      await until(() => session.locator('.badge', { hasText: 'Completed' }).count(), 60_000).toBe(
        SAMPLE_RECEIPTS.length,
      )
      for (const s of SAMPLE_RECEIPTS) await session.getByText(s.name, { exact: true }).waitFor()
      await t.a11y('capture with the sample receipts sent (demo)')
      await t.shot('sent')

      await goTo(page, /Expenses & bills/, 'Expenses & bills')
      const table = page.getByRole('table', { name: 'Expenses' })
      for (const s of SAMPLE_RECEIPTS) {
        const row = table.getByRole('row').filter({ hasText: s.vendor })
        await row.first().waitFor()
        expect((await row.first().textContent())?.replace(/\s/g, ' '), s.name).toContain(
          money(s.total, s.currency),
        )
      }
      // Not one "NGN 0.00" expense named after its file.
      expect(await table.getByRole('cell', { name: /\.pdf$/ }).count()).toBe(0)

      await goTo(page, /Overview/, 'Overview')
      await figuresShown(page)
      const n = String(SAMPLE_RECEIPTS.length)
      await until(() => kpi(page, 'Files sent').textContent()).toBe(n)
      await until(() => kpi(page, 'Records created').textContent()).toBe(n)
      expect(await kpi(page, 'AI credits used').textContent()).toBe(
        String(SAMPLE_RECEIPTS.length * AI_CREDITS_PER_CREATE),
      )
      const chart = page.getByRole('img', { name: /^Files sent per day in / })
      expect(await chart.getAttribute('aria-label')).toContain(`${n} files in all`)
      expect(await chart.locator('rect.chart__bar--done').count()).toBe(1) // today's column

      const problems = await everyLook(
        t,
        app.host.url,
        [
          { nav: /Overview/, title: 'Overview', ready: figuresShown },
          { nav: /Capture/, title: 'Capture' },
          {
            nav: /Expenses & bills/,
            title: 'Expenses & bills',
            ready: (p) => p.getByRole('cell', { name: SAMPLE_RECEIPTS[0]!.vendor }).first().waitFor(),
          },
        ],
        'demo',
      )
      expect(problems).toEqual([])
    },
    E2E_TIMEOUT * 3,
  )

  it(
    'a partner opens on its overview: businesses without seats, and a grant made there is remembered',
    async () => {
      const PARTNER = 'svc_partner_sk_e2e_overview_partner_0001'
      const LONG = 'Adebayo & Daughters Artisanal Bakery, Confectionery and Outdoor Catering Services Limited'
      const fixtures: Fixtures = {
        partners: [{ name: 'Ledger Partners', key: PARTNER, holding_credits: 5_000 }],
        businesses: [
          { uuid: 'b-long', name: LONG, key: 'svc_sk_e2e_overview_long_0001', referred_by: PARTNER },
          {
            uuid: 'b-kitchen',
            name: 'Mama Put Kitchen',
            key: 'svc_sk_e2e_overview_kitchen_0001',
            referred_by: PARTNER,
          },
          {
            uuid: 'b-paid',
            name: 'Partner Paid Pharmacy',
            key: 'svc_sk_e2e_overview_paid_0001',
            referred_by: PARTNER,
            credit_from_referral_partner: true,
          },
        ],
        rate_limit: { limit: 100_000, window_seconds: 60 },
      }
      const app = await t.app({
        fixtures,
        profiles: [{ name: 'Ledger Partners', kind: 'partner', key: PARTNER }],
      })
      const page = t.page
      await page.goto(app.host.url)
      await onScreen(page, 'Overview')
      await figuresShown(page)
      const without = page.getByRole('table', { name: 'Businesses without seats' })
      await until(() => without.locator('tbody tr').count()).toBe(3)
      expect(await kpi(page, 'Holding').textContent()).toBe('—')
      // A business whose AI use the partner pays cannot take seats: no button for it.
      expect(await without.getByRole('button', { name: 'Add seats for Partner Paid Pharmacy' }).count()).toBe(
        0,
      )
      await t.a11y('the partner overview')

      await without.getByRole('button', { name: 'Add seats for Mama Put Kitchen' }).click()
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('button', { name: 'Grant for 150 credits' }).click()
      await until(() => dialog.getByRole('heading').textContent()).toBe('Seats granted to Mama Put Kitchen')
      await dialog.getByRole('button', { name: 'Done' }).click()

      await until(() => without.locator('tbody tr').count()).toBe(2)
      await until(() => kpi(page, 'Holding').textContent()).toBe('4,850')
      expect(await kpi(page, 'Seats granted').textContent()).toBe('1')
      const grants = page.getByRole('table', { name: /^Grants made from Bookdrop in / })
      await grants.getByRole('row', { name: /Mama Put Kitchen.*1 seat for 1 month.*150/ }).waitFor()

      // Remembered by main: a new window (a restart of the renderer) shows the same.
      const again = await t.openPage()
      await again.goto(app.host.url)
      await onScreen(again, 'Overview')
      await until(() => kpi(again, 'Holding').textContent()).toBe('4,850')

      const problems = await everyLook(
        t,
        app.host.url,
        [{ nav: /Overview/, title: 'Overview', ready: figuresShown }],
        'partner',
      )
      expect(problems).toEqual([])
    },
    E2E_TIMEOUT * 2,
  )
})
