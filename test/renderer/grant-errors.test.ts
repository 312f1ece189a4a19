import { describe, expect, it } from 'vitest'
import { ERROR_CODES } from '../../contract/assumptions'
import { explainGrantError } from '../../src-renderer/lib/grants'

/** What a partner reads when a seat grant fails: each code its own sentence, the server's reason where it has a place. */
describe('a failed grant, in words', () => {
  it.each([
    [ERROR_CODES.ownPlusSubscription, 'pays for its own Plus subscription'],
    [ERROR_CODES.partnerPaidCredits, 'charged to your partner credit'],
    [ERROR_CODES.businessNotReferred, 'not among the businesses you referred'],
    [ERROR_CODES.invalidSeatRequest, 'The request was not valid. The server said: seats must be 1-1000'],
    [ERROR_CODES.validation, 'The request was not valid. The server said: seats must be 1-1000'],
    [ERROR_CODES.wrongKeyKind, 'is not a partner key. The server said: seats must be 1-1000'],
    [ERROR_CODES.invalidKey, 'The server refused your partner key'],
    [ERROR_CODES.rateLimited, 'Too many requests right now'],
    [ERROR_CODES.serverError, 'never charged twice. The server said: seats must be 1-1000'],
  ])('%s', (code, words) => {
    expect(explainGrantError({ code, message: 'seats must be 1-1000', status: 400 })).toContain(words)
  })

  it('an unknown code keeps the server’s message, with its HTTP status when the API answered', () => {
    expect(explainGrantError({ code: 'something_new', message: 'No.', status: 418 })).toBe('No. (HTTP 418)')
    expect(explainGrantError({ code: 'network', message: 'Cannot reach the server.' })).toBe('Cannot reach the server.')
  })
})
