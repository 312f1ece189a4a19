/**
 * Money as a decimal string (issue 32): without zod or any import, so the engine's idle path can use
 * it (issue 14: the headless engine idle loads no API schema).
 */
const DECIMAL = /^[-+]?\d+(\.\d+)?$/

/** A money amount as a decimal string with two places at least; null when it is not a number. */
export function decimalText(v: unknown): string | null {
  let s: string
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return null
    s = String(v)
    if (/e/i.test(s)) s = v.toFixed(2)
  } else if (typeof v === 'string' && DECIMAL.test(v.trim().replace(/,/g, ''))) {
    s = v.trim().replace(/,/g, '')
  } else return null
  const [int = '0', frac = ''] = s.replace(/^\+/, '').split('.')
  const neg = int.startsWith('-')
  const digits = (neg ? int.slice(1) : int).replace(/^0+(?=\d)/, '')
  return `${neg ? '-' : ''}${digits}.${frac.padEnd(2, '0')}`
}
