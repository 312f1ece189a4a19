/**
 * The phone page's language (issue 34): the first of the phone's preferred languages that Bookdrop
 * has, a region falling back to its language, English otherwise.
 */
import { describe, expect, it } from 'vitest'
import { pickLocale } from '../../src-renderer/phone/words'

describe('the phone page’s language', () => {
  it.each([
    [['de-DE', 'en-US'], 'de'],
    [['ja-JP', 'fr-FR', 'en-US'], 'fr'],
    [['pt-PT'], 'pt-BR'],
    [['pt-br'], 'pt-BR'],
    [['ar-EG'], 'ar'],
    [['id-ID'], 'id'],
    [['en-GB', 'de-DE'], 'en'],
    [['ja-JP', 'zh-CN'], 'en'],
    [[], 'en'],
  ])('%j → %s', (preferred, locale) => {
    expect(pickLocale(preferred)).toBe(locale)
  })
})
