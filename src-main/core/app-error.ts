/**
 * The error the app service throws for refusals of its own (wrong profile kind, nothing selected, an
 * upload that cannot be retried). The bridge turns it, like every other error, into a BridgeError.
 */
export class AppError extends Error {
  override readonly name = 'AppError'

  constructor(
    /** Machine code, e.g. 'wrong_profile_kind', 'no_active_profile', 'not_found'. */
    readonly code: string,
    message: string,
    /** Field path → message, for forms. */
    readonly fields?: Record<string, string>,
    readonly status?: number,
  ) {
    super(message)
  }
}
