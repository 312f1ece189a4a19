/**
 * Screens that tell the truth (issue 26), as a small-business owner meets them: a server that goes
 * away and comes back, a German, British or Japanese locale, invoices in yen and rupiah with long
 * amounts, a supplier with an Arabic name, and a capture done with the keyboard only with a file
 * that is skipped. (200 % zoom on every screen: layout.test.ts.)
 */
import type { FileChooser, Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { type Fixtures, type Sandbox, startSandbox } from '../../sandbox'
import {
  E2E_ENGINE,
  cutProblems,
  fitProblems,
  receiptText,
  screenshot,
  seedHistory,
  statusBarProblems,
} from './helpers'
import { E2E_TIMEOUT, describeE2E, goTo, onScreen, until } from './suite'

const KEY = 'svc_sk_e2e_truth_business_0001'
/** A supplier's name in Arabic, long enough to be cut in its column. */
const ARABIC_VENDOR = 'شركة الخليج للتجارة والمقاولات العامة والخدمات اللوجستية المحدودة فرع الرياض'

const fixtures: Fixtures = {
  businesses: [{ uuid: 'b-yen', name: 'Sakura Bento KK', key: KEY, currency: 'JPY', country: 'JP' }],
  invoices: [
    {
      uuid: 'inv-yen-0001',
      source_uuid: 'INV-JP-0001',
      business: 'b-yen',
      date: '2026-01-05',
      due_date: '2026-02-04',
      narration: 'Catering for the spring market',
      total_amount: 1_234_567_890,
      amount_paid: 0,
      currency: 'JPY',
    },
    {
      uuid: 'inv-idr-0001',
      source_uuid: 'INV-ID-0001',
      business: 'b-yen',
      date: '2026-11-25',
      due_date: '2026-12-25',
      narration: 'Batik cloth, four hundred bolts',
      total_amount: 1_234_567_890_123,
      amount_paid: 1_000_000_000_000,
      currency: 'IDR',
    },
  ],
  records: [
    {
      resource: 'expenses',
      uuid: 'exp-arabic-0001',
      business: 'b-yen',
      date: '2026-03-09',
      narration: 'Spices and dates for the Ramadan menu',
      amount: 98_765_432,
      contact: ARABIC_VENDOR,
    },
  ],
  bank_transactions: [
    {
      uuid: 'bt-yen-0001',
      business: 'b-yen',
      date: '2026-12-28',
      amount: -123_456_789,
      narration: 'Transfer to the fish market',
    },
  ],
  rate_limit: { limit: 100_000, window_seconds: 60 },
  job_delay_ms: 40,
}
const profiles = [{ name: 'Sakura Bento', kind: 'business' as const, key: KEY }]

const SIZES = [
  { viewport: { width: 1280, height: 800 }, colorScheme: 'light' },
  { viewport: { width: 1024, height: 700 }, colorScheme: 'dark' },
  { viewport: { width: 640, height: 400 }, colorScheme: 'dark' },
  { viewport: { width: 640, height: 400 }, colorScheme: 'light' },
] as const

const squash = (s: string | null) => (s ?? '').replace(/\s/g, ' ').trim()

/** What the browser's own Intl writes for this locale: the truth the screens must show. */
function intl(page: Page, locale: string) {
  return {
    money: (n: number, currency: string) =>
      page.evaluate(([l, v, c]) => new Intl.NumberFormat(l, { style: 'currency', currency: c }).format(v), [
        locale,
        n,
        currency,
      ] as const),
    day: (iso: string) =>
      page.evaluate(
        ([l, d]) => {
          const [y, m, dd] = d.split('-').map(Number)
          return new Intl.DateTimeFormat(l, { dateStyle: 'medium' }).format(new Date(y!, m! - 1, dd!))
        },
        [locale, iso] as const,
      ),
  }
}

/** The text of each cell of a table's row holding `text`, spaces normalised. */
async function rowCells(page: Page, table: string, text: string): Promise<string[]> {
  const row = page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text })
  await row.first().waitFor()
  return (await row.first().getByRole('cell').allTextContents()).map(squash)
}

