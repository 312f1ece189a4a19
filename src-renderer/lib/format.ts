/** Small formatting helpers; all locale-aware through Intl. */

export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—'
  if (n < 1024) return `${n} B`
  const units = ['KB', 'MB', 'GB']
  let v = n / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${units[i]}`
}

/** A file's size, and the size it was sent at when it was a photo prepared first: "4.8 MB → 612 KB". */
export function uploadSize(u: { size: number | null; preparedSize: number | null }): string {
  return isolate(u.preparedSize === null ? formatBytes(u.size) : `${formatBytes(u.size)} → ${formatBytes(u.preparedSize)}`)
}

/** The words for `uploadSize` a screen reader and a tooltip give. */
export function uploadSizeTitle(u: { size: number | null; preparedSize: number | null }): string | undefined {
  return u.preparedSize === null ? undefined : `${formatBytes(u.size)} as taken, ${formatBytes(u.preparedSize)} as sent (photo prepared)`
}

/*
 * Dates and numbers: one set of formatters for every screen, in the person's locale (the runtime's,
 * which is the OS's in the desktop app and the browser's in the web host; once a language is in use,
 * lib/i18n.ts sets the tag that fits it: see setFormatLocale). "Short" for dense tables, "whole" for
 * a hover or a focused row; a value is never cut (tables size its column to it: lib/measure.ts).
 */
let locale: string | undefined
/** In a right-to-left language, values are isolated (see isolate). */
let rtl = false
/** The few words these helpers write, in the language in use (lib/i18n.ts gives them). */
let words = { never: 'never' }
const formatters = new Map<string, Intl.DateTimeFormat>()

/**
 * The locale dates and numbers are written in (a BCP 47 tag, e.g. de-DE, ar-u-nu-latn), and whether
 * the interface runs right to left. Set by lib/i18n.ts whenever the language changes.
 */
export function setFormatLocale(
  tag: string | undefined,
  direction: 'ltr' | 'rtl' = 'ltr',
  said: { never: string } = { never: 'never' },
): void {
  locale = tag
  words = said
  rtl = direction === 'rtl'
  formatters.clear()
  moneyCache.clear()
  plain = new Intl.NumberFormat(locale)
}

/** The locale dates and numbers are written in now (undefined: the runtime's). */
export function formatLocale(): string | undefined {
  return locale
}

/**
 * A value that must keep its own direction inside right-to-left text (a date, an amount, a file
 * name, an id): wrapped in Unicode's first-strong isolate (U+2068 … U+2069), which the browser
 * lays out as <bdi> would. In a left-to-right interface it stays as it is.
 */
export function isolate(text: string): string {
  return rtl && text !== '' ? `\u2068${text}\u2069` : text
}

function dtf(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify(options)
  let f = formatters.get(key)
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options)
    formatters.set(key, f)
  }
  return f
}
const dateOnly = () => dtf({ dateStyle: 'medium' })
const dateTime = () => dtf({ dateStyle: 'medium', timeStyle: 'short' })
const whole = () => dtf({ dateStyle: 'full', timeStyle: 'medium' })
const timeOnly = () => dtf({ timeStyle: 'medium' })
const compact = () => dtf({ dateStyle: 'short', timeStyle: 'short' })
const monthYear = () => dtf({ month: 'long', year: 'numeric' })
const weekday = () => dtf({ weekday: 'short', day: 'numeric', month: 'long' })

const CALENDAR_DAY = /^(\d{4})-(\d{2})-(\d{2})$/

/**
 * A Date from what the API or main sends: epoch ms, an ISO time, or a calendar day "YYYY-MM-DD"
 * (that day in the local calendar, never shifted by the time zone). null when it is not a date.
 */
export function toDate(v: number | string | Date | null | undefined): Date | null {
  if (v === null || v === undefined || v === '') return null
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v
  if (typeof v === 'string') {
    const day = CALENDAR_DAY.exec(v.trim())
    if (day) {
      const d = new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3]))
      return Number.isNaN(d.getTime()) ? null : d
    }
  }
  const d = new Date(v)
  return Number.isNaN(d.getTime()) ? null : d
}

/** A calendar date ("25 Nov 2026", "25.11.2026", "2026/11/25"); what is not a date, as it came; "—" when empty. */
export function formatDate(v: number | string | null | undefined): string {
  const d = toDate(v)
  return d ? isolate(dateOnly().format(d)) : v === null || v === undefined || v === '' ? '—' : String(v)
}

/** Date and time ("25 Nov 2026, 14:55"); what is not a date, as it came; "—" when empty. */
export function formatDateTime(ms: number | string | null | undefined): string {
  const d = toDate(ms)
  return d ? isolate(dateTime().format(d)) : ms === null || ms === undefined || ms === '' ? '—' : String(ms)
}

/** Short date and time for dense tables ("25/11/2026, 14:55"). */
export function formatCompactDateTime(ms: number): string {
  return isolate(compact().format(new Date(ms)))
}

/** The whole of a moment, for a hover or a focused row ("Wednesday 25 November 2026 at 14:55:03"). */
export function formatWholeDateTime(ms: number | string | null | undefined): string {
  const d = toDate(ms)
  return d ? isolate(whole().format(d)) : formatDateTime(ms)
}

export function formatTime(ms: number): string {
  return isolate(timeOnly().format(new Date(ms)))
}

/** "November 2026" */
export function formatMonth(d: Date): string {
  return monthYear().format(d)
}

/** "Wed 25 November" */
export function formatDay(d: Date): string {
  return weekday().format(d)
}

/** The machine-readable value of a <time> element, or undefined when it is not a date. */
export function isoOf(v: number | string | null | undefined): string | undefined {
  if (typeof v === 'string' && CALENDAR_DAY.test(v.trim())) return v.trim()
  const d = toDate(v)
  return d ? d.toISOString() : undefined
}

export function formatRelative(ms: number | null | undefined, now = Date.now()): string {
  if (!ms) return words.never
  const s = Math.round((ms - now) / 1000)
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' })
  const abs = Math.abs(s)
  if (abs < 60) return rtf.format(s, 'second')
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute')
  if (abs < 86400) return rtf.format(Math.round(s / 3600), 'hour')
  return rtf.format(Math.round(s / 86400), 'day')
}

const moneyCache = new Map<string, Intl.NumberFormat>()
/**
 * Money in the person's locale, with the currency's own minor units (JPY and others have none, most
 * have two): Intl knows them from the ISO code. Without a valid code, a plain number with two decimals.
 */
export function formatMoney(n: number | null | undefined, currency?: string | null): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—'
  const key = currency && /^[A-Z]{3}$/.test(currency) ? currency : ''
  let f = moneyCache.get(key)
  if (!f) {
    try {
      f = key
        ? new Intl.NumberFormat(locale, { style: 'currency', currency: key })
        : new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    } catch {
      f = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    }
    moneyCache.set(key, f)
  }
  return isolate(f.format(n))
}

let plain = new Intl.NumberFormat()
export function formatNumber(n: number | null | undefined): string {
  return n === null || n === undefined || !Number.isFinite(n) ? '—' : plain.format(n)
}

/** Local calendar date YYYY-MM-DD of a Date. */
export function isoDate(d: Date = new Date()): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** Epoch ms of the local start (or end) of a YYYY-MM-DD day; undefined when empty or invalid. */
export function dayBound(day: string, end = false): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day)
  if (!m) return undefined
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  if (end) d.setHours(23, 59, 59, 999)
  const t = d.getTime()
  return Number.isNaN(t) ? undefined : t
}

/** Parses a form's number field: '' → undefined, '1,5' → 1.5, 'x' → NaN (so the schema says why). */
export function numberField(s: string): number | undefined {
  const t = s.trim().replace(',', '.')
  if (t === '') return undefined
  return Number(t)
}

/** English only: a count with its noun. New code writes an ICU plural in a message instead (lib/i18n.ts). */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`
}
