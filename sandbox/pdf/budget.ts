/**
 * The decode budget of one document (issue 23): what its streams may decode to in all, and the
 * refusal past it (pdf-streams.ts explains why it is measured before PDF.js sees the file).
 */
const MB = 1024 * 1024

/** Bytes all the streams of one document (a PDF, or an e-mail's attached PDFs) may decode to. */
export const MAX_DECODED_BYTES = 128 * MB

/** A document refused before it was parsed: `message` says why, for people. */
export class DocumentRefused extends Error {
  override readonly name = 'DocumentRefused'
}

/** What is left to decode, shared by the PDFs of one document. */
export interface DecodeBudget {
  readonly total: number
  left: number
}

export function decodeBudget(total = MAX_DECODED_BYTES): DecodeBudget {
  return { total, left: total }
}

export function overBudget(budget: DecodeBudget): DocumentRefused {
  return new DocumentRefused(
    `its compressed parts expand to more than ${Math.round(budget.total / MB)} MB, more than Bookdrop reads from one document`,
  )
}

export function spend(budget: DecodeBudget, bytes: number): void {
  budget.left -= bytes
  if (budget.left < 0) throw overBudget(budget)
}
