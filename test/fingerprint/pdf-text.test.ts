/**
 * The quick PDF text reader of the fingerprint worker (fingerprint/pdf-text.ts): what a page shows,
 * the same for two downloads of one document, and "cannot tell" (null) where PDF.js must read it.
 */
import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { quickPdfText, shownText } from '../../src-main/core/fingerprint/pdf-text'
import { receipt, receiptPdf } from './receipts'

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
})
