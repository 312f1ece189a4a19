/**
 * Issue 34 in Chromium: a browser set to German gets the capture screen in German, and the toast
 * and the screen-reader announcement after adding one file, then two, use the singular and the
 * plural correctly with no English word (the catalogue is loaded as the app loads it).
 */
import { expect, it } from 'vitest'
import { oneBusiness, receiptText } from './helpers'
import { E2E_TIMEOUT, describeE2E, until } from './suite'

const { fixtures, profiles } = oneBusiness('b-de-plurals', 'Bäckerei Sommer', 'svc_sk_e2e_de_plurals_0001', 0)

/** The words of a text (letters only). */
const words = (s: string) => s.match(/\p{L}+/gu) ?? []
/** What the English interface says at the same moments: none of its words may show in German. */
const ENGLISH = new Set(
  [
    '1 added.',
    '2 added.',
    'Sending 1 file.',
    'Sending 2 files.',
    'Batch done: 1 sent.',
    'Batch done: 2 sent.',
  ].flatMap(words),
)

describeE2E('German plurals', (t) => {
  it(
    'one file, then two: “1 Datei hinzugefügt” then “2 Dateien hinzugefügt”, said in German too',
    async () => {
      const app = await t.app({ fixtures, profiles })
      const page = await t.openPage({ locale: 'de-DE' })
      await page.goto(app.host.url)
      await until(() => page.evaluate(() => document.documentElement.lang)).toBe('de')
      // Capture, in German.
      await page.locator('nav .nav__item[data-screen="capture"]').click()
      await page.getByText('Belege und Dokumente hier ablegen').waitFor()

      // Everything a screen reader is told about the batch, in order.
      await page.evaluate(() => {
        const w = window as unknown as { heard: string[] }
        w.heard = []
        const region = document.querySelector('[data-testid="batch-announcer"]')!
        new MutationObserver(() => {
          const text = (region.textContent ?? '').trim()
          if (text) w.heard.push(text)
        }).observe(region, { childList: true, subtree: true, characterData: true })
      })
      const heard = () => page.evaluate(() => (window as unknown as { heard: string[] }).heard)
      const toasts = () => page.locator('.toast__text').allTextContents()
      const input = page.locator('input[type="file"]')
      const file = (name: string) => ({
        name,
        mimeType: 'text/plain',
        buffer: Buffer.from(receiptText(name)),
      })

      await input.setInputFiles([file('beleg-eins.txt')])
      await until(toasts).toContain('1 Datei hinzugefügt.')
      await until(async () => (await heard()).at(-1)).toBe('Stapel fertig: 1 Datei gesendet.')

      await input.setInputFiles([file('beleg-zwei.txt'), file('beleg-drei.txt')])
      await until(toasts).toContain('2 Dateien hinzugefügt.')
      await until(async () => (await heard()).at(-1)).toBe('Stapel fertig: 2 Dateien gesendet.')

      const said = [...(await toasts()), ...(await heard())]
      // Sending was said in German too, if it was said before the batch was over.
      for (const s of said) expect(s).not.toMatch(/^Sending|^Batch/)
      for (const s of said)
        expect(
          words(s).filter((w) => ENGLISH.has(w)),
          s,
        ).toEqual([])
      expect(
        said
          .filter((s) => /^\d Dateien? wird|^\d Dateien? werden/.test(s))
          .every((s) => /^(1 Datei wird|2 Dateien werden) gesendet\.$/.test(s)),
      ).toBe(true)
      await t.shot('de-capture', page)
    },
    E2E_TIMEOUT,
  )
})
