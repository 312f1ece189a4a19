/**
 * Photos for the preparation tests, made with sharp (the same bytes every run for the same libvips),
 * and the HEIC fixture (test/fixtures/photos/receipt.heic, made by make-heic.ts there).
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { deflateSync } from 'node:zlib'
import { crc32 } from 'node:zlib'
import { PDFDocument } from 'pdf-lib'
import sharp from 'sharp'
import { receiptSvg } from '../fixtures/photos/make-heic'

export const HEIC_PATH = join(import.meta.dirname, '..', 'fixtures', 'photos', 'receipt.heic')
export const HEIC_SIZE = { width: 1512, height: 2016 }

export function heic(): Buffer {
  return readFileSync(HEIC_PATH)
}

/** Location tags as a phone writes them (Lagos). */
const GPS = {
  GPSLatitudeRef: 'N',
  GPSLatitude: '6/1 27/1 1234/100',
  GPSLongitudeRef: 'E',
  GPSLongitude: '3/1 23/1 5678/100',
}

/**
 * A phone's photo: `width` × `height` as displayed, stored turned a quarter to the left with EXIF
 * orientation 6 ("turn right to show"), with camera and GPS tags, and sensor-like noise so it weighs
 * what a phone's photo weighs (a 12-megapixel one: about 5 MB).
 */
export async function phoneJpeg(o: { width: number; height: number; label?: string; quality?: number; noise?: number }): Promise<Buffer> {
  const { width, height } = o
  const upright = await sharp(receiptSvg(width, height, o.label ?? 'FLOUR MILLS')).removeAlpha().raw().toBuffer()
  const sigma = o.noise ?? 18
  const noise = await sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma } } }).raw().toBuffer()
  for (let i = 0; i < upright.length; i++) upright[i] = Math.max(0, Math.min(255, upright[i]! + noise[i]! - 128))
  return sharp(upright, { raw: { width, height, channels: 3 } })
    .rotate(-90)
    .jpeg({ quality: o.quality ?? 92 })
    .withExif({ IFD0: { Make: 'Bookdrop', Model: 'Test Phone' }, IFD3: GPS })
    .withMetadata({ orientation: 6 })
    .toBuffer()
}

/**
 * A 12-megapixel phone photo as a phone saves it (the bench's): 3024 × 4032 shown, stored turned
 * with EXIF orientation 6, a receipt on a textured table with mild sensor grain, JPEG quality 93 →
 * about 4 MB. `mark` changes a corner of the picture so each one is a different photo.
 */
export async function twelveMegapixelPhoto(mark = 0): Promise<Buffer> {
  const width = 3024
  const height = 4032
  const px = await sharp(receiptSvg(width, height, 'FLOUR MILLS')).removeAlpha().raw().toBuffer()
  const texture = await sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .blur(2)
    .raw()
    .toBuffer()
  const grain = await sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 6 } } })
    .raw()
    .toBuffer()
  for (let i = 0; i < px.length; i++) px[i] = Math.max(0, Math.min(255, px[i]! + texture[i]! + grain[i]! - 256))
  for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) px[(y * width + x) * 3] = (mark * 37) & 255
  return sharp(px, { raw: { width, height, channels: 3 } })
    .rotate(-90)
    .jpeg({ quality: 93 })
    .withExif({ IFD0: { Make: 'Bookdrop', Model: 'Test Phone' }, IFD3: GPS })
    .withMetadata({ orientation: 6 })
    .toBuffer()
}

/** A small, plain PNG (a screenshot of a receipt): no metadata, within the long edge. */
export async function smallPng(): Promise<Buffer> {
  return sharp(receiptSvg(600, 800, 'SCREENSHOT')).png().toBuffer()
}

/** A small JPEG that carries GPS tags: small, but its location must go. */
export async function smallJpegWithGps(): Promise<Buffer> {
  return sharp(receiptSvg(600, 800, 'SMALL')).jpeg({ quality: 85 }).withExif({ IFD0: { Make: 'Bookdrop' }, IFD3: GPS }).toBuffer()
}

/** A one-page PDF receipt with a text layer. */
export async function receiptPdf(label = 'PDF receipt'): Promise<Buffer> {
  const doc = await PDFDocument.create()
  const page = doc.addPage([300, 400])
  page.drawText(`${label}\nVendor: Flour Mills\nTotal: NGN 12500.00`, { x: 20, y: 360, size: 12 })
  return Buffer.from(await doc.save())
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(body) >>> 0)
  return Buffer.concat([len, body, crc])
}

/**
 * A PNG that says it is `side` × `side` pixels in a few hundred bytes (a decompression bomb): its
 * pixels would need gigabytes. Only its header is real.
 */
export function pngBomb(side = 40_000): Buffer {
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(side, 0)
  ihdr.writeUInt32BE(side, 4)
  ihdr[8] = 8 // bit depth
  ihdr[9] = 2 // RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

/** What sharp reads of a file: format, size, EXIF orientation, and whether EXIF with a GPS block is there. */
export async function look(bytes: Buffer | Uint8Array): Promise<{
  format: string
  width: number
  height: number
  exif: boolean
  gps: boolean
  orientation: number | undefined
}> {
  const m = await sharp(bytes).metadata()
  const e = m.exif
  // The GPS IFD pointer (tag 0x8825) in IFD0, in either byte order.
  const gps = !!e && (e.includes(Buffer.from([0x25, 0x88, 0x04, 0x00])) || e.includes(Buffer.from([0x88, 0x25, 0x00, 0x04])))
  return { format: m.format, width: m.width ?? 0, height: m.height ?? 0, exif: !!e, gps, orientation: m.orientation }
}

/** Pages of a PDF. */
export async function pdfPages(bytes: Uint8Array): Promise<number> {
  return (await PDFDocument.load(bytes)).getPageCount()
}
