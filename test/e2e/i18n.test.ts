/**
 * Languages (issue 34), in Chromium: the language follows the browser (ja-JP, fr-FR, en-US gets
 * French), Arabic runs right to left with the navigation on the right and file names left to right,
 * the Language setting switches every visible string without a reload and persists, and a
 * pseudo-locale (accented, ~35 % longer, made from the extracted catalogue now) shows every screen of
 * the business and partner modes with no text that is not from the catalogue and nothing cut; in
 * German and French at 1280×800 and 1024×700 too, with no English message left.
 */
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { LANGUAGES } from '../../contract/i18n/languages'
import type { Fixtures } from '../../sandbox'
import { Db } from '../../src-main/core/store/db'
import { PSEUDO_LOCALE, englishCatalogue, pseudoCatalogue } from '../i18n/pseudo'
import { type ReceiptSpec, receiptPdf } from '../review/receipts'
import { type RunningApp, screenshot, seedHistory } from './helpers'
import { partnerWorld } from './partner-world'
import { SEEDED_SERVER_WORDS } from './seed-history'
import { cutWithoutWhole, englishLeft, navScreens, openScreen, settled, untranslated, visibleTexts } from './i18n-page'
import { E2E_TIMEOUT, describeE2E, until } from './suite'

const KEY = 'svc_sk_e2e_i18n_business_0001'
const PARTNER_KEY = 'svc_partner_sk_e2e_i18n_partner_0001'
const FILE_NAME = '2026-11-27 scan (2).pdf'

const BUSINESS = 'Adebayo Bakery Ltd'
const PARTNER = 'Ledger Partners'
const NARRATION = 'Wedding cake with sugar flowers'
const fixtures: Fixtures = partnerWorld({
  tag: 'i18n',
  partner: { name: PARTNER, key: PARTNER_KEY },
  business: { name: BUSINESS, key: KEY },
  referred: [{ uuid: 'b-i18n-2', name: 'Second Street Pharmacy', key: 'svc_sk_e2e_i18n_business_0002' }],
  invoices: {
    count: 3,
    each: (i) => ({ source_uuid: `INV-${1000 + i}`, date: `2026-03-1${i}`, narration: `${NARRATION} ${i}`, amount_paid: 0 }),
  },
  transactions: { count: 3, narration: (i) => `TRANSFER FROM CAFE LUMEN REF ${i}` },
})

/**
 * Receipts sent through the engine, so that Review has records with flags to show: one without a
 * total, and two documents of one purchase (same vendor, date and total: a possible duplicate).
 */
const RECEIPTS: ReceiptSpec[] = [
  { name: 'kiosk-slip.pdf', vendor: 'Kiosk Lekki', date: '2026-03-05', total: null },
  { name: 'shoprite-receipt.pdf', vendor: 'Shoprite Lekki', date: '2026-03-02', total: 8250 },
  { name: 'shoprite-card-slip.pdf', vendor: 'Shoprite Lekki', date: '2026-03-02', total: 8250, lines: ['Card payment slip'] },
]

/** The business's own data and the profiles' names: shown as they are in every language. */
const DATA = [
  'Kiosk Lekki',
  'Shoprite Lekki',
  `${BUSINESS} (NGN, NG)`,
  BUSINESS,
  PARTNER,
  'Second Street Pharmacy',
  'Adebayo Bakery',
  NARRATION,
  'TRANSFER FROM CAFE LUMEN REF',
  FILE_NAME,
  '/home/ada/Receipts',
  // What the server wrote, shown as it wrote it after a translated "The server said:" (issue 34).
  ...SEEDED_SERVER_WORDS,
]

/** The business first (with history, its newest file named FILE_NAME), then the partner. */
async function twoModes(app: (o: object) => Promise<RunningApp>): Promise<RunningApp> {
  return app({
    fixtures,
    profiles: [
      { name: 'Adebayo Bakery', kind: 'business', key: KEY },
      { name: PARTNER, kind: 'partner', key: PARTNER_KEY },
    ],
    seed: (dataDir: string, ps: { id: string }[]) => {
      seedHistory(dataDir, ps[0]!.id, 40)
      const db = new Db(join(dataDir, 'bookdrop.db'))
      try {
        db.prepare('UPDATE uploads SET name = ?, path = ? WHERE id = (SELECT MAX(id) FROM uploads)').run(
          FILE_NAME,
          `/home/ada/Receipts/${FILE_NAME}`,
        )
      } finally {
        db.close()
      }
    },
  })
}

/** Sends RECEIPTS (the second Shoprite document after the first is done) and waits for their records. */
async function reviewRecords(app: RunningApp): Promise<void> {
  const svc = app.host.service
  const done = async () => (await svc.history({ search: '.pdf', statuses: ['completed'] })).total
  const before = await done()
  const send = async (specs: ReceiptSpec[]) =>
    svc.addFileContents({
      target: 'expenses',
      files: await Promise.all(specs.map(async (r) => ({ name: r.name, base64: Buffer.from(await receiptPdf(r)).toString('base64') }))),
    })
  await send(RECEIPTS.slice(0, 2))
  await until(done, 40_000).toBe(before + 2)
  await send(RECEIPTS.slice(2))
  await until(done, 40_000).toBe(before + 3)
}

