/**
 * What a PDF's streams decode to, measured before PDF.js sees the file (issue 23). The worker's
 * heap limit (`resourceLimits`) bounds JavaScript objects only: PDF.js inflates a stream into an
 * ArrayBuffer outside that heap, so a 1 MB PDF whose content stream inflates to 1 GB would take a
 * gigabyte of memory before any limit noticed. Here every stream is decoded as PDF.js would decode
 * it, counting the bytes and keeping none of them (Flate and Brotli stream through zlib; LZW and
 * RunLength are counted without building their output), against one budget for the document; past
 * it the document is refused with a reason a person can read, after reading no more than the
 * budget (a 1 GB bomb costs the time of inflating 128 MB, and a few hundred KB of memory).
 *
 * The count is an upper bound of what PDF.js decodes: each stream is read to the farther of its
 * /Length and its `endstream`, every filter of a chain is counted, and images count too (PDF.js
 * does not decode them to read text, but a stream said to be an image can still be used as a page's
 * content). An encrypted PDF is not handed to PDF.js at all: its streams cannot be measured.
 */
import { type DecodeBudget, DocumentRefused } from './pdf/budget'
import { countFilters } from './pdf/decoders'
import { type PdfValue, isDelimiter, simpleObjects, streamDict, unescapeName } from './pdf/objects'

export { type DecodeBudget, DocumentRefused, MAX_DECODED_BYTES, decodeBudget } from './pdf/budget'

/** Streams in one PDF at most (a receipt has tens; each costs a look at its dictionary). */
export const MAX_STREAMS = 20_000

export interface PdfStreamReport {
  /** An /Encrypt entry: the streams are ciphered, so they cannot be measured here. */
  encrypted: boolean
  streams: number
}

/**
 * Decodes every stream of `pdf` as PDF.js would (counting, keeping nothing) against `budget`.
 * Throws DocumentRefused past the budget or past MAX_STREAMS.
 */
export async function measurePdfStreams(pdf: Buffer, budget: DecodeBudget): Promise<PdfStreamReport> {
  const text = pdf.toString('latin1')
  // Names may spell a letter as #xx: look for /Encrypt in any spelling.
  const encrypted =
    text.includes('/Encrypt') ||
    [...text.matchAll(/\/[^\s/<>[\]()%{}]*#[^\s/<>[\]()%{}]*/g)].some(
      (m) => unescapeName(m[0]) === '/Encrypt',
    )
  if (encrypted) return { encrypted, streams: 0 }
  let objects: ReturnType<typeof simpleObjects> | null = null
  const refs = () => (objects ??= simpleObjects(text))
  const keyword = /stream/g
  let streams = 0
  let after = 0
  for (let m = keyword.exec(text); m; m = keyword.exec(text)) {
    const at = m.index
    keyword.lastIndex = at + 6
    // A token `stream` (not endstream, not a longer word), outside the stream just measured.
    if (
      at < after ||
      (at > 0 && !isDelimiter(text.charCodeAt(at - 1))) ||
      !isDelimiter(text.charCodeAt(at + 6))
    )
      continue
    if (++streams > MAX_STREAMS)
      throw new DocumentRefused(`it has more than ${MAX_STREAMS} parts, more than Bookdrop reads`)
    // The data starts after the end of the keyword's line (PDF.js skips to the next line).
    let start = at + 6
    while (start < text.length && text[start] !== '\n' && text[start] !== '\r') start++
    if (text[start] === '\r' && text[start + 1] === '\n') start += 2
    else start++
    const dict = streamDict(text, at)
    // Where PDF.js may take the data to end: its /Length, or the first endstream; the farther one.
    const endKeyword = text.indexOf('endstream', start)
    let end = endKeyword < 0 ? text.length : endKeyword
    const lengthValue = dict?.get('Length')
    const length =
      lengthValue?.t === 'num'
        ? lengthValue.v
        : lengthValue?.t === 'ref'
          ? refs().ints.get(lengthValue.n)
          : undefined
    if (length !== undefined && Number.isInteger(length) && length > 0)
      end = Math.max(end, Math.min(text.length, start + length))
    after = end
    const data = pdf.subarray(start, end)
    let filters: string[]
    let earlyChange = 1
    if (dict) {
      const spec = dict.get('F') ?? dict.get('Filter')
      const one = (v: PdfValue | undefined): string =>
        v?.t === 'name' ? v.v : v?.t === 'ref' ? (refs().names.get(v.n) ?? '?') : '?'
      filters = spec === undefined ? [] : spec.t === 'array' ? spec.v.map(one) : [one(spec)]
      const parms = dict.get('DP') ?? dict.get('DecodeParms')
      const ec = parms?.t === 'dict' ? parms.v.get('EarlyChange') : undefined
      if (ec?.t === 'num') earlyChange = ec.v
      // A filter named in a way this scan cannot follow: measure it as Flate (what a bomb would be).
      filters = filters.map((f) => (f === '?' ? 'FlateDecode' : f))
    } else {
      // A dictionary this scan cannot read: if the data is a zlib stream, count it as one.
      filters = ['FlateDecode']
    }
    await countFilters(data, filters, earlyChange, budget)
  }
  return { encrypted: false, streams }
}
