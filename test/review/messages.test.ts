/**
 * Issue 32's main-side sentences: each Coded that Review sends says in English exactly what its
 * ICU message says (contract/review-messages.ts), and every language's review-main.json has every
 * id, parses, and keeps its arguments.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { IntlMessageFormat } from 'intl-messageformat'
import { describe, expect, it } from 'vitest'
import type { Coded } from '../../contract/message'
import { REVIEW_MAIN_MESSAGES } from '../../contract/review-messages'
import { REVIEW_TEXT } from '../../src-main/core/review/flags'

const SAMPLES: Coded[] = [
  REVIEW_TEXT.noTotal(),
  REVIEW_TEXT.noVendor(),
  REVIEW_TEXT.futureDate(),
  REVIEW_TEXT.otherCurrency('USD', 'NGN'),
  REVIEW_TEXT.readOnlyKind('invoice'),
  REVIEW_TEXT.readOnlyKind('purchase_order'),
  REVIEW_TEXT.readOnlyKind('voucher'),
  REVIEW_TEXT.readOnlyDeleted(),
  REVIEW_TEXT.readOnlyUnread(),
  REVIEW_TEXT.readPending('the server did not answer'),
  REVIEW_TEXT.saveOffline(),
  REVIEW_TEXT.narrationEmpty(),
  REVIEW_TEXT.notFound(),
]
const LOCALES = ['de', 'fr', 'es', 'pt-BR', 'ar', 'id']

describe("Review's main-side sentences", () => {
  it.each(SAMPLES.map((c) => [c.code, c] as const))('%s: the English text is its ICU message formatted', (_id, c) => {
    const icu = REVIEW_MAIN_MESSAGES[c.code as keyof typeof REVIEW_MAIN_MESSAGES]
    expect(icu, `${c.code} has an ICU message`).toBeDefined()
    expect(new IntlMessageFormat(icu, 'en').format(c.params ?? {})).toBe(c.text)
  })

  it('names every message of the catalogue in the samples', () => {
    expect(new Set(SAMPLES.map((c) => c.code))).toEqual(new Set(Object.keys(REVIEW_MAIN_MESSAGES)))
  })

  it.each(LOCALES)('%s has every id, sorted, each formatting with its arguments', (locale) => {
    const file = join(__dirname, '../../contract/i18n', locale, 'review-main.json')
    const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>
    expect(Object.keys(messages)).toEqual(Object.keys(REVIEW_MAIN_MESSAGES).sort())
    for (const c of SAMPLES) {
      const out = new IntlMessageFormat(messages[c.code]!, locale).format(c.params ?? {}) as string
      expect(out.length).toBeGreaterThan(0)
      for (const v of Object.values(c.params ?? {})) {
        // The values a person must see (currencies, the reason) appear in every language.
        if (typeof v === 'string' && /^[A-Z]{3}$|\s/.test(v)) expect(out).toContain(v)
      }
      expect(out).not.toMatch(/[{}]/)
    }
  })
})
