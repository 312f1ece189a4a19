/**
 * Every language's catalogue at once, synchronously: for main and the headless mode (tray,
 * notifications, headless lines), where the catalogues are small next to the rest of the bundle.
 * The renderer never imports this module (it loads one language on demand: ./load.ts).
 */
import { IntlMessageFormat } from 'intl-messageformat'
import type { Coded } from '../message'
import { type Language, isLanguage } from './languages'
import type { Messages } from './load'
import en from './generated/en'
import de from './generated/de'
import fr from './generated/fr'
import es from './generated/es'
import ptBR from './generated/pt-BR'
import ar from './generated/ar'
import id from './generated/id'

const CATALOGUES: Record<Language, Messages> = { en, de, fr, es, 'pt-BR': ptBR, ar, id }

/** The catalogue of a language (an unknown code: English's). */
export function messagesFor(locale: string): Messages {
  return isLanguage(locale) ? CATALOGUES[locale] : CATALOGUES.en
}

/**
 * A coded sentence worded in a language: its translation, else its English catalogue wording, else
 * the `text` it carries (a code the catalogue does not know, or a message that cannot be formatted).
 */
export function wordCoded(coded: Coded, locale: string): string {
  const pattern = messagesFor(locale)[coded.code] ?? CATALOGUES.en[coded.code]
  if (pattern === undefined) return coded.text
  try {
    const lang = isLanguage(locale) ? locale : 'en'
    const out = new IntlMessageFormat(pattern, lang).format(coded.params ?? {})
    return typeof out === 'string' ? out : coded.text
  } catch {
    return coded.text
  }
}
