/**
 * The interface's language (issue 34): one ICU MessageFormat formatter (react-intl), the same for
 * React (`useIntl`, `<FormattedMessage>`, through `<I18nProvider>`) and for code outside React
 * (stores, toasts, announcements: `getIntl().formatMessage(...)`).
 *
 * Every visible string is a message with an id and its English `defaultMessage`. Each module's English
 * messages live in `<module>.messages.json` beside it (`{ "<const>": { "<key>": { "id",
 * "defaultMessage", "description"? } } }`), which the module imports and passes to `defineMessages`;
 * `npm run i18n:extract` collects them into the English catalogue (docs/i18n.md). Until a language's
 * catalogue is loaded the English default shows.
 */
import { createElement, type ReactNode, useSyncExternalStore } from 'react'
import { createIntl, createIntlCache, type IntlShape, RawIntlProvider } from 'react-intl'
import {
  type Language,
  type LanguageChoice,
  SOURCE_LANGUAGE,
  directionOf,
  languageInUse,
} from '../../contract/i18n/languages'
import { loadMessages } from '../../contract/i18n/load'
import { defineMessages } from 'react-intl'
import { setFormatLocale } from './format'
import type { AppInfo } from './types'
import messages from './i18n.messages.json' with { type: 'json' }

const cache = createIntlCache()

function make(locale: string, messages: Record<string, string>): IntlShape {
  return createIntl(
    {
      locale,
      // English (en, en-US…) is the messages' own language: the same locale as the default, so that
      // react-intl does not make a "missing translation" error for every message it formats.
      defaultLocale: /^en(-|$)/i.test(locale) ? locale : 'en',
      messages,
      // A message missing from a catalogue shows its English default; the pseudo-locale test is what
      // catches strings that never reached the catalogue.
      onError: () => undefined,
    },
    cache,
  )
}

let current: IntlShape = make('en', {})
const listeners = new Set<() => void>()

/** The formatter in use now: for code outside React (stores, toasts, live announcements). */
export function getIntl(): IntlShape {
  return current
}

/** Switches every string at once (no reload): components re-render through the provider. */
export function setIntl(locale: string, messages: Record<string, string>): void {
  current = make(locale, messages)
  for (const l of listeners) l()
}

function subscribe(l: () => void): () => void {
  listeners.add(l)
  return () => listeners.delete(l)
}

/** The app's root provider: re-renders the tree when the language changes. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const intl = useSyncExternalStore(subscribe, getIntl, getIntl)
  return createElement(RawIntlProvider, { value: intl }, children)
}

/**
 * The formatter for a component: re-renders it when the language changes. Works without the
 * provider (component tests render screens alone), so screens use this rather than react-intl's
 * `useIntl`. Write a module's messages in its `<module>.messages.json`, define them at the top of the
 * module (`const m = defineMessages(messages.m)`) and format them with `intl.formatMessage(m.key, values)`.
 */
export function useI18n(): IntlShape {
  return useSyncExternalStore(subscribe, getIntl, getIntl)
}

// ---- the language in use (issue 34) ---------------------------------------------------------------

/**
 * Tests only: a catalogue given to the page before the app starts (the pseudo-locale of
 * test/e2e/i18n-pseudo.test.ts, through Playwright's addInitScript). Nothing in the app sets it.
 */
interface GivenCatalogue {
  locale: string
  messages: Record<string, string>
}
declare global {
  interface Window {
    __bookdropCatalogue?: GivenCatalogue
  }
}

let applied: string | null = null
let wanted = 0

const m = defineMessages(messages.m)

/** `<html lang dir>`: the language in use, right to left for Arabic. */
function setDocumentLanguage(locale: string): void {
  const root = document.documentElement
  root.lang = locale
  root.dir = directionOf(locale)
}

const baseOf = (tag: string): string => tag.split('-')[0]?.toLowerCase() ?? ''

/**
 * The locale dates and numbers are written in for a language: the person's own tag for it (fr-CA
 * for French when the browser asks for fr-CA), else the language itself; English (the fallback, or
 * chosen) keeps the person's first (a ja-JP or de-DE browser keeps Japanese or German dates and
 * amounts). Arabic is written with Latin digits, like the ids and file names around it.
 */
export function formatTagFor(lang: string, preferred: readonly string[], fallback: boolean): string {
  const own =
    preferred.find((t) => baseOf(t) === baseOf(lang)) ?? (fallback || lang === SOURCE_LANGUAGE ? preferred[0] : undefined)
  let tag = lang
  if (own) {
    try {
      tag = Intl.getCanonicalLocales(own)[0] ?? lang
    } catch {
      tag = lang
    }
  }
  return baseOf(tag) === 'ar' ? `${tag.split('-u-')[0]}-u-nu-latn` : tag
}

/** Puts a language in use: the formatter, dates and numbers, and the page's lang and dir. */
function use(lang: string, formatTag: string, messages: Record<string, string>): void {
  setIntl(formatTag, messages)
  setFormatLocale(formatTag, directionOf(lang), {
    never: getIntl().formatMessage(m.never),
    preparedSize: (taken, sent) => getIntl().formatMessage(m.preparedSize, { taken, sent }),
  })
  setDocumentLanguage(lang)
  applied = lang
}

/**
 * The person's preferred languages: the OS's in the desktop app (main asks Electron), the browser's
 * (navigator.languages) through the web host.
 */
export function preferredLanguages(info: Pick<AppInfo, 'languages'> | null): readonly string[] {
  if (info && info.languages.length > 0) return info.languages
  if (typeof navigator === 'undefined') return []
  return navigator.languages?.length ? navigator.languages : navigator.language ? [navigator.language] : []
}

/**
 * Puts the chosen language in use: loads its catalogue (its own chunk, once) and switches every
 * string at once, without a reload. A later call wins over one still loading. False when the
 * catalogue could not be loaded (the language in use stays).
 */
export async function applyLanguage(choice: LanguageChoice | undefined, preferred: readonly string[]): Promise<boolean> {
  const given = typeof window === 'undefined' ? undefined : window.__bookdropCatalogue
  if (given) {
    if (applied !== given.locale) use(given.locale, 'en', given.messages)
    return true
  }
  const lang: Language = languageInUse(choice, preferred)
  const ticket = ++wanted
  if (lang === applied) return true
  try {
    // English is the code's own wording (the defaultMessages): no catalogue to load.
    const messages = lang === SOURCE_LANGUAGE ? {} : await loadMessages(lang)
    if (ticket !== wanted) return true
    const fallback = (choice === undefined || choice === 'system') && !preferred.some((t) => baseOf(t) === lang)
    use(lang, formatTagFor(lang, preferred, fallback), { ...messages })
    return true
  } catch {
    return false
  }
}

/** The language in use now (its code; null before the first is applied). */
export function currentLanguage(): string | null {
  return applied
}
