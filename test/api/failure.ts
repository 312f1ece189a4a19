import { expect } from 'vitest'
import { ApiError } from '../../src-main/core/api'

/** The ApiError a promise (or a function) rejects with; fails the test if it resolves. */
export async function failure(p: Promise<unknown> | (() => unknown)): Promise<ApiError> {
  try {
    await (typeof p === 'function' ? p() : p)
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError)
    return e as ApiError
  }
  throw new Error('expected an ApiError, but the call succeeded')
}
