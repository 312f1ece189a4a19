/**
 * Switching language (issue 34): from choosing a language in Settings to every visible string of
 * the screen changed, in Chromium through the web host, without a reload. The first switch loads
 * the language's catalogue (its own chunk); the next ones find it loaded. Target: under 200 ms.
 * Run alone: `npx tsx scripts/bench/language.ts`, or `npm run bench -- --only language`.
 */
import { existsSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { messagesFor } from '../../contract/i18n/all'
import { englishCatalogue } from '../../test/i18n/pseudo'
import { CHROMIUM_PATH, ensureRenderer, launchChromium, openPage, startApp } from '../../test/e2e/helpers'
import { openScreen, settled, visibleTexts } from '../../test/e2e/i18n-page'
import { type BenchRow, median, runAlone } from './rows'

const KEY = 'svc_sk_bench_language_0001'
const TARGET_MS = 200


/** Chooses `to` in the Language select; ms until none of `before` shows and <html lang> is `to`. */
function switchTo(page: Page, to: string, before: string[]): Promise<number> {
  return page.evaluate(
    ([lang, gone]) =>
      new Promise<number>((resolve) => {
        const label = [...document.querySelectorAll('label')].find((l) =>
          ['Language', 'Sprache'].includes((l.textContent ?? '').trim()),
        )
        const select = document.getElementById(label?.htmlFor ?? '') as HTMLSelectElement
        const old = new Set(gone)
        const t0 = performance.now()
        select.value = lang
        select.dispatchEvent(new Event('change', { bubbles: true }))
        const done = () => {
          if (document.documentElement.lang !== lang) return false
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
          for (let n = walker.nextNode(); n; n = walker.nextNode())
            if (old.has((n.textContent ?? '').replace(/\s+/g, ' ').trim())) return false
          return true
        }
        const check = () => (done() ? resolve(performance.now() - t0) : requestAnimationFrame(check))
        check()
      }),
    [to, before] as const,
  )
}

export async function languageBench(opts: { quick?: boolean } = {}): Promise<BenchRow[]> {
  await ensureRenderer()
  if (!existsSync(CHROMIUM_PATH))
    return [{ what: `switching language: skipped, ${CHROMIUM_PATH} is missing`, figure: '—', target: '', ok: null }]
  const app = await startApp({
    fixtures: {
      businesses: [{ uuid: 'bench-language', name: 'Bench Language Ltd', key: KEY }],
      rate_limit: { limit: 1_000_000, window_seconds: 60 },
    },
    profiles: [{ name: 'Bench Language', kind: 'business', key: KEY }],
  })
  const browser = await launchChromium()
  try {
    const { page } = await openPage(browser, { a11y: false })
    await page.goto(app.host.url)
    await settled(page)
    await openScreen(page, 'settings')
    const en = englishCatalogue()
    const de = messagesFor('de')
    const english = new Set(Object.entries(en).filter(([id, m]) => de[id] && de[id] !== m).map(([, m]) => m))
    const german = new Set(Object.entries(en).filter(([id, m]) => de[id] && de[id] !== m).map(([id]) => de[id]!))
    const shown = async (set: Set<string>) => (await visibleTexts(page)).map((s) => s.text).filter((t) => set.has(t))
    const first = await switchTo(page, 'de', await shown(english))
    const warm: number[] = []
    for (let i = 0; i < (opts.quick ? 3 : 7); i++) {
      await switchTo(page, 'en', await shown(german))
      warm.push(await switchTo(page, 'de', await shown(english)))
    }
    const m = median(warm)
    return [
      {
        what: 'switching language (Settings, English → Deutsch): first, catalogue loaded on demand',
        figure: `${first.toFixed(0)} ms`,
        target: `< ${TARGET_MS} ms`,
        ok: first < TARGET_MS,
      },
      {
        what: '  again (median): every visible string changed, no reload',
        figure: `${m.toFixed(0)} ms`,
        target: `< ${TARGET_MS} ms`,
        ok: m < TARGET_MS,
      },
    ]
  } finally {
    await browser.close()
    await app.stop()
  }
}

runAlone('language.ts', () => languageBench({ quick: process.argv.includes('--quick') }))
