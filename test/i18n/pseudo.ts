/**
 * The pseudo-locale of the tests (issue 34): every message of the extracted English catalogue with
 * its letters accented ("Settings" → "Şḗŧŧīƞɠş") and about 35 % longer (a tail of "~"), its ICU
 * arguments, plurals and tags kept. A visible text that still has plain Latin letters did not come
 * from the catalogue; a layout that holds the longer text holds German and French.
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { TYPE, type MessageFormatElement, parse } from '@formatjs/icu-messageformat-parser'
import { printAST } from '@formatjs/icu-messageformat-parser/printer.js'

export const ROOT = resolve(import.meta.dirname, '..', '..')
export const PSEUDO_LOCALE = 'en-XA'

const LOWER = 'ȧƀƈḓḗƒɠħīĵķŀḿƞǿƥʠřşŧŭṽẇẋẏẑ'
const UPPER = 'ȦƁƇḒḖƑƓĦĪĴĶĿḾȠǾƤɊŘŞŦŬṼẆẊẎẐ'

/** Latin letters accented, one for one (other characters as they are). */
export function accent(text: string): string {
  let out = ''
  for (const ch of text) {
    const c = ch.charCodeAt(0)
    if (c >= 97 && c <= 122) out += [...LOWER][c - 97]
    else if (c >= 65 && c <= 90) out += [...UPPER][c - 65]
    else out += ch
  }
  return out
}

function walk(els: MessageFormatElement[]): number {
  let letters = 0
  for (const el of els) {
    if (el.type === TYPE.literal) {
      letters += el.value.length
      el.value = accent(el.value)
    } else if (el.type === TYPE.plural || el.type === TYPE.select) {
      let most = 0
      for (const o of Object.values(el.options)) most = Math.max(most, walk(o.value))
      letters += most
    } else if (el.type === TYPE.tag) {
      letters += walk(el.children)
    }
  }
  return letters
}

/** One message in the pseudo-locale. */
export function pseudoMessage(message: string): string {
  const ast = parse(message)
  const letters = walk(ast)
  const pad = Math.ceil(letters * 0.35)
  return pad > 0 ? `${printAST(ast)}${'~'.repeat(pad)}` : printAST(ast)
}

/** The extracted English catalogue (contract/i18n/en/messages.json: `npm run i18n:extract`). */
export function englishCatalogue(): Record<string, string> {
  return JSON.parse(readFileSync(join(ROOT, 'contract', 'i18n', 'en', 'messages.json'), 'utf8')) as Record<
    string,
    string
  >
}

/** The whole pseudo catalogue, from the English one. */
export function pseudoCatalogue(en: Record<string, string> = englishCatalogue()): Record<string, string> {
  return Object.fromEntries(Object.entries(en).map(([id, m]) => [id, pseudoMessage(m)]))
}
