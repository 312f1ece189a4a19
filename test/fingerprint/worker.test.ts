/**
 * The fingerprint worker's limits (issue 33): a document that passes a limit or cannot be read
 * gives no fingerprint and a reason, never an error, and the next document is fingerprinted by a
 * fresh worker. Through the real worker (workers/entries.json "intake").
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FINGERPRINT_LIMITS, Fingerprinter } from '../../src-main/core/fingerprint'
import { computeFingerprint } from '../../src-main/core/fingerprint/compute'
import { receipt, receiptPdf, receiptPhoto, scannedPdf } from './receipts'

let dir: string
const open: Fingerprinter[] = []
const fingerprinter = (limits = FINGERPRINT_LIMITS) => {
  const f = new Fingerprinter(limits)
  open.push(f)
  return f
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bookdrop-fpw-'))
})
afterAll(async () => {
  await Promise.all(open.map((f) => f.close()))
  await rm(dir, { recursive: true, force: true })
})

describe('the fingerprint worker', () => {
  it('gives a reason, not an error, for a damaged PDF, a PDF without text or image, and a file that is not a picture', async () => {
    const f = fingerprinter()
    const damaged = await f.fingerprintBytes(
      Buffer.from('%PDF-1.7\n1 0 obj\n<< /Length 3\nstream\nabc\nendstream\n%%EOF\n'),
      'pdf',
    )
    expect(damaged).toEqual({ fingerprint: null, reason: expect.stringMatching(/could not be read/) })
    const empty = await f.fingerprintBytes(Buffer.from('%PDF-1.7\nnot a PDF at all\n%%EOF\n'), 'pdf')
    expect(empty).toEqual({ fingerprint: null, reason: expect.stringMatching(/no content stream/) })
    const { PDFDocument } = await import('pdf-lib')
    const blank = await PDFDocument.create()
    blank.addPage()
    expect((await f.fingerprintBytes(await blank.save(), 'pdf')).reason).toMatch(/no page image/)
    expect((await f.fingerprintBytes(Buffer.from('hello'), 'image')).reason).toMatch(
      /picture could not be read/,
    )
    // The worker is still there for the next one.
    expect((await f.fingerprintBytes(await receiptPdf(receipt(0, 1)), 'pdf')).fingerprint?.kind).toBe('text')
  }, 60_000)

  it('ends a task past its time limit or a picture past its pixel limit, and fingerprints the next file', async () => {
    const photo = await receiptPhoto(receipt(1, 1), { width: 4000, height: 3000 })
    const slow = fingerprinter({ ...FINGERPRINT_LIMITS, timeoutMs: 5 })
    const timedOut = await slow.fingerprintBytes(photo, 'image')
    expect(timedOut.fingerprint).toBeNull()
    expect(timedOut.reason).toMatch(/time|took/i)

    const small = fingerprinter({ ...FINGERPRINT_LIMITS, maxPixels: 1_000_000 })
    const big = await small.fingerprintBytes(photo, 'image')
    expect(big.fingerprint).toBeNull()
    expect(big.reason).toMatch(/pixel/i)
    const fine = await sharp(photo).resize(800).jpeg().toBuffer()
    expect((await small.fingerprintBytes(fine, 'image')).fingerprint?.kind).toBe('picture')

    const tiny = fingerprinter({ ...FINGERPRINT_LIMITS, maxInputBytes: 1000 })
    expect((await tiny.fingerprintBytes(photo, 'image')).reason).toMatch(/over the size/)
  }, 60_000)

  it('hashes a scan met before any picture (sharp loaded then, the task asked again) as it hashes it later', async () => {
    const scan = await scannedPdf(await receiptPhoto(receipt(2, 5), { width: 1600, height: 1200 }))
    const expected = await computeFingerprint({ bytes: scan, kind: 'pdf', maxPixels: FINGERPRINT_LIMITS.maxPixels })
    expect(expected.fingerprint?.kind).toBe('picture')
    const fresh = fingerprinter()
    expect(await fresh.fingerprintBytes(scan, 'pdf')).toEqual(expected)
    expect(await fresh.fingerprintBytes(new Uint8Array(scan), 'pdf')).toEqual(expected)
  }, 60_000)

  it('reads a file by its path, and says so when it cannot', async () => {
    const f = fingerprinter()
    const path = join(dir, 'r.pdf')
    await writeFile(path, await receiptPdf(receipt(3, 3)))
    expect((await f.fingerprintFile(path, 'pdf')).fingerprint?.kind).toBe('text')
    expect((await f.fingerprintFile(join(dir, 'missing.pdf'), 'pdf')).reason).toMatch(/ENOENT/)
  }, 30_000)
})