/** Makes the partner (or the business) the active profile, and reloads the page. */
async function useProfile(app: RunningApp, page: Page, kind: 'business' | 'partner'): Promise<void> {
  const p = app.profiles.find((x) => x.kind === kind)!
  await app.host.service.setActiveProfile({ id: p.id })
  await page.reload()
  await settled(page)
}

/** Each screen of the mode in turn: `check(screen)` once it has settled. */
async function eachScreen(page: Page, check: (screen: string) => Promise<void>): Promise<void> {
  for (const screen of await navScreens(page)) {
    await openScreen(page, screen)
    if (screen === 'review') {
      // The newest record (the possible duplicate) beside its document, its flags shown.
      const first = page.locator('main [role="listbox"] [role="option"]').first()
      await first.click()
      await page.locator('main .review-flags').waitFor({ timeout: 15_000 })
      await settled(page)
    }
    await check(screen)
  }
}

describeE2E('languages', (t) => {
  it(
    'a browser asking for ja-JP, fr-FR, en-US gets French (navigator.languages and Accept-Language)',
    async () => {
      const app = await t.app({ fixtures, profiles: [{ name: 'Adebayo Bakery', kind: 'business', key: KEY }] })
      // The person's list of languages, as Chromium sends it (Accept-Language) and gives it to pages.
      const page = await t.openPage({ locale: 'ja-JP' })
      const cdp = await page.context().newCDPSession(page)
      await cdp.send('Network.setUserAgentOverride', {
        userAgent: await page.evaluate(() => navigator.userAgent),
        acceptLanguage: 'ja-JP,fr-FR,en-US',
      })
      const sent: string[] = []
      page.on('request', (r) => sent.push(r.headers()['accept-language'] ?? ''))
      await page.goto(app.host.url)
      await settled(page)
      expect(sent[0]).toMatch(/^ja-JP,fr-FR/)
      expect(await page.evaluate(() => navigator.languages)).toEqual(['ja-JP', 'fr-FR', 'en-US'])
      await until(() => page.evaluate(() => document.documentElement.lang)).toBe('fr')
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr')
      await until(() => page.locator('nav .nav__item[data-screen="settings"]').textContent()).toContain('Paramètres')
      expect(await page.getByRole('navigation', { name: 'Écrans' }).isVisible()).toBe(true)
    },
    E2E_TIMEOUT,
  )

  it(
    'Arabic: <html lang="ar" dir="rtl">, the navigation on the right, a file name read left to right',
    async () => {
      const app = await twoModes((o) => t.app(o))
      const page = await t.openPage({ locale: 'ar' })
      await page.goto(app.host.url)
      await settled(page)
      await until(() => page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
        'ar',
        'rtl',
      ])
      const nav = (await page.locator('nav.nav').boundingBox())!
      const main = (await page.locator('main#main').boundingBox())!
      expect(nav.x, 'the navigation sits right of the content').toBeGreaterThanOrEqual(main.x + main.width - 1)
      expect(nav.x + nav.width).toBeGreaterThan(1280 - 2)
      await openScreen(page, 'history')
      const name = page.getByText(FILE_NAME, { exact: true }).first()
      await name.waitFor()
      // Laid out left to right inside the right-to-left page: "2026" left of ".pdf", isolated.
      const layout = await name.evaluate((el) => {
        const text = el.firstChild!
        const at = (s: string) => {
          const i = (text.textContent ?? '').indexOf(s)
          const r = document.createRange()
          r.setStart(text, i)
          r.setEnd(text, i + s.length)
          return r.getBoundingClientRect().x
        }
        const cs = getComputedStyle(el)
        return { year: at('2026'), ext: at('.pdf'), scan: at('scan'), direction: cs.direction, bidi: cs.unicodeBidi }
      })
      expect(layout.year).toBeLessThan(layout.scan)
      expect(layout.scan).toBeLessThan(layout.ext)
      expect(['isolate', 'isolate-override', 'plaintext']).toContain(layout.bidi)
      await screenshot(page, 'i18n-ar-history')
      await openScreen(page, 'settings')
      await screenshot(page, 'i18n-ar-settings')
    },
    E2E_TIMEOUT,
  )

  it(
    'switching language in Settings changes every visible string at once, without a reload, and persists',
    async () => {
      const app = await twoModes((o) => t.app(o))
      const page = t.page
      await page.goto(app.host.url)
      await openScreen(page, 'settings')
      await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true))
      const en = englishCatalogue()
      const de = (await import('../../contract/i18n/all')).messagesFor('de')
      // The English messages German words differently, and which of them show now.
      const differs = new Set(Object.entries(en).filter(([id, m]) => de[id] && de[id] !== m).map(([, m]) => m))
      const before = (await visibleTexts(page)).filter((s) => differs.has(s.text))
      expect(before.length, 'English messages on the Settings screen').toBeGreaterThan(20)
      const current = await page.locator('nav [aria-current="page"]').getAttribute('data-screen')

      const select = page.getByLabel('Language', { exact: true })
      // "System", then each language by its own name (test/i18n/catalogue.test.ts spells them out).
      const options = await select.locator('option').allTextContents()
      expect(options).toEqual(['System', ...LANGUAGES.map((l) => l.name)])
      expect(options).toEqual(expect.arrayContaining(['Deutsch', 'English']))
      await select.selectOption('de')
      await until(() => page.evaluate(() => document.documentElement.lang)).toBe('de')
      expect(await englishLeft(page, differs), 'English messages still shown after choosing Deutsch').toEqual([])
      expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true)
      expect(await page.locator('nav [aria-current="page"]').getAttribute('data-screen')).toBe(current)
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Einstellungen')
      await screenshot(page, 'i18n-de-settings')

      // Saved in main's settings: a new window opens in German.
      expect((await app.host.service.getSettings({})).language).toBe('de')
      await page.reload()
      await settled(page)
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('de')
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Einstellungen')

      // "System" follows the browser again (en-US): English, without a reload.
      await page.getByLabel('Sprache', { exact: true }).selectOption('system')
      await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Settings')
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en')
      // A value that is not a language is refused by main, whatever the window sends.
      await expect(app.host.service.setSettings({ language: 'xx' } as never)).rejects.toThrow()
    },
    E2E_TIMEOUT,
  )

  it(
    'PSEUDO-LOCALE: every screen of the business and partner modes shows only catalogue text, nothing cut',
    async () => {
      const app = await twoModes((o) => t.app(o))
      await reviewRecords(app)
      const page = await t.openPage({ viewport: { width: 1280, height: 800 } })
      const catalogue = { locale: PSEUDO_LOCALE, messages: pseudoCatalogue() }
      await page.addInitScript((c) => {
        ;(window as unknown as { __bookdropCatalogue: unknown }).__bookdropCatalogue = c
      }, catalogue)
      await page.goto(app.host.url)
      await settled(page)
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(PSEUDO_LOCALE)
      const problems: string[] = []
      // The first run, before any profile: its own app.
      const fresh = await t.app({ fixtures, autoDemo: false })
      await page.goto(fresh.host.url)
      await page.locator('main h1').waitFor()
      for (const p of await untranslated(page, DATA)) problems.push(`first run: not from the catalogue: ${p}`)
      for (const p of await cutWithoutWhole(page)) problems.push(`first run: ${p}`)
      await screenshot(page, 'i18n-pseudo-first-run')
      await page.goto(app.host.url)
      for (const mode of ['business', 'partner'] as const) {
        await useProfile(app, page, mode)
        await eachScreen(page, async (screen) => {
          // Where a file added in the browser is kept (a History row's path): a folder on disk, data
          // like a file name, the same in every language.
          for (const p of await untranslated(page, [...DATA, join(app.dataDir, 'dropped')]))
            problems.push(`${mode} ${screen}: not from the catalogue: ${p}`)
          for (const p of await cutWithoutWhole(page)) problems.push(`${mode} ${screen}: ${p}`)
          await screenshot(page, `i18n-pseudo-${mode}-${screen}`)
        })
      }
      expect(problems, 'texts not from the catalogue, or cut without their whole text').toEqual([])
    },
    E2E_TIMEOUT * 4,
  )

  it.each(['de', 'fr'])(
    '%s at 1280×800 and 1024×700: every screen of both modes without an English message, nothing cut',
    async (locale) => {
      const app = await twoModes((o) => t.app(o))
      await reviewRecords(app)
      const en = englishCatalogue()
      const theirs = (await import('../../contract/i18n/all')).messagesFor(locale)
      const english = new Set(
        Object.entries(en)
          .filter(([id, m]) => !m.includes('{') && theirs[id] !== m)
          .map(([, m]) => m),
      )
      const problems: string[] = []
      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 1024, height: 700 },
      ]) {
        const page = await t.openPage({ viewport, locale: locale === 'de' ? 'de-DE' : 'fr-FR' })
        await page.goto(app.host.url)
        await settled(page)
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(locale)
        const tag = `${locale} ${viewport.width}×${viewport.height}`
        for (const mode of ['business', 'partner'] as const) {
          await useProfile(app, page, mode)
          await eachScreen(page, async (screen) => {
            for (const p of await englishLeft(page, english)) problems.push(`${tag} ${mode} ${screen}: English: ${p}`)
            for (const p of await cutWithoutWhole(page)) problems.push(`${tag} ${mode} ${screen}: ${p}`)
            await screenshot(page, `i18n-${locale}-${viewport.width}-${mode}-${screen}`)
          })
        }
      }
      expect(problems).toEqual([])
    },
    E2E_TIMEOUT * 4,
  )
})
