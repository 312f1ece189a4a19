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
  return u.preparedSize === null ? formatBytes(u.size) : `${formatBytes(u.size)} → ${formatBytes(u.preparedSize)}`
}

/** The words for `uploadSize` a screen reader and a tooltip give. */
export function uploadSizeTitle(u: { size: number | null; preparedSize: number | null }): string | undefined {
  return u.preparedSize === null ? undefined : `${formatBytes(u.size)} as taken, ${formatBytes(u.preparedSize)} as sent (photo prepared)`
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' })
const compact = new Intl.DateTimeFormat(undefined, { dateStyle: 'short', timeStyle: 'short' })

/** Short date and time for dense tables. */
export function formatCompactDateTime(ms: number): string {
  return compact.format(new Date(ms))
}

export function formatDateTime(ms: number | string | null | undefined): string {
  if (ms === null || ms === undefined || ms === '') return '—'
  const d = new Date(ms)
  return Number.isNaN(d.getTime()) ? String(ms) : dateTime.format(d)
}

export function formatTime(ms: number): string {
  return timeOnly.format(new Date(ms))
}

export function formatRelative(ms: number | null | undefined, now = Date.now()): string {
  if (!ms) return 'never'
  const s = Math.round((ms - now) / 1000)
  const rtf = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })
  const abs = Math.abs(s)
  if (abs < 60) return rtf.format(s, 'second')
  if (abs < 3600) return rtf.format(Math.round(s / 60), 'minute')
  if (abs < 86400) return rtf.format(Math.round(s / 3600), 'hour')
  return rtf.format(Math.round(s / 86400), 'day')
}

const moneyCache = new Map<string, Intl.NumberFormat>()
export function formatMoney(n: number | null | undefined, currency?: string | null): string {
  if (n === null || n === undefined || !Number.isFinite(n)) return '—'
  const key = currency && /^[A-Z]{3}$/.test(currency) ? currency : ''
  let f = moneyCache.get(key)
  if (!f) {
    try {
      f = key
        ? new Intl.NumberFormat(undefined, { style: 'currency', currency: key })
        : new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    } catch {
      f = new Intl.NumberFormat(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    }
    moneyCache.set(key, f)
  }
  return f.format(n)
}

const plain = new Intl.NumberFormat()
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

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatNumber(n)} ${n === 1 ? one : many}`
}
