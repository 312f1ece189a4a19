/**
 * Fields from free text (a prompt, a text file, a PDF's text layer): the amount and its currency,
 * the date and the vendor, by rules a test can predict. Each is linear in the text (issue 23).
 */
import { isCalendarDate, roundMoney } from '../../schemas'
import { BINARY_KINDS, TEXT_KINDS } from './files'

export interface Fields {
  amount: number | null
  /** The currency of that amount (or, when it has none, the first one the text names). */
  currency: string | null
  date: string | null
  vendor: string | null
}

const CURRENCY_CODES = 'NGN USD EUR GBP KES GHS ZAR CAD AUD INR XOF XAF EGP'.split(' ')
const CURRENCY_SYMBOLS = '₦$€£'
/** What a currency symbol stands for ("$" is read as US dollars). */
const SYMBOL_CODES: Record<string, string> = { '₦': 'NGN', $: 'USD', '€': 'EUR', '£': 'GBP' }

function currencyCode(mark: string | undefined): string | null {
  if (!mark) return null
  return SYMBOL_CODES[mark] ?? (CURRENCY_CODES.includes(mark.toUpperCase()) ? mark.toUpperCase() : null)
}
/** A currency symbol or code, where it stands in a text. */
export const CURRENCY_MARK_RE = new RegExp(
  `[${CURRENCY_SYMBOLS}]|\\b(?:${CURRENCY_CODES.join('|')})(?![A-Za-z])`,
  'g',
)
const NUMBER_SRC = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`
/** A currency marker then a number, or a number not glued to a word, "#", "/" or "-" (INV-1001). */
const MONEY_RE = new RegExp(
  String.raw`(?:(?<cur>[${CURRENCY_SYMBOLS}]|\b(?:${CURRENCY_CODES.join('|')})(?![A-Za-z]))\s?|(?<![\w.,#/-]))(?<num>${NUMBER_SRC})(?![\w]|[.,]\d)`,
  'gu',
)
const ISO_DATE_RE = /\b(\d{4})-(\d{2})-(\d{2})\b/g
const DMY_DATE_RE = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g
/** Keywords after which the amount is the one wanted, most specific first. */
const AMOUNT_KEYWORDS = [/\b(?:amount|balance) due\b/gi, /\bgrand total\b/gi, /\btotal\b/gi]

interface MoneyToken {
  value: number
  currency: string | null
  grouped: boolean
}

function moneyTokens(text: string): MoneyToken[] {
  // Dates are blanked first so 2026-01-05 never reads as an amount.
  const blanked = text
    .replace(ISO_DATE_RE, (m) => ' '.repeat(m.length))
    .replace(DMY_DATE_RE, (m) => ' '.repeat(m.length))
  const out: MoneyToken[] = []
  for (const m of blanked.matchAll(MONEY_RE)) {
    const num = m.groups?.num ?? ''
    out.push({
      value: Number(num.replace(/,/g, '')),
      currency: currencyCode(m.groups?.cur),
      grouped: /[,.]/.test(num),
    })
  }
  return out.filter((t) => Number.isFinite(t.value))
}

/**
 * The amount of a text: the first amount after "amount due"/"balance due", else "grand total", else
 * the last "total" that has one; else the first currency-marked amount ("₦12,500", "$12.50",
 * "NGN 5000"); else the first number with separators or decimals ("1,234.56"); else the largest number.
 */
export function findAmount(text: string): number | null {
  return findMoney(text).amount
}

/** The amount of a text (see findAmount) and its currency, else the first currency the text names. */
export function findMoney(text: string): { amount: number | null; currency: string | null } {
  const tokens = moneyTokens(text)
  const named =
    tokens.find((t) => t.currency)?.currency ?? currencyCode(text.match(CURRENCY_MARK_RE)?.[0]) ?? null
  const found = (t: MoneyToken) => ({ amount: roundMoney(t.value), currency: t.currency ?? named })
  for (const kw of AMOUNT_KEYWORDS) {
    const hits = [...text.matchAll(kw)].reverse()
    for (const hit of hits) {
      const after = text.slice((hit.index ?? 0) + hit[0].length, (hit.index ?? 0) + hit[0].length + 80)
      const first = moneyTokens(after)[0]
      if (first) return found(first)
    }
  }
  const pick =
    tokens.find((t) => t.currency) ??
    tokens.find((t) => t.grouped) ??
    tokens.reduce<MoneyToken | undefined>((best, t) => (!best || t.value > best.value ? t : best), undefined)
  return pick ? found(pick) : { amount: null, currency: named }
}

const pad2 = (s: string) => s.padStart(2, '0')

/** The first real calendar date written YYYY-MM-DD or DD/MM/YYYY, as YYYY-MM-DD. */
export function findDate(text: string): string | null {
  const found: { index: number; date: string }[] = []
  for (const m of text.matchAll(ISO_DATE_RE)) found.push({ index: m.index ?? 0, date: m[0] })
  for (const m of text.matchAll(DMY_DATE_RE)) {
    found.push({ index: m.index ?? 0, date: `${m[3]}-${pad2(m[2] ?? '')}-${pad2(m[1] ?? '')}` })
  }
  found.sort((a, b) => a.index - b.index)
  return found.find((f) => isCalendarDate(f.date))?.date ?? null
}

/**
 * Characters of a line looked at after "at", "from" or "vendor:": a name is cut at 80, so a longer
 * look changes nothing but the cost. Each candidate costs at most this much, so finding a vendor is
 * linear in the text (issue 23: "at 1 at 1 …" re-read the rest of the line for every "at").
 */
export const NAME_WINDOW = 200
/** The name is captured in a lookahead so a rejected candidate ("at 10:30") does not hide a later one. */
const VENDOR_PATTERNS = [
  new RegExp(String.raw`\b(?:vendor|supplier|merchant|payee)\s*[:-]\s*(?=([^\n]{1,${NAME_WINDOW}}))`, 'gi'),
  new RegExp(String.raw`\bfrom:?\s+(?=([^\n]{1,${NAME_WINDOW}}))`, 'gi'),
  new RegExp(String.raw`\bat\s+(?=([^\n]{1,${NAME_WINDOW}}))`, 'gi'),
]
/**
 * Where a name stops: punctuation, a dash, a joining word, a currency, or a number that looks like
 * an amount or a date (3+ digits, separators, decimals, a slash); "Kiosk 24 Lekki" keeps its 24.
 */
const NAME_END =
  /[,;!?|()<>]|\.(?:\s|$)|\s[-–—]\s|\s(?:on|for|dated|total|amount|worth|paid|with|via|and)\b|[₦$€£]|\s\d{3,}|\s\d+[.,/]\d|\s(?:NGN|USD|EUR|GBP)\b/i

/**
 * Words that point at the document itself, not at who issued it: "from the receipt taxi.pdf" in
 * Bookdrop's default prompt is not a vendor called "the receipt taxi.pdf".
 */
const DOCUMENT_REFERENCE =
  /^(?:(?:the|this|that|a|an|my|our|attached)\s+)?(?:receipts?|documents?|files?|attachments?|invoices?|bills?|statements?|images?|photos?|pictures?|scans?|e-?mails?|pdfs?)\b/i
/** A file name in the candidate ("taxi-receipt.pdf"): a reference to a file, not a vendor. */
const FILE_NAME = new RegExp(String.raw`[\w-]\.(?:${[...TEXT_KINDS, ...BINARY_KINDS].join('|')})\b`, 'i')

/** The vendor name at the start of `raw` (the rest of a line), or null; reads at most NAME_WINDOW characters. */
export function cleanName(raw: string): string | null {
  const head = raw.slice(0, NAME_WINDOW)
  const end = NAME_END.exec(head)
  const cut = (end ? head.slice(0, end.index) : head)
    .trim()
    .replace(/^["'“”]+|["'“”.:]+$/g, '')
    .trim()
  if (!cut || /^\d/.test(cut) || !/\p{L}/u.test(cut)) return null
  if (DOCUMENT_REFERENCE.test(cut) || FILE_NAME.test(cut)) return null
  return cut.slice(0, 80)
}

/** A vendor named by "vendor: X" (also supplier, merchant, payee), "from X" or "at X". */
export function findVendor(text: string): string | null {
  for (const re of VENDOR_PATTERNS) {
    for (const m of text.matchAll(re)) {
      const name = cleanName(m[1] ?? '')
      if (name) return name
    }
  }
  return null
}

export function firstLine(text: string): string | null {
  const line = text.split(/\r?\n/).find((l) => /\p{L}/u.test(l))
  return line ? line.trim().slice(0, 120) : null
}

export function extractFields(text: string): Fields {
  return { ...findMoney(text), date: findDate(text), vendor: findVendor(text) }
}
