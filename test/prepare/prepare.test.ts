/**
 * Photos prepared before they cost a credit (issue 25): the preparation itself, through the real
 * images worker (workers/entries.json "images", built by test/global-setup.ts) with its limits.
 */
import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IMAGE_LIMITS, PHOTO_DEFAULTS, PhotoPreparer, type PhotoSettings, preparedName } from '../../src-main/core/prepare/preparer'
import { HEIC_SIZE, heic, look, pdfPages, phoneJpeg, pngBomb, receiptPdf, smallJpegWithGps, smallPng } from './photos'

let dir: string
let settings: PhotoSettings
let photos: PhotoPreparer

async function file(name: string, bytes: Buffer): Promise<{ path: string; size: number }> {
  const path = join(dir, name)
  await writeFile(path, bytes)
  return { path, size: bytes.length }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-prepare-'))
  settings = { ...PHOTO_DEFAULTS }
  photos = new PhotoPreparer(join(dir, 'data'), () => settings)
})
afterAll(async () => {
  await photos.close()
  await rm(dir, { recursive: true, force: true })
})

describe('photo preparation', () => {
  it('turns a HEIC into a JPEG of the same picture, kept private in the data folder', async () => {
    const f = await file('IMG_0001.HEIC', heic())
    const p = await photos.prepareRead(await readFile(f.path), 'IMG_0001.HEIC')
    expect(p.kind).toBe('prepared')
    if (p.kind !== 'prepared') return
    const out = await readFile(p.path)
    expect(await look(out)).toMatchObject({ format: 'jpeg', ...HEIC_SIZE, exif: false })
    expect(p.path.startsWith(join(dir, 'data', 'prepared'))).toBe(true)
    expect(preparedName('IMG_0001.HEIC', p.path)).toBe('IMG_0001.jpg')
    expect((await stat(p.path)).mode & 0o777).toBe(0o600)
    expect((await stat(dirname(p.path))).mode & 0o777).toBe(0o700)
    // The original is where it was, untouched.
    expect((await readFile(f.path)).equals(heic())).toBe(true)
  })

  it('applies the EXIF orientation, scales the long edge to the setting, strips the location and weighs less', async () => {
    const bytes = await phoneJpeg({ width: 1500, height: 2000 })
    expect(await look(bytes)).toMatchObject({ width: 2000, height: 1500, exif: true, gps: true, orientation: 6 })
    const f = await file('IMG_0002.jpg', bytes)
    settings = { ...PHOTO_DEFAULTS, photoMaxEdge: 1200 }
    const p = await photos.prepareRead(await readFile(f.path), 'IMG_0002.jpg')
    settings = { ...PHOTO_DEFAULTS }
    expect(p.kind).toBe('prepared')
    if (p.kind !== 'prepared') return
    // Upright (portrait), long edge 1200, no EXIF at all (so no GPS), and smaller than the original.
    expect(await look(await readFile(p.path))).toEqual({ format: 'jpeg', width: 900, height: 1200, exif: false, gps: false, orientation: undefined })
    expect(p.size).toBeLessThan(f.size)
  })

  it('is the same file for the same photo (a second copy is a duplicate, not a second send)', async () => {
    const bytes = await phoneJpeg({ width: 900, height: 1200, label: 'SAME' })
    const a = await file('a.jpg', bytes)
    const b = await file('b.jpg', bytes)
    const pa = await photos.prepareRead(await readFile(a.path), 'a.jpg')
    const pb = await photos.prepareRead(await readFile(b.path), 'a.jpg')
    if (pa.kind !== 'prepared' || pb.kind !== 'prepared') throw new Error('not prepared')
    const digest = async (p: string) => createHash('sha256').update(await readFile(p)).digest('hex')
    expect(await digest(pa.path)).toBe(await digest(pb.path))
  })

  it('leaves a small plain image and a PDF as they are, but strips a small photo that carries a location', async () => {
    const png = await file('screenshot.png', await smallPng())
    expect(await photos.prepareRead(await readFile(png.path), 'screenshot.png')).toEqual({ kind: 'as_is' })
    const pdf = await file('scan.jpg', await receiptPdf()) // a PDF named .jpg: what the bytes are decides
    expect(await photos.prepareRead(await readFile(pdf.path), 'scan.jpg')).toEqual({ kind: 'as_is' })
    expect(photos.wants('receipt.pdf')).toBe(false)
    const small = await smallJpegWithGps()
    expect((await look(small)).gps).toBe(true)
    const gps = await file('small.jpg', small)
    const p = await photos.prepareRead(await readFile(gps.path), 'small.jpg')
    expect(p.kind).toBe('prepared')
    if (p.kind === 'prepared') expect(await look(await readFile(p.path))).toMatchObject({ exif: false, gps: false })
  })

  it('is off when the setting says so', () => {
    settings = { ...PHOTO_DEFAULTS, preparePhotos: false }
    expect(photos.wants('IMG_0001.HEIC')).toBe(false)
    settings = { ...PHOTO_DEFAULTS }
    expect(photos.wants('IMG_0001.HEIC')).toBe(true)
  })

  it('says why a damaged photo or a decompression bomb cannot be prepared, quickly and without decoding it', async () => {
    const junk = await file('broken.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(2000, 7)]))
    const a = await photos.prepareRead(await readFile(junk.path), 'broken.jpg')
    expect(a).toMatchObject({ kind: 'failed', detail: expect.stringMatching(/JPEG image could not be read/) })

    const bomb = await file('bomb.png', pngBomb(40_000))
    const started = Date.now()
    const b = await photos.prepareRead(await readFile(bomb.path), 'bomb.png')
    expect(b).toEqual({ kind: 'failed', detail: 'the image is 40000 × 40000 pixels (1600 megapixels), over the 50 megapixels Bookdrop reads' })
    expect(Date.now() - started).toBeLessThan(5000)

    const heicJunk = await file('broken.heic', Buffer.concat([heic().subarray(0, 600), Buffer.alloc(500)]))
    const c = await photos.prepareRead(await readFile(heicJunk.path), 'broken.heic')
    expect(c).toMatchObject({ kind: 'failed', detail: expect.stringMatching(/HEIC/) })
  })

  it('refuses a photo past the worker limits with the limit in words', async () => {
    const tight = new PhotoPreparer(join(dir, 'data'), () => PHOTO_DEFAULTS, { ...IMAGE_LIMITS, timeoutMs: 1 })
    try {
      const f = await file('slow.heic', heic())
      expect(await tight.prepareRead(await readFile(f.path), 'slow.heic')).toMatchObject({
        kind: 'failed',
        detail: expect.stringMatching(/took longer than/),
      })
    } finally {
      await tight.close()
    }
    const small = new PhotoPreparer(join(dir, 'data'), () => PHOTO_DEFAULTS, { ...IMAGE_LIMITS, maxInputBytes: 1000 })
    try {
      const f = await file('big.jpg', await smallJpegWithGps())
      expect(await small.prepareRead(await readFile(f.path), 'big.jpg')).toMatchObject({
        kind: 'failed',
        detail: expect.stringMatching(/over the 1000 bytes Bookdrop reads as a photo/),
      })
    } finally {
      await small.close()
    }
  })

  it('makes one PDF of several pages, in order', async () => {
    const pages = []
    for (const bytes of [heic(), await phoneJpeg({ width: 600, height: 800 })]) {
      const out = await photos.prepareBytes(bytes, { force: true })
      if (out.kind !== 'prepared') throw new Error('not prepared')
      pages.push({ bytes: out.bytes, kind: 'jpeg' as const })
    }
    pages.push({ bytes: new Uint8Array(await receiptPdf()), kind: 'pdf' as const })
    const pdf = await photos.assemblePdf(pages)
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe('%PDF-')
    expect(await pdfPages(pdf)).toBe(3)
    // The same pages make the same file (so sending them again is a duplicate).
    expect(Buffer.from(await photos.assemblePdf(pages)).equals(Buffer.from(pdf))).toBe(true)
  })
})
