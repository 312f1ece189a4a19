/**
 * Review's flags come from main coded (contract/review-messages.ts, contract/possible-duplicate.ts):
 * worded in the language in use, the possible duplicate with its date in that language's words,
 * never main's English text with an ISO date.
 */
import { createIntl } from 'react-intl'
import { describe, expect, it } from 'vitest'
import { messagesFor } from '../../contract/i18n/all'
import { possibleDuplicateText } from '../../contract/possible-duplicate'
import { codedText } from '../../src-renderer/screens/review/words'

const sentAt = Date.UTC(2026, 10, 2, 12)
const flag = {
  code: 'duplicate.possible',
  params: { name: 'shoprite-receipt.pdf', sentAt, basis: 'same_record' },
  text: possibleDuplicateText({ basis: 'same_record', name: 'shoprite-receipt.pdf', sentAt }),
}
const plain = (s: string) => s.replace(/[\u2068\u2069]/g, '')

describe('Review’s coded flags in the language in use', () => {
  it('German: the possible duplicate with a German date; no ISO date', () => {
    const intl = createIntl({ locale: 'de', messages: messagesFor('de') })
    const words = codedText(intl, flag)
    expect(plain(words)).toBe(
      `Mögliches Duplikat von shoprite-receipt.pdf, gesendet am ${intl.formatDate(sentAt, { year: 'numeric', month: 'short', day: 'numeric' })} (gleicher Lieferant, gleiches Datum und gleicher Betrag)`,
    )
    expect(words).not.toMatch(/2026-11-02/)
  })

  it('French and Arabic: the other flags from review-main.json', () => {
    const fr = createIntl({ locale: 'fr', messages: messagesFor('fr') })
    const ar = createIntl({ locale: 'ar', messages: messagesFor('ar') })
    const noTotal = { code: 'review.flag.no_total', text: 'No total' }
    expect(codedText(fr, noTotal)).toBe(messagesFor('fr')['review.flag.no_total'])
    expect(codedText(ar, noTotal)).not.toBe('No total')
    expect(plain(codedText(ar, flag))).toContain('shoprite-receipt.pdf')
    expect(codedText(ar, flag)).not.toMatch(/Possible duplicate|2026-11-02/)
  })
})
