/**
 * The language of the desktop shell's own words (tray, notifications; issue 34): the Language
 * setting when it names one Bookdrop has, else the first of the OS's preferred languages that
 * Bookdrop has, else English. The OS's list comes from one function the host passes in
 * (Electron's `app.getPreferredSystemLanguages()`; tests give their own).
 */
import { type CodedParams, type MessageDescriptor, formatIcu } from '../../contract/coded'
import ar from '../../contract/i18n/ar/main.json'
import de from '../../contract/i18n/de/main.json'
import es from '../../contract/i18n/es/main.json'
import fr from '../../contract/i18n/fr/main.json'
import id from '../../contract/i18n/id/main.json'
import ptBR from '../../contract/i18n/pt-BR/main.json'

/** Formats a message of the shell's catalogue in one language. */
export type Say = (message: MessageDescriptor, params?: CodedParams) => string

/** The languages Bookdrop has, English first. */
export const SHELL_LOCALES = ['en', 'de', 'fr', 'es', 'pt-BR', 'ar', 'id'] as const
export type ShellLocale = (typeof SHELL_LOCALES)[number]

const CATALOGUES: Record<ShellLocale, Readonly<Record<string, string>>> = {
  en: {},
  de,
  fr,
  es,
  'pt-BR': ptBR,
  ar,
  id,
}

/** The language Bookdrop has for one tag (de-AT → de, pt → pt-BR, en-GB → en), or null. */
export function localeFor(tag: string): ShellLocale | null {
  const t = tag.trim().replace('_', '-').toLowerCase()
  if (!t) return null
  const exact = SHELL_LOCALES.find((l) => l.toLowerCase() === t)
  if (exact) return exact
  const base = t.split('-')[0]
  return SHELL_LOCALES.find((l) => l.toLowerCase().split('-')[0] === base) ?? null
}

/**
 * The language in use: the setting when it names a language Bookdrop has ('system', absent or
 * unknown: the OS's), else the first of the OS's preferred languages Bookdrop has, else English.
 */
export function chooseLocale(setting: string | null | undefined, system: readonly string[]): ShellLocale {
  const chosen = setting && setting !== 'system' ? localeFor(setting) : null
  if (chosen) return chosen
  for (const tag of system) {
    const l = localeFor(tag)
    if (l) return l
  }
  return 'en'
}

/** English: the messages' own defaults. */
export const englishSay: Say = (m, params) => formatIcu(m.defaultMessage, 'en', params ?? {})

/** The shell's formatter for a language; a message missing from its catalogue says its English. */
export function sayIn(locale: ShellLocale): Say {
  const catalogue = CATALOGUES[locale]
  if (locale === 'en') return englishSay
  return (m, params) => {
    const english = englishSay(m, params)
    const pattern = catalogue[m.id]
    return pattern === undefined ? english : formatIcu(pattern, locale, params ?? {}, english)
  }
}
