/** Review's Total (issue 32): an amount read in the person's own number format. */
import { describe, expect, it } from 'vitest'
import { amountForInput, parseAmount } from '../../src-renderer/lib/amount'

describe('parseAmount', () => {
  it.each([
    ['de-DE', '12,50', '12.50'],
    ['de-DE', '1.234,50', '1234.50'],
    ['de-DE', '12.50', '12.50'],
    ['de-DE', '1.234', '1234'],
    ['fr-FR', '1 234,5', '1234.5'],
    ['en-US', '12,400.00', '12400.00'],
    ['en-US', '12.5', '12.5'],
    ['en-NG', ' 5950 ', '5950'],
    ['de-DE', '', ''],
  ])('%s reads %j as %j', (locale, text, want) => {
    expect(parseAmount(text, locale)).toBe(want)
  })

  it.each([
    ['en-US', '12,50'],
    ['de-DE', 'zwölf'],
    ['en-US', '-3'],
    ['en-US', '1.2.3'],
  ])('%s refuses %j', (locale, text) => {
    expect(parseAmount(text, locale)).toBeNull()
  })

  it('writes a stored decimal the way the person types it', () => {
    expect(amountForInput('12400.00', 'de-DE')).toBe('12400,00')
    expect(amountForInput('12400.00', 'en-US')).toBe('12400.00')
    expect(amountForInput(null, 'en-US')).toBe('')
  })
})
