/**
 * The error the app service throws for refusals of its own (wrong profile kind, nothing selected, an
 * upload that cannot be retried). The bridge turns it, like every other error, into a BridgeError.
 * Given a `Coded` (contract/coded.ts), its English text is the message and the code crosses the
 * bridge so the renderer words it in the person's language (issue 34).
 */
import type { Coded } from '../../contract/message'

export class AppError extends Error {
  override readonly name = 'AppError'
  /** The message as a catalogue id with parameters, when it has one. */
  readonly coded: Coded | undefined
  /** Field path → the field's message as a Coded (set by subclasses whose hints have one). */
  codedFields: Record<string, Coded> | undefined

  constructor(
    /** Machine code, e.g. 'wrong_profile_kind', 'no_active_profile', 'not_found'. */
    readonly code: string,
    message: string | Coded,
    /** Field path → message (English or Coded), for forms. */
    fields?: Record<string, string | Coded>,
    readonly status?: number,
  ) {
    super(typeof message === 'string' ? message : message.text)
    this.coded = typeof message === 'string' ? undefined : message
    if (fields) {
      this.fields = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' ? v : v.text]))
      const codedFields = Object.entries(fields).filter((e): e is [string, Coded] => typeof e[1] !== 'string')
      this.codedFields = codedFields.length ? Object.fromEntries(codedFields) : undefined
    } else this.codedFields = undefined
  }

  /** Field path → message, for forms. */
  readonly fields: Record<string, string> | undefined
}
