/**
 * The month's money for the Overview (issue 32): this month's (local time) expenses and bills that
 * Bookdrop's uploads created, summed in the business's currency (records in another currency are
 * counted apart, never converted), and the top vendors. Sums are exact: decimal strings in cents.
 */
import type { ReviewMoney } from '../../../contract/review'
import type { StoredRecord } from '../store/records'

export const TOP_VENDORS = 5

/** A decimal string in hundredths (rounded half away from zero past two places), or null. */
export function cents(total: string | null): bigint | null {
  const m = total === null ? null : /^(-?)(\d+)(?:\.(\d+))?$/.exec(total.trim())
  if (!m) return null
  const frac = (m[3] ?? '').padEnd(3, '0')
  let c = BigInt(m[2]!) * 100n + BigInt(frac.slice(0, 2))
  if (Number(frac[2]) >= 5) c += 1n
  return m[1] ? -c : c
}

/** Hundredths written as a decimal string with two places ("12400.00"). */
export function decimal(c: bigint): string {
  const neg = c < 0n
  const a = neg ? -c : c
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`
}

/** The first and last day of the month of `now` where this computer is, YYYY-MM-DD. */
export function monthBounds(now: number = Date.now()): { from: string; to: string } {
  const d = new Date(now)
  const y = d.getFullYear()
  const m = d.getMonth()
  const last = new Date(y, m + 1, 0).getDate()
  const p = (n: number) => String(n).padStart(2, '0')
  return { from: `${y}-${p(m + 1)}-01`, to: `${y}-${p(m + 1)}-${p(last)}` }
}

export function monthMoney(rows: readonly StoredRecord[], currency: string | null, toReview: number): ReviewMoney {
  let spent = 0n
  let otherCurrencies = 0
  const byVendor = new Map<string, { vendor: string; cents: bigint }>()
  for (const r of rows) {
    const c = cents(r.total)
    if (c === null) continue
    if (!currency || (r.currency !== null && r.currency !== currency)) {
      otherCurrencies++
      continue
    }
    spent += c
    const name = r.vendor?.trim()
    if (!name) continue
    const key = name.toLowerCase()
    const v = byVendor.get(key) ?? { vendor: name, cents: 0n }
    v.cents += c
    byVendor.set(key, v)
  }
  const topVendors = [...byVendor.values()]
    .sort((a, b) => (b.cents > a.cents ? 1 : b.cents < a.cents ? -1 : a.vendor.localeCompare(b.vendor)))
    .slice(0, TOP_VENDORS)
    .map((v) => ({ vendor: v.vendor, total: decimal(v.cents) }))
  return { currency, spentThisMonth: decimal(spent), topVendors, otherCurrencies, toReview }
}
