/**
 * The document a record came from, for the Review screen's preview (issue 32): main reads the row's
 * local copy (never a path the page sends: the page names an upload by its id) and answers with its
 * bytes and what they are; the page never learns a path.
 */
import { z } from 'zod'

/** Largest document the preview is sent (bytes of the file; Base64 makes it a third larger on the wire). */
export const MAX_PREVIEW_BYTES = 25 * 1024 * 1024
/** Largest mail text shown (characters). */
export const MAX_PREVIEW_TEXT = 200_000

export const DOCUMENT_CALLS = {
  'review.document': z.object({ uploadId: z.number().int().positive() }).strict(),
} as const

/** A document for the preview: a PDF's or a photo's bytes (Base64), or a mail's text. */
export type ReviewDocument =
  | { kind: 'pdf'; name: string; mime: 'application/pdf'; base64: string; size: number }
  | { kind: 'image'; name: string; mime: string; base64: string; size: number }
  | { kind: 'text'; name: string; text: string; size: number }

export interface DocumentCalls {
  'review.document': ReviewDocument
}
