/**
 * Amounts typed by a person, in their own number format (issue 32): "12,50" in German, "12.50" in
 * English, "1.234,50" or "1 234,50" with group separators. The locale's separators come from Intl;
 * the result is the plain decimal string the API takes ("1234.50"), or null when it is not a number.
 */

interface Separators {
  decimal: string
  group: string
}

const cache = new Map<string, Separators>()

/** The decimal and group separators of a locale (the runtime's by default). */
export function separatorsOf(locale?: string): Separators {
  const key = locale ?? ''
  let s = cache.get(key)
  if (!s) {
    const parts = new Intl.NumberFormat(locale).formatToParts(12345.6)
    s = {
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
    }
    cache.set(key, s)
  }
  return s
}

const PLAIN = /^\d{1,13}(\.\d{1,4})?$/

/**
 * Reads an amount as the person wrote it. The locale's decimal separator is the decimal point;
 * its group separator (and spaces) are dropped where they group thousands, and refused elsewhere
 * ("12,50" in English is a mistake to point out, not 1250). Where the decimal separator is a comma, a lone dot
 * followed by one or two digits at the end ("12.50") is read as a decimal point too (people type
 * it), while "1.234" stays one thousand two hundred thirty-four. '' → '' (no amount).
 */
export function parseAmount(text: string, locale?: string): string | null {
  const { decimal, group } = separatorsOf(locale)
  let t = text.trim()
  if (t === '') return ''
  // Spaces (and the narrow no-break spaces French writes) group digits in many locales.
  const spaced = /[\s\u00a0\u202f]/.test(t)
  t = t.replace(/[\s\u00a0\u202f]/g, spaced && group.trim() !== '' ? group : '')
  if (decimal !== '.' && !t.includes(decimal) && /^\d+\.\d{1,2}$/.test(t)) t = t.replace('.', decimal)
  const g = group.trim() === '' ? null : group
  const [whole = '', fraction, ...more] = t.split(decimal)
  if (more.length > 0) return null
  // Groups only where they belong (1.234.567): "12,50" in English is refused, not read as 1250.
  if (g !== null && whole.includes(g) && !new RegExp(`^\\d{1,3}(?:${escape(g)}\\d{3})+$`).test(whole)) return null
  const plain = (g === null ? whole : whole.split(g).join('')) + (fraction === undefined ? '' : `.${fraction}`)
  return PLAIN.test(plain) ? plain : null
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** A decimal string ("12400.00") as the person writes it, without groups ("12400,00" in German). */
export function amountForInput(value: string | null, locale?: string): string {
  if (value === null || value === '') return ''
  const { decimal } = separatorsOf(locale)
  return decimal === '.' ? value : value.replace('.', decimal)
}
