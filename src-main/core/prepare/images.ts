/**
 * Photo preparation, the part that reads the image: it runs only inside the images worker
 * (./images-worker.ts, workers/entries.json "images"), with the pool's time, heap and input limits
 * (./preparer.ts). Nothing here touches a path: bytes in, bytes out.
 *
 * - sharp (libvips, prebuilt N-API binaries) reads JPEG, PNG, WebP, TIFF and AVIF, applies the EXIF
 *   orientation (`rotate()`), scales, and writes a JPEG without any metadata (EXIF, GPS, XMP, IPTC:
 *   sharp keeps none unless asked). Its `limitInputPixels` refuses a decompression bomb before it
 *   is decoded.
 * - HEIC/HEIF: sharp's prebuilt libvips has no HEVC decoder, so heic-decode (libheif compiled to
 *   WebAssembly) decodes it to RGBA pixels, after its size was checked against the same pixel
 *   limit; sharp scales and encodes those. libheif applies the HEIF's own rotation and mirror.
 * - Several pages → one PDF: pdf-lib embeds the prepared JPEGs (and copies the pages of PDFs).
 */
import { createRequire } from 'node:module'
import type * as PdfLib from 'pdf-lib'
import type { PDFDocument as PdfDocument } from 'pdf-lib'
import type * as SharpTypes from 'sharp'
import { type SniffedKind, sniffKind } from './sniff'

type SharpFactory = typeof SharpTypes.default

const require = createRequire(import.meta.url)

/** Kinds this module reads and writes again as JPEG. GIF (animation) and BMP (sharp cannot read it) stay as they are. */
const PREPARED_KINDS: ReadonlySet<SniffedKind> = new Set(['jpeg', 'png', 'webp', 'heic', 'avif', 'tiff'])

export interface PrepareInput {
  bytes: Uint8Array
  /** Longest edge of the result, px (smaller images are not enlarged). */
  maxEdge: number
  /** JPEG quality of the result, 1–100. */
  quality: number
  /** Largest image read, in pixels (width × height): a larger one is refused before decoding. */
  maxPixels: number
  /** An image within maxEdge, at most this many bytes and without metadata is left as it is. */
  keepBelowBytes: number
  /** Always write a JPEG (a page of "one document"), even for a small image. */
  force?: boolean
}

export type PrepareOutput =
  | { kind: 'as_is'; sniffed: SniffedKind }
  | { kind: 'prepared'; sniffed: SniffedKind; bytes: Uint8Array; width: number; height: number }

/** A photo that cannot be prepared: the message says why, for people. */
export class PrepareError extends Error {
  override readonly name = 'PrepareError'
}

let sharpModule: SharpFactory | null = null
function sharp(): SharpFactory {
  if (!sharpModule) {
    sharpModule = require('sharp') as SharpFactory
    // No operation cache: each photo is read once, and the worker's memory stays what one photo needs.
    sharpModule.cache(false)
  }
  return sharpModule
}

/** A library's error as a short clause: its first line, at most 120 characters. */
function why(e: unknown): string {
  const line = (e instanceof Error ? e.message : String(e)).split('\n')[0]!.trim()
  return line.length > 120 ? `${line.slice(0, 117)}…` : line
}

function megapixels(px: number): string {
  return `${Math.round(px / 1e5) / 10} megapixels`
}

function checkPixels(width: number, height: number, maxPixels: number): void {
  if (!(width > 0 && height > 0)) throw new PrepareError('the image has no size')
  if (width * height > maxPixels)
    throw new PrepareError(
      `the image is ${width} × ${height} pixels (${megapixels(width * height)}), over the ${megapixels(maxPixels)} Bookdrop reads`,
    )
}

async function decodeHeic(bytes: Uint8Array, maxPixels: number): Promise<{ data: Uint8Array; width: number; height: number }> {
  const decode = require('heic-decode') as {
    all(o: { buffer: Uint8Array }): Promise<
      Array<{ width: number; height: number; decode(): Promise<{ width: number; height: number; data: Uint8ClampedArray }> }> & {
        dispose(): void
      }
    >
  }
  let images
  try {
    images = await decode.all({ buffer: bytes })
  } catch (e) {
    throw new PrepareError(`the HEIC photo could not be read (${why(e)})`)
  }
  try {
    const first = images[0]
    if (!first) throw new PrepareError('the HEIC file holds no image')
    // Checked before the pixels exist: libheif has only read the headers so far.
    checkPixels(first.width, first.height, maxPixels)
    let img
    try {
      img = await first.decode()
    } catch (e) {
      throw new PrepareError(`the HEIC photo could not be read (${why(e)})`)
    }
    return { data: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.byteLength), width: img.width, height: img.height }
  } finally {
    images.dispose()
  }
}

