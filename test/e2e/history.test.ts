/**
 * Upload history at scale (issue 4): 100,000 rows seeded straight into bookdrop.db before the host
 * starts; filtered by status and by a search, and scrolled to the very bottom, with only a window
 * of rows ever in the DOM; reopened at its address (#history).
 */
import type { Locator, Page } from 'playwright-core'
import { expect, it } from 'vitest'
import type { Fixtures } from '../../sandbox'
import { type SeededRow, seedHistory, statusBarProblems } from './helpers'
import { E2E_TIMEOUT, describeE2E, goTo, onScreen, until } from './suite'

const KEY = 'svc_sk_e2e_history_business_0001'
const fixtures: Fixtures = {
  businesses: [{ uuid: 'b-history', name: 'History Stores Ltd', key: KEY, currency: 'NGN', country: 'NG' }],
  rate_limit: { limit: 100_000, window_seconds: 60 },
}
const ROWS = 100_000
/** More than a screenful plus overscan, far fewer than the rows: the table is virtual. */
const MAX_DOM_ROWS = 80

const fmt = (n: number) => n.toLocaleString('en-US')

/** Newest first, like the table. */
function matching(rows: SeededRow[], f: (r: SeededRow) => boolean): SeededRow[] {
  return rows.filter(f).reverse()
}

function dataRow(page: Page, index: number): Locator {
  return page.locator(`.vtable__scroll [role="row"][aria-rowindex="${index + 2}"]:not(.vtable__row--loading)`)
}

async function fileName(row: Locator): Promise<string> {
  return (await row.locator('[role="cell"]').nth(1).locator('.ellipsis').textContent()) ?? ''
}

async function domRows(page: Page): Promise<number> {
  return page.locator('.vtable__scroll [role="row"]').count()
}

/** Scrolls the table to its end and checks the last row is there, on screen, with the right file. */
async function scrollToBottom(page: Page, expected: SeededRow[]): Promise<void> {
  const scroller = page.locator('.vtable__scroll')
  await scroller.evaluate((el) => el.scrollTo({ top: el.scrollHeight }))
  const last = dataRow(page, expected.length - 1)
  await until(() => last.count()).toBe(1)
  expect(await fileName(last)).toBe(expected[expected.length - 1]!.name)
  const [box, view] = await Promise.all([last.boundingBox(), scroller.boundingBox()])
  expect(box && view && box.y >= view.y - 1 && box.y + box.height <= view.y + view.height + 1).toBe(true)
  expect(await domRows(page)).toBeLessThanOrEqual(MAX_DOM_ROWS)
}

describeE2E('upload history', (t) => {
  it(
    'history with 100,000 rows: filtered by status and search, scrolled to the bottom, only a window in the DOM',
    async () => {
      let rows: SeededRow[] = []
      const app = await t.app({
        fixtures,
        profiles: [{ name: 'History Stores', kind: 'business', key: KEY }],
        seed: (dataDir, profiles) => {
          rows = seedHistory(dataDir, profiles[0]!.id, ROWS)
        },
      })
      expect(rows).toHaveLength(ROWS)
      const page = t.page
      await page.goto(app.host.url)
      // Files were sent: the app opens on the overview, whose figures main counts from the same
      // 100,000 rows (this month's, by the day each file was added).
      await onScreen(page, 'Overview')
      const start = new Date()
      start.setDate(1)
      start.setHours(0, 0, 0, 0)
      const thisMonth = rows.filter((r) => r.createdAt >= start.getTime())
      const completed = thisMonth.filter((r) => r.status === 'completed').length
      const figure = (label: string) =>
        page
          .locator('dl.kpis .kpi')
          .filter({ has: page.locator('dt', { hasText: label }) })
          .locator('.kpi__value')
      await until(() => figure('Files sent').textContent()).toBe(fmt(completed))
      expect(await figure('Records created').textContent()).toBe(fmt(completed))
      expect(await figure('Need attention').textContent()).toBe(
        fmt(rows.filter((r) => ['failed', 'skipped', 'duplicate'].includes(r.status)).length),
      )
      await t.a11y('the overview (with 100,000 uploads in the history)')
      await goTo(page, /Upload history/, 'Upload history')

      const count = page.locator('.history__bar [aria-live]')
      await until(() => count.textContent()).toBe(`${fmt(ROWS)} uploads`)
      const table = page.getByRole('table', { name: 'Upload history' })
      expect(await table.getAttribute('aria-rowcount')).toBe(String(ROWS + 1))
      await until(() => dataRow(page, 0).count()).toBe(1)
      expect(await fileName(dataRow(page, 0))).toBe(rows[ROWS - 1]!.name)
      expect(await domRows(page)).toBeLessThanOrEqual(MAX_DOM_ROWS)
      await t.a11y('the upload history (100,000 rows)')

      // Status: failed only.
      await page.getByRole('button', { name: 'Failed', exact: true }).click()
      const failed = matching(rows, (r) => r.status === 'failed')
      expect(failed.length).toBeGreaterThan(1000)
      await until(() => count.textContent()).toBe(`${fmt(failed.length)} uploads`)
      await until(() => dataRow(page, 0).count()).toBe(1)
      expect(await fileName(dataRow(page, 0))).toBe(failed[0]!.name)
      expect(await dataRow(page, 0).locator('.badge').textContent()).toBe('Failed')

      // And a search on the file name.
      await page.getByLabel('Search file names').fill('shoprite')
      const failedShoprite = failed.filter((r) => r.name.includes('shoprite'))
      expect(failedShoprite.length).toBeGreaterThan(100)
      await until(() => count.textContent()).toBe(`${fmt(failedShoprite.length)} uploads`)
      await until(() => dataRow(page, 0).count()).toBe(1)
      expect(await fileName(dataRow(page, 0))).toBe(failedShoprite[0]!.name)
      await t.a11y('the upload history, filtered')
      await t.shot('filtered')
      await scrollToBottom(page, failedShoprite)

      // Every row again, and all the way down to the oldest of the 100,000.
      await page.getByLabel('Search file names').fill('')
      await page.getByRole('button', { name: 'Any status' }).click()
      await until(() => count.textContent()).toBe(`${fmt(ROWS)} uploads`)
      await until(() => dataRow(page, 0).count()).toBe(1)
      expect(await fileName(dataRow(page, 0))).toBe(rows[ROWS - 1]!.name)
      await scrollToBottom(page, [...rows].reverse())
      // The status bar copes with six-figure counts and "N need attention".
      expect(await statusBarProblems(page)).toEqual([])
      await t.a11y('the upload history, scrolled to the bottom')
      await t.shot()

      // The address names the screen: a reload opens the history again, on its newest rows.
      expect(new URL(page.url()).hash).toBe('#history')
      await page.reload()
      await onScreen(page, 'Upload history')
      await until(() => count.textContent()).toBe(`${fmt(ROWS)} uploads`)
      await until(() => dataRow(page, 0).count()).toBe(1)
      expect(await fileName(dataRow(page, 0))).toBe(rows[ROWS - 1]!.name)
      await goTo(page, /Capture/, 'Capture')
      expect(new URL(page.url()).hash).toBe('#capture')

      // Opened again without a screen in the address: where it was left.
      await goTo(page, /Upload history/, 'Upload history')
      await page.goto(`${app.host.origin}/`)
      await onScreen(page, 'Upload history')
      await until(() => dataRow(page, 0).count()).toBe(1)
    },
    E2E_TIMEOUT,
  )
})
