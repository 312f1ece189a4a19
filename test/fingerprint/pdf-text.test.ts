/**
 * The quick PDF text reader of the fingerprint worker (fingerprint/pdf-text.ts): what a page shows,
 * the same for two downloads of one document, and "cannot tell" (null) where PDF.js must read it.
 */
import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { randomBytes } from 'node:crypto'
import { computeFingerprint } from '../../src-main/core/fingerprint/compute'
import { quickPdfRead, shownText } from '../../src-main/core/fingerprint/pdf-text'
import { receipt, receiptPdf, receiptPhoto, scannedPdf } from './receipts'

/** The text the quick reader found, or null when it cannot tell. */
const quickPdfText = (bytes: Uint8Array) => quickPdfRead(bytes)?.text ?? null

describe('the quick PDF text reader', () => {
  it('reads the strings a page shows, and the same for a second download', async () => {
    const rc = receipt(5, 2)
    const a = quickPdfText(await receiptPdf(rc, 0))
    const b = quickPdfText(await receiptPdf(rc, 9))
    expect(a).toContain(rc.shop)
    expect(a).toContain(rc.total)
    expect(a).toContain(rc.lines[0]!.label)
    expect(b).toBe(a)
  })

  it('resolves escapes, octal codes and hex strings, and keeps only text objects', () => {
    expect(shownText('q (not text) Tj BT /F1 9 Tf (Caf\\351 \\(1\\)) Tj [<54> -200 (OTAL)] TJ ET Q')).toBe(
      'Caf\u00e9 (1) T OTAL',
    )
  })

  it('says it cannot tell for an encrypted file or a filter it does not read', () => {
    const body = deflateSync(Buffer.from('BT (Hello there, this is a receipt) Tj ET'))
    const pdf = (dict: string, data: Buffer) =>
      new Uint8Array(
        Buffer.concat([
          Buffer.from(`%PDF-1.7\n4 0 obj\n<< ${dict} /Length ${data.length} >>\nstream\n`),
          data,
          Buffer.from('\nendstream\nendobj\n%%EOF\n'),
        ]),
      )
    expect(quickPdfText(pdf('/Filter /FlateDecode', body))).toBe('Hello there, this is a receipt')
    expect(quickPdfText(pdf('/Filter /LZWDecode', body))).toBeNull()
    expect(
      quickPdfText(
        new Uint8Array(Buffer.concat([Buffer.from('/Encrypt 5 0 R\n'), pdf('/Filter /FlateDecode', body)])),
      ),
    ).toBeNull()
  })

  it('reads a scan through without PDF.js: every stream read, no text, so its page image is hashed', async () => {
    const rc = receipt(6, 1)
    const scan = await scannedPdf(await receiptPhoto(rc, { width: 1600, height: 1200, quality: 80 }))
    const read = quickPdfRead(scan)
    expect(read?.text).toBe('')
    expect(read?.streams).toBeGreaterThan(0)
    const fp = await computeFingerprint({ bytes: scan, kind: 'pdf', maxPixels: 50e6 })
    expect(fp.fingerprint?.kind).toBe('picture')
  })

  it('finds nothing to read in a file with no stream at all (header, bytes, %%EOF) and says so', async () => {
    const bytes = new Uint8Array(
      Buffer.concat([Buffer.from('%PDF-1.7\n%'), randomBytes(64 * 1024), Buffer.from('\n%%EOF\n')]),
    )
    expect(quickPdfRead(bytes)).toEqual({ text: '', streams: 0 })
    const fp = await computeFingerprint({ bytes, kind: 'pdf', maxPixels: 50e6 })
    expect(fp.fingerprint).toBeNull()
    expect(fp.reason).toMatch(/no content stream/)
  })

  it('leaves to PDF.js a content stream with a predictor it does not decode, when nothing else shows text', () => {
    const body = deflateSync(Buffer.from('BT (Hello there, this is a receipt) Tj ET'))
    const pdf = new Uint8Array(
      Buffer.concat([
        Buffer.from(`%PDF-1.7\n4 0 obj\n<< /Filter /FlateDecode /DecodeParms << /Predictor 12 >> /Length ${body.length} >>\nstream\n`),
        body,
        Buffer.from('\nendstream\nendobj\n%%EOF\n'),
      ]),
    )
    expect(quickPdfRead(pdf)).toBeNull()
  })
})
