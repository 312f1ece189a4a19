/**
 * The languages Bookdrop speaks (issue 34) and how one is chosen for a person: plain data and plain
 * functions, no catalogue (the catalogues load on demand: ./load.ts for the renderer, ./all.ts for
 * main and the headless mode). To add a language, see docs/i18n.md.
 */

export const LANGUAGES = [
  { code: 'en', name: 'English', dir: 'ltr' },
  { code: 'de', name: 'Deutsch', dir: 'ltr' },
  { code: 'fr', name: 'Français', dir: 'ltr' },
  { code: 'es', name: 'Español', dir: 'ltr' },
  { code: 'pt-BR', name: 'Português (Brasil)', dir: 'ltr' },
  { code: 'ar', name: 'العربية', dir: 'rtl' },
  { code: 'id', name: 'Bahasa Indonesia', dir: 'ltr' },
] as const satisfies readonly { code: string; name: string; dir: 'ltr' | 'rtl' }[]

export type Language = (typeof LANGUAGES)[number]['code']
/** The source language: its wording is the `defaultMessage` in the code. */
export const SOURCE_LANGUAGE: Language = 'en'
export const LANGUAGE_CODES: readonly Language[] = LANGUAGES.map((l) => l.code)
/** The Language setting: follow the system (the OS or the browser), or one language. */
export const LANGUAGE_CHOICES = ['system', ...LANGUAGE_CODES] as const
export type LanguageChoice = 'system' | Language

export function isLanguage(code: unknown): code is Language {
  return typeof code === 'string' && (LANGUAGE_CODES as readonly string[]).includes(code)
}

/** The writing direction of a language (the pseudo-locale and unknown codes: left to right). */
export function directionOf(code: string): 'ltr' | 'rtl' {
  return LANGUAGES.find((l) => l.code === code)?.dir ?? 'ltr'
}

/** A language's own name (Deutsch, العربية…). */
export function nameOf(code: Language): string {
  return LANGUAGES.find((l) => l.code === code)?.name ?? code
}

const base = (tag: string): string => tag.split(/[-_]/)[0]?.toLowerCase() ?? ''

/**
 * The first of the person's languages (most preferred first, BCP 47 tags as the OS or the browser
 * gives them) that Bookdrop has: by exact tag, else by base language (fr-FR → fr, pt → pt-BR);
 * English when none. A browser asking for ja-JP, fr-FR, en-US gets French.
 */
export function pickLanguage(preferred: readonly string[]): Language {
  for (const raw of preferred) {
    if (typeof raw !== 'string' || !raw) continue
    let tag = raw.replace('_', '-').toLowerCase()
    try {
      // Old and odd spellings to today's: "in" → "id", "iw" → "he".
      tag = (Intl.getCanonicalLocales(tag)[0] ?? tag).toLowerCase()
    } catch {
      continue
    }
    const exact = LANGUAGE_CODES.find((c) => c.toLowerCase() === tag)
    if (exact) return exact
    const sameBase = LANGUAGE_CODES.find((c) => base(c) === base(tag))
    if (sameBase) return sameBase
  }
  return SOURCE_LANGUAGE
}

/** The language in use: the setting's, or (setting "system") the first preferred one Bookdrop has. */
export function languageInUse(choice: LanguageChoice | undefined, preferred: readonly string[]): Language {
  return choice && choice !== 'system' && isLanguage(choice) ? choice : pickLanguage(preferred)
}
