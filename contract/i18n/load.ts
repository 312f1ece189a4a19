/**
 * A language's catalogue, loaded when it is needed (issue 34): each language is its own chunk in the
 * renderer's build (dynamic imports of ./generated/<locale>.ts, which merge that language's area
 * files contract/i18n/<locale>/*.json), so the first screen's JavaScript carries none of them.
 * Works in Node too (the esbuild and electron-vite bundles inline or split the same imports).
 */
import type { Language } from './languages'

export type Messages = Readonly<Record<string, string>>

const LOADERS: Record<Language, () => Promise<{ default: Messages }>> = {
  en: () => import('./generated/en'),
  de: () => import('./generated/de'),
  fr: () => import('./generated/fr'),
  es: () => import('./generated/es'),
  'pt-BR': () => import('./generated/pt-BR'),
  ar: () => import('./generated/ar'),
  id: () => import('./generated/id'),
}

/** The catalogue of one language (English: the extracted source wording). */
export async function loadMessages(locale: Language): Promise<Messages> {
  return (await LOADERS[locale]()).default
}
