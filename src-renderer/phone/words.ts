/// <reference types="vite/client" />
/**
 * The phone page's words (issue 34), in the phone's own language: the first of the browser's
 * preferred languages (navigator.languages) that Bookdrop has, English otherwise. Only that
 * language's catalogue is fetched (contract/i18n/<locale>/phone.json, a small chunk of its own), so
 * the page stays a few kilobytes. The static texts of index.html carry `data-m` (text) or
 * `data-m-placeholder` with the key of their message here, and are worded once the catalogue is in.
 */
import { type IntlShape, createIntl, createIntlCache, defineMessages } from '@formatjs/intl'
import messages from './words.messages.json' with { type: 'json' }

/** The languages of the phone page besides English (the source): each has a phone.json. */
const CATALOGUES = import.meta.glob<Record<string, string>>('../../contract/i18n/*/phone.json', {
  import: 'default',
})
const LOCALES = ['de', 'fr', 'es', 'pt-BR', 'ar', 'id'] as const

export const m = defineMessages(messages.m)

/** The first of the phone's preferred languages that the page has (a region falls back to its language). */
export function pickLocale(preferred: readonly string[]): string {
  for (const tag of preferred) {
    const lower = tag.toLowerCase()
    const exact = LOCALES.find((l) => l.toLowerCase() === lower)
    if (exact) return exact
    if (lower === 'en' || lower.startsWith('en-')) return 'en'
    const base = lower.split('-')[0]
    const same = LOCALES.find((l) => l.toLowerCase().split('-')[0] === base)
    if (same) return same
  }
  return 'en'
}

const cache = createIntlCache()
let intl: IntlShape = createIntl({ locale: 'en', messages: {}, onError: () => undefined }, cache)

/** The page's formatter (English until `loadWords` has run). */
export function words(): IntlShape {
  return intl
}

/**
 * Picks the phone's language, fetches its catalogue (English needs none), and words the page's
 * static texts, its `<html lang>` and direction. A catalogue that cannot be fetched leaves English.
 */
export async function loadWords(): Promise<void> {
  const locale = pickLocale(navigator.languages?.length ? navigator.languages : [navigator.language])
  let messages: Record<string, string> = {}
  const load = CATALOGUES[`../../contract/i18n/${locale}/phone.json`]
  if (load) {
    try {
      messages = await load()
    } catch {
      messages = {}
    }
  }
  const used = Object.keys(messages).length ? locale : 'en'
  intl = createIntl({ locale: used, defaultLocale: 'en', messages, onError: () => undefined }, cache)
  document.documentElement.lang = used
  document.documentElement.dir = used === 'ar' ? 'rtl' : 'ltr'
  const all = m as Record<string, (typeof m)[keyof typeof m]>
  for (const el of document.querySelectorAll<HTMLElement>('[data-m]')) {
    const d = all[el.dataset.m ?? '']
    if (d) el.textContent = intl.formatMessage(d)
  }
  for (const el of document.querySelectorAll<HTMLElement>('[data-m-placeholder]')) {
    const d = all[el.dataset.mPlaceholder ?? '']
    if (d) el.setAttribute('placeholder', intl.formatMessage(d))
  }
  document.title = intl.formatMessage(m.title)
}
