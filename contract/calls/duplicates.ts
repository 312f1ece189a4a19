/**
 * The calls of possible duplicates (issue 33): Discard a held row (Send anyway is `retryUpload`),
 * and the active profile's setting "Hold possible duplicates for me" / "Send them anyway".
 */
import { z } from 'zod'
import type { UploadView } from '../types'
import { none } from './shared'

/** What a profile does with a possible duplicate: held for a person, or sent with a note. */
export const DUPLICATE_MODES = ['hold', 'send'] as const
export type DuplicateMode = (typeof DUPLICATE_MODES)[number]

export const DUPLICATE_CALLS = {
  discardUpload: z.object({ id: z.number().int().positive() }).strict(),
  getDuplicateSetting: none,
  setDuplicateSetting: z.object({ mode: z.enum(DUPLICATE_MODES) }).strict(),
} as const

export interface DuplicateCalls {
  discardUpload: UploadView
  getDuplicateSetting: { mode: DuplicateMode }
  setDuplicateSetting: { mode: DuplicateMode }
}
