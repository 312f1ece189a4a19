/**
 * What a PDF's text fingerprint is made of: its pages' text, normalised so that what varies
 * between two downloads of one document does not count, and nothing else is dropped.
 *
 * - Unicode NFKC (ligatures "ﬁ" → "fi", full-width digits, non-breaking spaces become spaces);
 * - lower case (a tool that prints "TOTAL" or "Total" in another version of the same template);
 * - every run of white space (spaces, tabs, line breaks, page breaks) becomes one space, and the
 *   ends are trimmed: how PDF.js splits runs and lines does not count;
 * - nothing else: no page furniture is dropped (a footer that prints the download time would make
 *   two downloads differ, so they are sent both: never held wrongly). Metadata (/CreationDate,
 *   /ModDate, /ID, /Producer) is not page text at all.
 *
 * A text shorter than MIN_TEXT_CHARS (non-space characters) is not a text fingerprint: a scan with a
 * stray OCR word, or a page number only, would match too much.
 */
import { createHash } from 'node:crypto'

export const MIN_TEXT_CHARS = 24

export function normaliseText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim()
}

/** The sha256 (hex) of a normalised text, or null when it is too short to tell receipts apart. */
export function textHash(text: string): { hash: string; chars: number } | null {
  const norm = normaliseText(text)
  let letters = 0
  for (const ch of norm) if (ch !== ' ') letters++
  if (letters < MIN_TEXT_CHARS) return null
  return { hash: createHash('sha256').update(norm, 'utf8').digest('hex'), chars: norm.length }
}
