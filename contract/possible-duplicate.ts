/**
 * One notion of "possible duplicate", shared by three features so that they agree on what it is and
 * on how it is said (design.md §1: one shared piece per idea):
 *
 * - issue 33 (near-duplicates held before they cost a credit): a new file whose content fingerprint
 *   matches one already sent (`same_text`, `same_picture`) or whose bytes do (`same_bytes`);
 * - issue 32 (review flags): a record with the same vendor, date and total as another record
 *   Bookdrop created (`same_record`), e.g. a photo and the PDF of one purchase, which no fingerprint
 *   can match;
 * - issue 34 (languages): the sentence is a message of the catalogue (`MESSAGE_ID`), with the
 *   parameters below; `possibleDuplicateText` is its English wording, for headless output and logs.
 *
 * The wording starts "Possible duplicate of <file name>" everywhere (row, review flag, notification,
 * headless line). Keep any new caller on this module.
 */

/** Why two receipts look like one. */
export type DuplicateBasis = 'same_text' | 'same_picture' | 'same_bytes' | 'same_record'

export const DUPLICATE_BASES: readonly DuplicateBasis[] = ['same_text', 'same_picture', 'same_bytes', 'same_record']

/** The other receipt a row or record looks like: enough to name it and to open it in one click. */
export interface PossibleDuplicate {
  basis: DuplicateBasis
  /** The upload row of the other receipt (History and Review open it by this id). */
  uploadId: number
  /** Its file name as the person knows it. */
  name: string
  /** When it was sent (epoch ms), null when it is still on its way. */
  sentAt: number | null
  /** The record the other receipt became, when there is one. */
  recordUuid: string | null
}

/** Catalogue id of the sentence (issue 34); parameters: name, sentAt (a date, optional), basis. */
export const MESSAGE_ID = 'duplicate.possible'

/** The basis in plain words (English), as shown in brackets after the sentence. */
export const BASIS_WORDS: Readonly<Record<DuplicateBasis, string>> = {
  same_text: 'same text',
  same_picture: 'same picture',
  same_bytes: 'same file',
  same_record: 'same vendor, date and total',
}

/**
 * The English sentence: "Possible duplicate of <name>, sent on <date> (same text)". `formatDate`
 * words the date in the reader's locale; without a sent date the middle part is left out.
 */
export function possibleDuplicateText(
  d: Pick<PossibleDuplicate, 'basis' | 'name' | 'sentAt'>,
  formatDate: (epochMs: number) => string = (ms) => new Date(ms).toISOString().slice(0, 10),
): string {
  const sent = d.sentAt != null ? `, sent on ${formatDate(d.sentAt)}` : ''
  return `Possible duplicate of ${d.name}${sent} (${BASIS_WORDS[d.basis]})`
}
