/**
 * Which file kinds (by extension) each target accepts by default. A watched folder may narrow or
 * widen the list; the bank statement upload never accepts more than the spec's list (Part 2.4).
 */
import { type AiTarget, BANK_UPLOAD_KINDS, fileKind } from '../../schemas/routes'

// prettier-ignore
const DOCUMENTS = ['pdf', 'jpg', 'jpeg', 'png', 'webp', 'gif', 'bmp', 'tif', 'tiff', 'heic', 'heif', 'txt', 'csv', 'xlsx', 'xls', 'eml'] as const

export const DEFAULT_KINDS: Record<AiTarget, readonly string[]> = {
  expenses: DOCUMENTS,
  bills: DOCUMENTS,
  invoices: DOCUMENTS,
  income: DOCUMENTS,
  journals: DOCUMENTS,
  contacts: ['csv', 'xlsx', 'xls', 'txt', 'vcf', 'pdf', 'jpg', 'jpeg', 'png'],
  accounts: ['csv', 'xlsx', 'xls', 'txt', 'pdf'],
  'bank-transactions': BANK_UPLOAD_KINDS,
}

/** Every document kind Bookdrop sends (file extensions): a folder's accepted kinds come from this list. */
export const PRODUCT_KINDS: readonly string[] = [...new Set(Object.values(DEFAULT_KINDS).flat())].sort()

/** The kinds a folder may use for a target: the bank upload is capped at the spec's list. */
export function allowedKinds(target: AiTarget, requested?: readonly string[]): string[] {
  const wanted = (requested?.length ? requested : DEFAULT_KINDS[target]).map((k) =>
    k.toLowerCase().replace(/^\./, ''),
  )
  if (target !== 'bank-transactions') return [...new Set(wanted)]
  return [...new Set(wanted.filter((k) => (BANK_UPLOAD_KINDS as readonly string[]).includes(k)))]
}

export function isAccepted(name: string, kinds: readonly string[]): boolean {
  return kinds.includes(fileKind(name))
}
