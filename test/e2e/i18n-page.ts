/**
 * What a page shows, for the language tests (issue 34) and the language bench: every visible text
 * (text nodes, aria-label, placeholder and title attributes, the options of visible selects), the
 * texts among them that no catalogue wrote, and the texts cut without their whole text on hover.
 * Imports nothing from vitest (scripts/bench/language.ts uses it too).
 */
import type { Page } from 'playwright-core'
import { LANGUAGES } from '../../contract/i18n/languages'

export interface Shown {
  /** Where: the element's tag, class and the text's kind (text, aria-label, placeholder, title, option). */
  where: string
  text: string
}

/** Every text a person sees or hears on the page now. */
export function visibleTexts(page: Page): Promise<Shown[]> {
  return page.evaluate(() => {
    const out: { where: string; text: string }[] = []
    const shown = (el: Element) =>
      el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[hidden]')
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT)
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement
      const text = (n.textContent ?? '').replace(/\s+/g, ' ').trim()
      if (!el || !text || ['SCRIPT', 'STYLE', 'NOSCRIPT', 'OPTION', 'TEXTAREA'].includes(el.tagName)) continue
      if (!shown(el)) continue
      out.push({ where: `${name(el)} text`, text })
    }
    for (const el of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
      if (!shown(el)) continue
      for (const a of ['aria-label', 'placeholder', 'title']) {
        const v = el.getAttribute(a)?.trim()
        if (v) out.push({ where: `${name(el)} ${a}`, text: v })
      }
    }
    for (const sel of document.querySelectorAll('select')) {
      if (!shown(sel)) continue
      for (const o of sel.options) {
        const text = o.text.trim()
        if (text) out.push({ where: `${name(sel)} option`, text })
      }
    }
    return out
  })
}

const MONTHS =
  'January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec'
const DAYS = 'Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|Mon|Tue|Wed|Thu|Fri|Sat|Sun'
const RELATIVE = 'seconds?|minutes?|hours?|days?|weeks?|months?|years?|ago|in|now|yesterday|today|tomorrow|last|next'
/** What Intl writes in a date of the pseudo-locale (English formats): not the app's words. */
const DATE_WORDS = new RegExp(`\\b(${MONTHS}|${DAYS}|AM|PM|at|${RELATIVE})\\b`, 'g')
const URL = /\b(?:https?|file):\/\/\S+/gi
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g
const FILE = /[^\s/\\]+\.(?:pdf|jpe?g|png|gif|webp|heic|heif|tiff?|csv|txt|eml|xml|json|xlsx?|docx?|zip)\b/gi
/** Ids, keys, numbers with letters (INV-1003, svc_sk_…, a uuid): tokens holding a digit or "_". */
const ID = /[\w.@:-]*[\d_][\w.@:-]*/g
const CURRENCY = /\b(?:NGN|USD|EUR|GBP|JPY|IDR|KES|GHS|ZAR|XOF|BRL)\b/g
const UNITS = /\b(?:B|KB|MB|GB|Ctrl)\b/g
/** Time zones by their IANA ids (Africa/Lagos): ids, not words. */
const ZONE = /\b[A-Z][A-Za-z]+\/[A-Za-z_/+-]+/g

/** The texts that are not the app's own words everywhere: languages' names, the product. */
export const ALWAYS_ALLOWED: readonly string[] = ['Bookdrop', ...LANGUAGES.map((l) => l.name)]

/**
 * The English-looking rest of a text once what is not translated (file names, ids, dates, amounts,
 * URLs, the languages' own names, "Bookdrop" and `allowed`: the business's own data) is taken out;
 * '' when nothing is left.
 */
export function plainRest(text: string, allowed: readonly string[]): string {
  let t = text
  for (const a of [...ALWAYS_ALLOWED, ...allowed].sort((x, y) => y.length - x.length)) if (a) t = t.split(a).join(' ')
  t = t.replace(URL, ' ').replace(EMAIL, ' ').replace(FILE, ' ').replace(ID, ' ').replace(CURRENCY, ' ').replace(UNITS, ' ').replace(ZONE, ' ')
  t = t.replace(DATE_WORDS, ' ')
  const words = t.match(/[A-Za-z]{2,}/g)
  return words ? words.join(' ') : ''
}

/** Visible texts that are not pseudo-localized (the pseudo-locale accents every letter of the catalogue). */
export async function untranslated(page: Page, allowed: readonly string[]): Promise<string[]> {
  const out: string[] = []
  for (const s of await visibleTexts(page)) {
    const rest = plainRest(s.text, allowed)
    if (rest) out.push(`${s.where}: "${s.text.slice(0, 90)}" (plain: ${rest.slice(0, 40)})`)
  }
  return [...new Set(out)]
}

/** Visible texts that are English messages of the catalogue a language words differently. */
export async function englishLeft(page: Page, english: ReadonlySet<string>): Promise<string[]> {
  const out = new Set<string>()
  for (const s of await visibleTexts(page)) if (english.has(s.text)) out.add(`${s.where}: "${s.text}"`)
  return [...out]
}

/**
 * Elements whose text is cut (wider than their box, with overflow hidden or an ellipsis) and whose
 * whole text is not in their (or an ancestor's) title or aria-label.
 */
export function cutWithoutWhole(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = []
    const shown = (el: Element) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden'
    for (const el of document.querySelectorAll<HTMLElement>('body *')) {
      if (!shown(el) || el.closest('.sr-only')) continue
      const cs = getComputedStyle(el)
      const clips = cs.overflowX === 'hidden' || cs.overflowX === 'clip'
      if (!clips || el.scrollWidth <= el.clientWidth + 1) continue
      const text = (el.textContent ?? '').replace(/\s+/g, ' ').trim()
      if (!text || text.length > 400) continue
      // A box that clips a part scrolling of its own (a table's wrapper) is not what is cut.
      if ([...el.querySelectorAll('*')].some((c) => ['auto', 'scroll'].includes(getComputedStyle(c).overflowX)))
        continue
      const head = text.slice(0, 24)
      const whole = [el, ...(function* up(e: Element | null) {
        for (let p = e?.parentElement ?? null; p; p = p.parentElement) yield p
      })(el)].some((e) => (e.getAttribute('title') ?? '').includes(head) || (e.getAttribute('aria-label') ?? '').includes(head))
      if (!whole) out.push(`"${text.slice(0, 70)}" is cut (${el.scrollWidth}px in ${el.clientWidth}px) without its whole text`)
    }
    return [...new Set(out)].slice(0, 40)
  })
}

/** Waits until the screen has settled: its heading is there, nothing says it is loading. */
export async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor()
  await page.waitForFunction(() => document.querySelectorAll('[aria-busy="true"], .loading').length === 0, null, {
    timeout: 15_000,
  }).catch(() => undefined)
  await page.waitForTimeout(250)
}

/** The screens of the navigation, in order (data-screen of each item). */
export function navScreens(page: Page): Promise<string[]> {
  return page.locator('nav .nav__item').evaluateAll((els) => els.map((e) => e.getAttribute('data-screen') ?? ''))
}

/** Goes to a screen by its navigation item (the same in every language), opening the menu if folded. */
export async function openScreen(page: Page, screen: string): Promise<void> {
  const toggle = page.locator('nav .nav__toggle')
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click()
  await page.locator(`nav .nav__item[data-screen="${screen}"]`).click()
  await page.waitForFunction(
    (s) => document.querySelector(`nav .nav__item[data-screen="${s}"]`)?.getAttribute('aria-current') === 'page',
    screen,
  )
  await settled(page)
}
