/**
 * The language of the desktop shell's own words (tray, notifications; issue 34): the Language
 * setting when it names a language, else the first of the OS's preferred languages that Bookdrop
 * has, else English (contract/i18n/languages.ts `languageInUse`). The OS's list comes from one
 * function the host passes in (Electron's `app.getPreferredSystemLanguages()`; tests give their own).
 */
import { type CodedParams, type MessageDescriptor, formatIcu } from '../../contract/coded'
import { messagesFor } from '../../contract/i18n/all'
import { type Language, type LanguageChoice, isLanguage, languageInUse } from '../../contract/i18n/languages'

/** Formats a message of the shell's catalogue in one language. */
export type Say = (message: MessageDescriptor, params?: CodedParams) => string

/** The language in use for a Language setting (absent, 'system' or unknown: the OS's) and the OS's list. */
export function chooseLocale(setting: string | null | undefined, system: readonly string[]): Language {
  const choice: LanguageChoice | undefined = setting === 'system' || isLanguage(setting) ? setting : undefined
  return languageInUse(choice, system)
}

/** English: the messages' own defaults. */
export const englishSay: Say = (m, params) => formatIcu(m.defaultMessage, 'en', params ?? {})

/** The shell's formatter for a language; a message missing from its catalogue says its English. */
export function sayIn(locale: Language): Say {
  if (locale === 'en') return englishSay
  const catalogue = messagesFor(locale)
  return (m, params) => {
    const english = englishSay(m, params)
    const pattern = catalogue[m.id]
    return pattern === undefined ? english : formatIcu(pattern, locale, params ?? {}, english)
  }
}
