/**
 * The documents of the records shown on Review, asked of main by upload id (review.document) and
 * kept for the last few records, so going back and forth with the keyboard asks nothing twice, and
 * the next record's document can be asked for before it is selected.
 */
import type { ReviewDocument } from '../../../contract/calls/document'
import { bookdrop } from '../../lib/bridge'
import { settle } from '../../lib/result'
import type { Result } from '../../lib/types'

const KEEP = 8
const cache = new Map<number, Promise<Result<ReviewDocument>>>()

/** The document of an upload (a failure is not kept: asking again tries again). */
export function loadDocument(uploadId: number): Promise<Result<ReviewDocument>> {
  let p = cache.get(uploadId)
  if (p) {
    // Most recently used last.
    cache.delete(uploadId)
    cache.set(uploadId, p)
    return p
  }
  p = settle(bookdrop['review.document']({ uploadId }))
  cache.set(uploadId, p)
  void p.then((r) => {
    if (!r.ok && cache.get(uploadId) === p) cache.delete(uploadId)
  })
  while (cache.size > KEEP) cache.delete(cache.keys().next().value as number)
  return p
}

/** Bytes of Base64 (the browser's own decoder where it has one). */
export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array<ArrayBuffer> }).fromBase64
  if (typeof native === 'function') return native(base64)
  const bin = atob(base64)
  const out = new Uint8Array(bin.length)
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i)
  return out
}
