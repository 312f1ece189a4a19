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
 * its group separator (and spaces) are dropped. Where the decimal separator is a comma, a lone dot
 * followed by one or two digits at the end ("12.50") is read as a decimal point too (people type
 * it), while "1.234" stays one thousand two hundred thirty-four. '' → '' (no amount).
 */
export function parseAmount(text: string, locale?: string): string | null {
  const { decimal, group } = separatorsOf(locale)
  let t = text.trim().replace(/[\s\u00a0\u202f]/g, '')
  if (t === '') return ''
  if (decimal !== '.' && !t.includes(decimal) && /^\d+\.\d{1,2}$/.test(t)) t = t.replace('.', decimal)
  if (group.trim() !== '') t = t.split(group).join('')
  if (decimal !== '.') t = t.split(decimal).join('.')
  if (!PLAIN.test(t)) return null
  return t
}

/** A decimal string ("12400.00") as the person writes it, without groups ("12400,00" in German). */
export function amountForInput(value: string | null, locale?: string): string {
  if (value === null || value === '') return ''
  const { decimal } = separatorsOf(locale)
  return decimal === '.' ? value : value.replace('.', decimal)
}
