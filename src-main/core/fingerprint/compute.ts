/**
 * The fingerprint of one document, computed INSIDE the intake worker (intake/intake-worker.ts) only:
 * it parses untrusted bytes (PDF.js through unpdf, pdf-lib, libvips through sharp). Bytes in, a
 * fingerprint or a reason out; nothing here touches a path.
 */
import { createRequire } from 'node:module'
import { inflateSync } from 'node:zlib'
import type * as PdfLib from 'pdf-lib'
import type * as SharpTypes from 'sharp'
import type { Fingerprint, FingerprintResult } from './types'
import { MIN_TEXT_CHARS, textHash } from './normalise'
import { quickPdfRead } from './pdf-text'
import { WORK_EDGE, hashGray } from './picture'

const require = createRequire(import.meta.url)

/** Pages read for a PDF's text, and characters kept: a receipt says what it is on its first pages. */
export const MAX_PAGES = 20
export const MAX_TEXT = 200_000

export interface ComputeInput {
  bytes: Uint8Array
  kind: 'pdf' | 'image'
  maxPixels: number
  /**
   * False: the engine has not loaded sharp on its own thread yet (fingerprinter.ts pins it first,
   * as sharp asks for worker threads); a PDF that needs its page image is then handed back.
   */
  pictures?: boolean
}

/** A scanned PDF met while pictures were off: to be asked again with pictures on. */
export interface NeedsPictures {
  needsPictures: true
}

function none(reason: string): FingerprintResult {
  return { fingerprint: null, reason }
}

/** A picture's hash, decoded small and grey (libvips shrinks a JPEG while it decodes it). */
export async function pictureOf(
  input: Uint8Array | { raw: Uint8Array; width: number; height: number; channels: 1 | 3 },
  maxPixels: number,
): Promise<Fingerprint> {
  const sharp = require('sharp') as typeof SharpTypes.default
  const img =
    input instanceof Uint8Array
      ? sharp(input, { limitInputPixels: maxPixels, failOn: 'error' }).rotate()
      : sharp(input.raw, {
          raw: { width: input.width, height: input.height, channels: input.channels },
          limitInputPixels: maxPixels,
        })
  const { data, info } = await img
    .grayscale()
    .resize(WORK_EDGE, WORK_EDGE, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true })
  const gray =
    info.channels === 1
      ? new Uint8Array(data.buffer, data.byteOffset, data.length)
      : firstChannel(data, info.channels)
  return { kind: 'picture', ...hashGray({ data: gray, width: info.width, height: info.height }) }
}

function firstChannel(data: Buffer, channels: number): Uint8Array {
  const out = new Uint8Array(data.length / channels)
  for (let i = 0; i < out.length; i++) out[i] = data[i * channels]!
  return out
}

/** The text of a PDF's first pages by PDF.js, or null when it cannot be read (damaged, encrypted). */
async function pdfText(bytes: Uint8Array): Promise<string | null> {
  const unpdf = await import('unpdf')
  // A copy: PDF.js transfers (detaches) the buffer it is given.
  const doc = await unpdf
    .getDocumentProxy(new Uint8Array(bytes), { verbosity: 0, isEvalSupported: false })
    .catch(() => null)
  if (!doc) return null
  const parts: string[] = []
  try {
    let chars = 0
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES) && chars < MAX_TEXT; n++) {
      const { items } = await (await doc.getPage(n)).getTextContent()
      const strs = items.flatMap((item) => ('str' in item ? [item.str] : []))
      chars += strs.reduce((sum, x) => sum + x.length + 1, 0)
      parts.push(strs.join(' '), '\n')
    }
    return parts.join(' ').slice(0, MAX_TEXT)
  } catch {
    return null
  } finally {
    await doc.destroy().catch(() => undefined)
  }
}

/**
 * The largest image drawn on a scanned PDF's first page, as bytes sharp reads: a JPEG
 * (/DCTDecode, kept as it is in the file) or 8-bit grey or RGB pixels (/FlateDecode). Null: none.
 */