describeE2E('screens that tell the truth', (t) => {
  describe.each([
    {
      locale: 'en-GB',
      day: '5 Jan 2026',
      yen: /^JP¥1,234,567,890$|^¥1,234,567,890$/,
      rupiah: /^IDR\s1,234,567,890,123$/,
    },
    {
      locale: 'de-DE',
      day: '05.01.2026',
      yen: /^1\.234\.567\.890\s¥$/,
      rupiah: /^1\.234\.567\.890\.123\sIDR$/,
    },
    {
      locale: 'ja-JP',
      day: '2026/01/05',
      yen: /^[￥¥]1,234,567,890$/,
      rupiah: /^IDR\s1,234,567,890,123$/,
    },
  ])('in $locale', ({ locale, day, yen, rupiah }) => {
    it(
      'money in its own minor units and the locale’s digits, dates in the locale everywhere, none of it cut, at 1280, 1024 and 640 px',
      async () => {
        const app = await t.app({
          fixtures,
          profiles,
          seed: (dataDir, ps) => void seedHistory(dataDir, ps[0]!.id, 60),
        })
        // The interface in English (issue 34: a de-DE browser would get German words); dates and
        // money still follow the browser's locale, which is what this test is about.
        await app.host.service.setSettings({ language: 'en' })
        const problems: string[] = []
        for (const size of SIZES) {
          const tag = `${locale} ${size.viewport.width}px ${size.colorScheme}`
          const page = await t.openPage({ ...size, locale })
          const truth = intl(page, locale)
          await page.goto(app.host.url)

          // Invoices: the list and the invoice view.
          await goTo(page, /Invoices/, 'Invoices')
          const yenRow = await rowCells(page, 'Invoices', 'Catering for the spring market')
          expect(yenRow[0], `${tag}: an invoice's date`).toBe(day)
          expect(yenRow[0]).toBe(await truth.day('2026-01-05'))
          const yenTotal = yenRow.find((c) => c.includes('234'))!
          expect(yenTotal, `${tag}: yen have no minor unit`).toMatch(yen)
          expect(yenTotal).toBe(squash(await truth.money(1_234_567_890, 'JPY')))
          const idrRow = await rowCells(page, 'Invoices', 'Batik cloth')
          expect(idrRow[0]).toBe(await truth.day('2026-11-25'))
          expect(
            idrRow.find((c) => c.includes('234')),
            `${tag}: rupiah as Intl writes them (no minor unit in use)`,
          ).toMatch(rupiah)
          for (const p of await cutProblems(page)) problems.push(`${tag} invoices: ${p}`)
          for (const p of await fitProblems(page)) problems.push(`${tag} invoices: ${p}`)
          await t.a11y(`the invoices in ${tag}`, page)
          await screenshot(page, `truth-${locale}-${size.viewport.width}-${size.colorScheme}-invoices`)

          await page.getByLabel('Open by number or reference').fill('INV-ID-0001')
          await page.getByRole('button', { name: 'Open', exact: true }).click()
          const view = page.getByRole('region', { name: /^Invoice / })
          const fact = (name: string) =>
            view
              .locator('dl.facts > div')
              .filter({ has: page.locator('dt', { hasText: new RegExp(`^${name}$`) }) })
          await until(async () => squash(await fact('Total').locator('dd').textContent())).toMatch(rupiah)
          expect(squash(await fact('Date').locator('dd').textContent())).toBe(await truth.day('2026-11-25'))
          expect(squash(await fact('Due').locator('dd').textContent())).toBe(await truth.day('2026-12-25'))
          expect(squash(await fact('Balance').locator('dd').textContent())).toBe(
            squash(await truth.money(234_567_890_123, 'IDR')),
          )
          for (const p of await cutProblems(page)) problems.push(`${tag} invoice view: ${p}`)
          for (const p of await fitProblems(page)) problems.push(`${tag} invoice view: ${p}`)
          await screenshot(page, `truth-${locale}-${size.viewport.width}-${size.colorScheme}-invoice-view`)

          // Expenses, bank transactions, the history.
          await goTo(page, /Expenses & bills/, 'Expenses & bills')
          const expense = await rowCells(page, 'Expenses', 'Ramadan')
          expect(expense[0]).toBe(await truth.day('2026-03-09'))
          expect(expense).toContain(squash(await truth.money(98_765_432, 'JPY')))
          for (const p of await cutProblems(page)) problems.push(`${tag} expenses: ${p}`)
          for (const p of await fitProblems(page)) problems.push(`${tag} expenses: ${p}`)

          await goTo(page, /Bank statements/, 'Bank statements')
          const tx = await rowCells(page, 'Bank transactions', 'fish market')
          expect(tx[0]).toBe(await truth.day('2026-12-28'))
          expect(tx).toContain(squash(await truth.money(-123_456_789, 'JPY')))
          for (const p of await cutProblems(page)) problems.push(`${tag} bank: ${p}`)
          for (const p of await fitProblems(page)) problems.push(`${tag} bank: ${p}`)

          await goTo(page, /Upload history/, 'Upload history')
          await until(() => page.locator('.vtable__scroll [role="row"] time').count()).toBeGreaterThan(3)
          // The "Added" time is whole: in en-US it would end in AM/PM, here in the locale's own form.
          const added = await page
            .locator('.vtable__scroll [role="row"] time')
            .first()
            .getAttribute('datetime')
          expect(squash(await page.locator('.vtable__scroll [role="row"] time').first().textContent())).toBe(
            squash(
              await page.evaluate(
                ([l, iso]) =>
                  new Intl.DateTimeFormat(l, { dateStyle: 'short', timeStyle: 'short' }).format(
                    new Date(iso),
                  ),
                [locale, added!] as const,
              ),
            ),
          )
          for (const p of await cutProblems(page)) problems.push(`${tag} history: ${p}`)
          for (const p of await fitProblems(page)) problems.push(`${tag} history: ${p}`)
          for (const p of await statusBarProblems(page)) problems.push(`${tag} status bar: ${p}`)
          await t.a11y(`the history in ${tag}`, page)
          await screenshot(page, `truth-${locale}-${size.viewport.width}-${size.colorScheme}-history`)
        }
        expect(problems).toEqual([])
      },
      E2E_TIMEOUT * 3,
    )
  })

  it(
    'an Arabic vendor name starts where it begins: cut at its end, whole on hover, on focus and for screen readers',
    async () => {
      const { page } = await t.open({ fixtures, profiles })
      await goTo(page, /Expenses & bills/, 'Expenses & bills')
      const name = page.getByRole('table', { name: 'Expenses' }).getByText(ARABIC_VENDOR, { exact: true })
      await name.waitFor()
      const look = () =>
        name.evaluate((el) => {
          const box = el.getBoundingClientRect()
          const text = el.firstChild!
          const range = document.createRange()
          // The name's first three letters (its beginning, at the right of an Arabic line).
          range.setStart(text, 0)
          range.setEnd(text, 3)
          const first = range.getBoundingClientRect()
          return {
            direction: getComputedStyle(el).direction,
            cut: el.scrollWidth > el.clientWidth + 1,
            firstInView: first.left >= box.left - 1 && first.right <= box.right + 1,
            title: el.getAttribute('title'),
            tabIndex: (el as HTMLElement).tabIndex,
          }
        })
      const before = await look()
      expect(before.cut, 'the name is long enough to be cut at 1280 px').toBe(true)
      expect(before.direction).toBe('rtl')
      expect(before.firstInView, 'the beginning of the name is in view').toBe(true)
      expect(before.title).toBe(ARABIC_VENDOR)
      expect(before.tabIndex, 'a cut name can be reached with the keyboard').toBe(0)
      // For screen readers the whole name is the cell's text.
      expect(squash(await name.textContent())).toBe(ARABIC_VENDOR)
      // Focused, it shows whole.
      await name.focus()
      await until(async () => (await look()).cut).toBe(false)
      await t.a11y('an Arabic vendor name, focused')
      await screenshot(page, 'truth-arabic-vendor')
    },
    E2E_TIMEOUT,
  )

  it(
    'keyboard only: a receipt and an .exe chosen with “Add files…”, focus kept while reading, each file counted for what it is, each batch change said once',
    async () => {
      const { page } = await t.open({ fixtures, profiles })
      // Listening from the start: Playwright then intercepts the file chooser before Enter opens it.
      const chooser = new Promise<FileChooser>((resolve) => page.once('filechooser', resolve))
      await onScreen(page, 'Capture')
      // Everything a screen reader is told about the batch, in order.
      await page.evaluate(() => {
        const w = window as unknown as { heard: string[]; focusLost: number }
        w.heard = []
        w.focusLost = 0
        const region = document.querySelector('[data-testid="batch-announcer"]')
        if (!region) return // nothing tells screen readers about the batch: `heard` stays empty
        new MutationObserver(() => {
          const text = (region.textContent ?? '').trim()
          if (text) w.heard.push(text)
        }).observe(region, { childList: true, subtree: true, characterData: true })
      })

      const addFiles = page.getByRole('button', { name: 'Add files…' })
      for (let i = 0; i < 40 && !(await addFiles.evaluate((el) => el === document.activeElement)); i++)
        await page.keyboard.press('Tab')
      expect(await addFiles.evaluate((el) => el === document.activeElement), 'Tab reaches “Add files…”').toBe(
        true,
      )
      await addFiles.evaluate((el) =>
        el.addEventListener('blur', () => void ((window as unknown as { focusLost: number }).focusLost += 1)),
      )

      await page.keyboard.press('Enter')
      await (
        await chooser
      ).setFiles([
        { name: 'bento-ingredients.txt', mimeType: 'text/plain', buffer: Buffer.from(receiptText('bento')) },
        {
          name: 'setup-tool.exe',
          mimeType: 'application/octet-stream',
          buffer: Buffer.from('MZ not a receipt'),
        },
      ])

      // The toast counts each file for what it is.
      const toasts = page.locator('.toasts')
      await until(async () => squash(await toasts.textContent())).toContain(
        '1 added, 1 skipped: .exe files are not receipts. See Needs attention.',
      )
      // The batch: one sent, one skipped, and why.
      await until(() => page.getByTestId('batch-summary').textContent()).toBe(
        '1 sent, 1 skipped: .exe files are not receipts',
      )
      // Focus stayed on the button all along (it was busy, never disabled).
      expect(await addFiles.evaluate((el) => el === document.activeElement)).toBe(true)
      expect(await page.evaluate(() => (window as unknown as { focusLost: number }).focusLost)).toBe(0)
      expect(await addFiles.getAttribute('aria-busy')).toBeNull()

      // Each change of the batch was said once, the last with the true counts.
      const heard = await page.evaluate(() => (window as unknown as { heard: string[] }).heard)
      // (Sending first, unless the receipt was through before the add answered.)
      expect(heard[0]).toMatch(/^Sending 2 files\.$|^Batch done: 1 sent/)
      expect(heard[heard.length - 1]).toBe('Batch done: 1 sent, 1 skipped: .exe files are not receipts.')
      // Never a premature "done" while the receipt was still being read.
      expect(heard.filter((h) => h.startsWith('Batch done'))).toHaveLength(1)
      expect(new Set(heard).size, `said twice: ${heard.join(' | ')}`).toBe(heard.length)

      // The skipped file is reachable with the keyboard, with its reason and a way to send it anyway.
      const attention = page.getByRole('region', { name: /Needs attention/ })
      await until(() => attention.textContent()).toMatch(
        /setup-tool\.exe.*does not send \.exe files/s,
      )
      const sendAnyway = attention.getByRole('button', { name: 'Send anyway: setup-tool.exe' })
      for (let i = 0; i < 40 && !(await sendAnyway.evaluate((el) => el === document.activeElement)); i++)
        await page.keyboard.press('Tab')
      expect(
        await sendAnyway.evaluate((el) => el === document.activeElement),
        'Tab reaches “Send anyway”',
      ).toBe(true)
      await t.a11y('the capture screen after a batch with a skipped file')
      await screenshot(page, 'truth-keyboard-capture')
    },
    E2E_TIMEOUT,
  )

  it(
    'a server stopped and restarted: the status bar and a banner say so, a list says it could not load with Try again, and all of it recovers by itself',
    async () => {
      const app = await t.app({
        fixtures,
        profiles,
        // Enough attempts for the outage: the file must still be waiting when the server is back.
        engine: { ...E2E_ENGINE, queue: { ...E2E_ENGINE!.queue, maxAttempts: 10_000 } },
      })
      const page = t.page
      await page.goto(app.host.url)
      await onScreen(page, 'Capture')
      const status = page.getByRole('contentinfo', { name: 'Status' })
      await until(() => status.textContent()).toContain('Connected')

      const port = app.sb!.port
      await app.sb!.stop()
      let again: Sandbox | null = null
      try {
        // A file given while the server is gone: it waits, and the whole window says why.
        await page
          .getByLabel('Files to add')
          .setInputFiles([
            { name: 'while-down.txt', mimeType: 'text/plain', buffer: Buffer.from(receiptText('down')) },
          ])
        await until(() => status.textContent()).toMatch(/Cannot reach the server/)
        expect(await status.textContent()).not.toContain('Connected')
        const banner = page.getByRole('region', { name: 'Bookdrop cannot reach the server' })
        await until(() => banner.textContent()).toMatch(/Could not reach 127\.0\.0\.1:\d+.*nothing is lost/s)
        expect(await statusBarProblems(page)).toEqual([])

        // A list asked for now says it could not load, with Try again; never "No expenses yet".
        await goTo(page, /Expenses & bills/, 'Expenses & bills')
        const error = page.getByRole('alert').filter({ hasText: 'Expenses could not be loaded' })
        await until(() => error.textContent()).toMatch(/Could not reach 127\.0\.0\.1:\d+/)
        await until(() => error.textContent()).toContain('reloads by itself when the server answers again')
        const table = page.getByRole('table', { name: 'Expenses' })
        expect(await table.textContent()).not.toContain('No expenses yet')
        expect(await page.getByRole('navigation', { name: 'Expenses pages' }).textContent()).not.toContain(
          'Nothing yet',
        )
        // Try again, by keyboard: still down, and focus stays on the button while it asks.
        const retry = error.getByRole('button', { name: 'Try again' })
        await retry.focus()
        await page.keyboard.press('Enter')
        await until(() => error.textContent()).toMatch(/Could not reach/)
        expect(await error.getByRole('button').evaluate((el) => el === document.activeElement)).toBe(true)
        await t.a11y('the expenses screen while the server is gone')
        await screenshot(page, 'truth-server-gone')

        // The server comes back: the status bar, the banner and the list recover by themselves.
        again = await startSandbox({ fixtures, port })
        await until(() => status.textContent(), 30_000).toContain('Connected')
        await until(() => banner.count()).toBe(0)
        await table.getByText('Spices and dates for the Ramadan menu').waitFor({ timeout: 20_000 })
        await until(() => error.count()).toBe(0)
        await goTo(page, /Capture/, 'Capture')
        await until(() => page.getByTestId('batch-summary').textContent(), 30_000).toBe('1 sent')
        await t.a11y('the capture screen after the server came back')
        await screenshot(page, 'truth-server-back')
      } finally {
        await again?.stop()
      }
    },
    E2E_TIMEOUT,
  )
})