/**
 * Prepares one photo: HEIC/HEIF to JPEG, the EXIF orientation applied, the long edge scaled down to
 * `maxEdge`, written again as a JPEG at `quality` with no metadata (so no location). A PDF, a GIF,
 * a BMP or bytes that are no image come back `as_is`, and so does a small image without metadata.
 */
export async function prepareImage(input: PrepareInput): Promise<PrepareOutput> {
  const bytes = input.bytes
  const sniffed = sniffKind(bytes)
  if (!PREPARED_KINDS.has(sniffed)) return { kind: 'as_is', sniffed }
  const s = sharp()
  let pipeline: SharpTypes.Sharp
  /** Transparency (a PNG, a WebP) goes on white: a JPEG has none. */
  let alpha = true
  if (sniffed === 'heic') {
    const img = await decodeHeic(bytes, input.maxPixels)
    pipeline = s(img.data, { raw: { width: img.width, height: img.height, channels: 4 }, limitInputPixels: input.maxPixels })
  } else {
    let meta: SharpTypes.Metadata
    try {
      // The header only: its size is checked against the pixel limit before anything is decoded.
      meta = await s(bytes, { limitInputPixels: false }).metadata()
    } catch (e) {
      throw new PrepareError(`the ${sniffed.toUpperCase()} image could not be read (${why(e)})`)
    }
    checkPixels(meta.width ?? 0, meta.height ?? 0, input.maxPixels)
    const longEdge = Math.max(meta.width ?? 0, meta.height ?? 0)
    const plain = !meta.exif && !meta.xmp && !meta.iptc && (meta.orientation ?? 1) === 1
    const small = longEdge <= input.maxEdge && bytes.length <= input.keepBelowBytes
    if (!input.force && plain && small && (sniffed === 'jpeg' || sniffed === 'png' || sniffed === 'webp'))
      return { kind: 'as_is', sniffed }
    // The first page or frame only (a multi-page TIFF is a scan: its first page is the receipt).
    pipeline = s(bytes, { limitInputPixels: input.maxPixels }).rotate()
    alpha = meta.hasAlpha ?? true
  }
  if (alpha) pipeline = pipeline.flatten({ background: '#ffffff' })
  try {
    const { data, info } = await pipeline
      .resize(input.maxEdge, input.maxEdge, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: input.quality, chromaSubsampling: '4:2:0' })
      .toBuffer({ resolveWithObject: true })
    return { kind: 'prepared', sniffed, bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height }
  } catch (e) {
    if (e instanceof PrepareError) throw e
    throw new PrepareError(`the ${sniffed === 'heic' ? 'HEIC' : sniffed.toUpperCase()} image could not be read (${why(e)})`)
  }
}

/** A page of one document: a prepared JPEG, or a PDF whose pages are copied. */
export interface DocumentPage {
  bytes: Uint8Array
  kind: 'jpeg' | 'pdf'
}

/** Points of an A4 page's long edge: each photo becomes a page of that height (or width). */
const PAGE_LONG_EDGE = 842

/**
 * Several pages as one PDF, in order (pdf-lib). The file is the same for the same pages: no
 * creation date or producer is written, so sending the same pages again is a duplicate.
 */
export async function assemblePdf(pages: DocumentPage[]): Promise<Uint8Array> {
  const { PDFDocument } = require('pdf-lib') as typeof PdfLib
  const doc: PdfDocument = await PDFDocument.create({ updateMetadata: false })
  for (const [i, p] of pages.entries()) {
    if (p.kind === 'pdf') {
      let src: PdfDocument
      try {
        src = await PDFDocument.load(p.bytes, { updateMetadata: false })
      } catch (e) {
        throw new PrepareError(`page ${i + 1} is a PDF that could not be read (${why(e)})`)
      }
      const copied = await doc.copyPages(src, src.getPageIndices())
      for (const c of copied) doc.addPage(c)
      continue
    }
    const img = await doc.embedJpg(p.bytes)
    const scale = PAGE_LONG_EDGE / Math.max(img.width, img.height)
    const w = Math.round(img.width * scale)
    const h = Math.round(img.height * scale)
    const page = doc.addPage([w, h])
    page.drawImage(img, { x: 0, y: 0, width: w, height: h })
  }
  return doc.save()
}

/** What the images worker offers (TaskPool<ImageTasks>). */
export type ImageTasks = {
  prepareImage(input: PrepareInput): Promise<PrepareOutput>
  assemblePdf(input: { pages: DocumentPage[] }): Promise<Uint8Array>
}