async function pdfPageImage(
  bytes: Uint8Array,
  maxPixels: number,
): Promise<Parameters<typeof pictureOf>[0] | null> {
  const lib = await import('pdf-lib')
  const doc = await lib.PDFDocument.load(bytes, {
    ignoreEncryption: false,
    updateMetadata: false,
    throwOnInvalidObject: false,
  })
  const page = doc.getPages()[0]
  if (!page) return null
  const xobjects = page.node.Resources()?.lookupMaybe(lib.PDFName.of('XObject'), lib.PDFDict)
  if (!xobjects) return null
  let best: { stream: PdfLib.PDFRawStream; w: number; h: number } | null = null
  for (const [, ref] of xobjects.entries()) {
    const stream = doc.context.lookup(ref)
    if (!(stream instanceof lib.PDFRawStream)) continue
    const d = stream.dict
    if (d.get(lib.PDFName.of('Subtype'))?.toString() !== '/Image') continue
    const w = Number(d.lookupMaybe(lib.PDFName.of('Width'), lib.PDFNumber)?.asNumber() ?? 0)
    const h = Number(d.lookupMaybe(lib.PDFName.of('Height'), lib.PDFNumber)?.asNumber() ?? 0)
    if (w > 0 && h > 0 && w * h <= maxPixels && (!best || w * h > best.w * best.h)) best = { stream, w, h }
  }
  if (!best) return null
  const d = best.stream.dict
  const filter = d.get(lib.PDFName.of('Filter'))?.toString() ?? ''
  if (filter === '/DCTDecode' || filter === '[ /DCTDecode ]') return best.stream.contents
  const bpc = d.lookupMaybe(lib.PDFName.of('BitsPerComponent'), lib.PDFNumber)?.asNumber()
  const cs = d.get(lib.PDFName.of('ColorSpace'))?.toString()
  const channels = cs === '/DeviceGray' ? 1 : cs === '/DeviceRGB' ? 3 : 0
  if ((filter !== '/FlateDecode' && filter !== '') || bpc !== 8 || channels === 0) return null
  const expected = best.w * best.h * channels
  const raw = filter === '' ? best.stream.contents : inflateBounded(best.stream.contents, expected)
  if (!raw || raw.length < expected) return null
  return { raw: raw.subarray(0, expected), width: best.w, height: best.h, channels: channels as 1 | 3 }
}

/** Inflates at most `limit` bytes (a stream said to be an image may be a bomb). */
function inflateBounded(data: Uint8Array, limit: number): Uint8Array | null {
  try {
    return inflateSync(data, { maxOutputLength: limit + 1 })
  } catch {
    return null
  }
}

/** The fingerprint of a document (see index.ts for what each kind means), pictures included. */
export async function computeFingerprint(input: Omit<ComputeInput, 'pictures'>): Promise<FingerprintResult> {
  const r = await fingerprintOrAsk({ ...input, pictures: true })
  return 'needsPictures' in r ? none('the page image was not read') : r
}

/** The worker's task: the fingerprint, or `needsPictures` when a scan needs sharp and it is not pinned yet. */
export async function fingerprintOrAsk(input: ComputeInput): Promise<FingerprintResult | NeedsPictures> {
  if (input.kind === 'image') {
    try {
      return { fingerprint: await pictureOf(input.bytes, input.maxPixels) }
    } catch (e) {
      return none(`the picture could not be read (${(e as Error).message})`)
    }
  }
  // The quick reader first (no PDF.js: a receipt costs a fraction of a millisecond); PDF.js only
  // when it cannot tell (another filter, a damaged file). Their texts differ in form, so a document
  // read one way never matches one read the other: two downloads of one producer's document are
  // read the same way; if not, they are both sent (never held wrongly).
  const quick = quickPdfRead(input.bytes)
  if (quick?.streams === 0) return none('the PDF has no content stream: nothing on it Bookdrop reads')
  const text = quick === null ? await pdfText(input.bytes) : quick.text
  if (text === null) return none('the PDF could not be read (damaged or encrypted)')
  const t = textHash(text)
  if (t) return { fingerprint: { kind: 'text', ...t } }
  // A scan: pages that are pictures. The hash of its page image, when one can be had.
  if (input.pictures === false) return { needsPictures: true }
  let image: Parameters<typeof pictureOf>[0] | null
  try {
    image = await pdfPageImage(input.bytes, input.maxPixels)
  } catch (e) {
    return none(`the PDF's page image could not be read (${(e as Error).message})`)
  }
  if (!image)
    return none(`the PDF has under ${MIN_TEXT_CHARS} characters of text and no page image Bookdrop reads`)
  try {
    return { fingerprint: await pictureOf(image, input.maxPixels) }
  } catch (e) {
    return none(`the PDF's page image could not be read (${(e as Error).message})`)
  }
}
