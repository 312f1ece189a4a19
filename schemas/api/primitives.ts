/**
 * The small pieces every payload schema is built from: calendar dates, time zones, currency and
 * country codes, non-empty text, percentages, and money rounded to cents.
 */
import { z } from 'zod'

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/

/** True when `s` is a real calendar date written YYYY-MM-DD (2023-02-29 is not). */
export function isCalendarDate(s: string): boolean {
  const m = DATE_RE.exec(s)
  if (!m) return false
  const y = Number(m[1])
  const mo = Number(m[2])
  const d = Number(m[3])
  if (mo < 1 || mo > 12 || d < 1) return false
  const dim = new Date(Date.UTC(y, mo, 0)).getUTCDate()
  return d <= dim
}

export const calendarDate = z
  .string({ error: 'must be a date written YYYY-MM-DD' })
  .refine(isCalendarDate, { error: 'must be a real calendar date written YYYY-MM-DD' })

/** IANA-style zone name ("Africa/Lagos", "UTC"), as the runtime's time zone database knows it. */
export function isIanaTimeZone(tz: string): boolean {
  if (!tz || (tz !== 'UTC' && !tz.includes('/'))) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return true
  } catch {
    return false
  }
}

export const currencyCode = z
  .string({ error: 'must be a three-letter ISO 4217 currency code such as NGN or USD' })
  .regex(/^[A-Z]{3}$/, { error: 'must be a three-letter ISO 4217 currency code such as NGN or USD' })

export const countryCode = z
  .string({ error: 'must be a two-letter ISO 3166 country code such as NG or US' })
  .regex(/^[A-Z]{2}$/, { error: 'must be a two-letter ISO 3166 country code such as NG or US' })

export const nonEmpty = (what: string) =>
  z
    .string({ error: `${what} must be text` })
    .trim()
    .min(1, { error: `${what} must not be empty` })

export const percentage = (what: string) =>
  z
    .number({ error: `${what} must be a number (a percentage: 7.5 means 7.5%)` })
    .min(0, { error: `${what} must be 0 or more (a percentage: 7.5 means 7.5%)` })
    .max(100, { error: `${what} must be 100 or less (a percentage: 7.5 means 7.5%)` })

/** Rounds a currency amount to cents, avoiding binary noise (0.1 + 0.2). */
export function roundMoney(n: number): number {
  return Math.round((n + Number.EPSILON) * 100) / 100
}
