/**
 * The phone's page in the phone's own language (issue 34), in real Chromium: a phone whose browser
 * asks for de-DE gets the page in German from the first sentence it shows (pairing, Allow, the
 * form), with `<html lang="de">`, and fetches only the German catalogue; an Arabic phone gets a
 * right-to-left page.
 */
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { oneBusiness } from './helpers'
import { IPHONE, openWithPanel } from './phone-page'
import { E2E_TIMEOUT, describeE2E, until } from './suite'

const KEY = 'svc_sk_e2e_phone_language_0001'
const { fixtures, profiles } = oneBusiness('b-phone-lang', 'Sprach Foods', KEY, 100)

/** What a person sees on the page: its text, and the labels, placeholders and options of its fields. */
function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const parts = [document.title, document.body.innerText]
    for (const el of document.querySelectorAll<HTMLElement>('[placeholder], [aria-label], [title]')) {
      if (el.offsetParent === null) continue
      parts.push(el.getAttribute('placeholder') ?? '', el.getAttribute('aria-label') ?? '', el.title)
    }
    for (const o of document.querySelectorAll<HTMLOptionElement>('select option')) parts.push(o.textContent ?? '')
    return parts.join('\n')
  })
}

/** Sentences of the English page that must not show on a German one. */
const ENGLISH = [
  'Send receipts to Bookdrop',
  'Check that the computer shows the code',
  'Paired',
  'Take or choose photos',
  'Receipts, bills, or PDFs',
  'Send as',
  'Note (optional)',
  'Lunch with a client',
  'One document',
  'Expenses (receipts)',
  'Bills',
  'Invoices',
  'Income',
]

describeE2E('the phone page in the phone’s language', (t) => {
  it(
    'a phone asking for de-DE pairs, waits and shows its form in German, fetching only the German words',
    async () => {
      const { desktop, link } = await openWithPanel(t, { fixtures, profiles })
      const phone = await t.openPage({ ...IPHONE, locale: 'de-DE' })
      const fetched: string[] = []
      phone.on('request', (r) => {
        if (r.resourceType() === 'script') fetched.push(new URL(r.url()).pathname)
      })
      await phone.goto(link)
      await until(() => phone.locator('#status').textContent()).toMatch(
        /^Prüfen Sie, ob der Computer den Code \d{4} zeigt, und wählen Sie dort „Erlauben“\.$/,
      )
      expect(await phone.evaluate(() => document.documentElement.lang)).toBe('de')
      expect(await phone.evaluate(() => document.documentElement.dir)).toBe('ltr')
      expect(await phone.locator('h1').textContent()).toBe('Belege an Bookdrop senden')
      expect(await phone.title()).toBe('Belege an Bookdrop senden')
      const code = (await phone.locator('#code').textContent())!
      expect(await phone.locator('#code').getAttribute('aria-label')).toBe(
        `Kopplungscode ${code.split('').join(' ')}`,
      )

      await desktop.getByRole('group', { name: /A phone wants to send receipts/ }).getByRole('button', { name: 'Allow' }).click()
      await until(() => phone.locator('#status').textContent()).toBe(
        'Gekoppelt: Fotos gehen an Sprach Foods Ltd. Fotografieren Sie jeden Beleg.',
      )
      await phone.locator('#send').waitFor()
      expect(await phone.locator('.camera__title').textContent()).toBe('Fotos aufnehmen oder auswählen')
      expect(await phone.getByLabel('Senden als').locator('option').allTextContents()).toEqual(
        expect.arrayContaining(['Ausgaben (Belege)', 'Eingangsrechnungen', 'Rechnungen']),
      )
      expect(await phone.getByLabel('Notiz (optional)').getAttribute('placeholder')).toBe(
        'z. B. Mittagessen mit einem Kunden',
      )
      await phone.getByText('Ein Dokument: mehrere Seiten').click()
      await until(() => phone.locator('#doc-count').textContent()).toBe(
        'Noch keine Seite: Fotografieren Sie jede Seite.',
      )
      const seen = await visibleText(phone)
      for (const english of ENGLISH) expect(seen, `"${english}" on the German page`).not.toContain(english)
      await t.a11y('the phone page in German, paired', phone)
      await t.shot('de', phone)

      // One catalogue came over the wire: the German one (a script of its own), none of the others.
      const catalogues = fetched.filter((p) => /\/assets\/phone-[\w-]+\.js$/.test(p))
      expect(catalogues).toHaveLength(2) // the page's script and its German words
      const words = await Promise.all(
        catalogues.map((p) => phone.evaluate(async (u) => (await fetch(u)).text(), p)),
      )
      expect(words.filter((w) => w.includes('Belege an Bookdrop senden'))).toHaveLength(1)
      expect(words.join('\n')).not.toContain('Envoyer des justificatifs à Bookdrop')
    },
    E2E_TIMEOUT,
  )

  it(
    'a phone asking for Arabic gets a right-to-left page in Arabic',
    async () => {
      const { link } = await openWithPanel(t, { fixtures, profiles })
      const phone = await t.openPage({ ...IPHONE, locale: 'ar' })
      await phone.goto(link)
      await until(() => phone.locator('#status').textContent()).toMatch(/^تأكّد أن الحاسوب يعرض الرمز \d{4}/)
      expect(await phone.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
        'ar',
        'rtl',
      ])
      expect(await phone.locator('h1').textContent()).toBe('أرسل الإيصالات إلى Bookdrop')
      await t.shot('ar', phone)
    },
    E2E_TIMEOUT,
  )
})
