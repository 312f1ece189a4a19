/**
 * inspect.ts: is a file what its name says, and does it look finished? Pure functions over two
 * bounded windows (first and last bytes), tested on real document bytes and on garbage.
 */
import { describe, expect, it } from 'vitest'
import { HEAD_BYTES, type InspectVerdict, inspect, mismatchMessage, tailBytesFor } from '../../src-main/core/intake/inspect'
import { jpegBytes, paddedPdf, pdfBytes, pngBytes } from '../engine/documents'

/** The verdict for a whole file, given as its two windows (as intake and the watcher read them). */
function check(kind: string, file: Buffer): InspectVerdict {
  const head = file.subarray(0, Math.min(file.length, HEAD_BYTES))
  const tail = file.subarray(Math.max(0, file.length - tailBytesFor(kind)))
  return inspect({ kind, size: file.length, head, tail })
}

/** A minimal ZIP (one stored entry) with its central directory and end record. */
function zipBytes(comment = ''): Buffer {
  const name = Buffer.from('[Content_Types].xml')
  const data = Buffer.from('<Types/>')
  const local = Buffer.alloc(30)
  local.writeUInt32LE(0x04034b50, 0)
  local.writeUInt16LE(name.length, 26)
  local.writeUInt32LE(data.length, 18)
  local.writeUInt32LE(data.length, 22)
  const central = Buffer.alloc(46)
  central.writeUInt32LE(0x02014b50, 0)
  central.writeUInt16LE(name.length, 28)
  const cdOffset = local.length + name.length + data.length
  const eocd = Buffer.alloc(22)
  eocd.writeUInt32LE(0x06054b50, 0)
  eocd.writeUInt16LE(1, 8)
  eocd.writeUInt16LE(1, 10)
  eocd.writeUInt32LE(central.length + name.length, 12)
  eocd.writeUInt32LE(cdOffset, 16)
  eocd.writeUInt16LE(Buffer.byteLength(comment), 20)
  return Buffer.concat([local, name, data, central, name, eocd, Buffer.from(comment)])
}

describe('the bytes are what the name says', () => {
  it('accepts real documents of their kind, and says they are finished', () => {
    expect(check('pdf', pdfBytes('hello'))).toMatchObject({ matches: true, complete: 'yes' })
    expect(check('png', pngBytes('hello'))).toMatchObject({ matches: true, complete: 'yes' })
    expect(check('jpg', jpegBytes('hello'))).toMatchObject({ matches: true, complete: 'yes' })
    expect(check('jpeg', jpegBytes('hello'))).toMatchObject({ matches: true, complete: 'yes' })
    expect(check('xlsx', zipBytes())).toMatchObject({ matches: true, complete: 'yes' })
    expect(check('xlsx', zipBytes('x'.repeat(5000)))).toMatchObject({ matches: true, complete: 'yes' })
    expect(check('txt', Buffer.from('Total 12.00\n'))).toMatchObject({ matches: true, complete: 'unknown' })
    expect(check('csv', Buffer.from('\ufeffdate,amount\n2026-01-02,3.00\n'))).toMatchObject({ matches: true })
    expect(check('txt', Buffer.from('BMW service, 240.00 EUR\n'))).toMatchObject({ matches: true }) // text that starts like "BM"
    expect(check('xls', Buffer.from('<table><tr><td>1</td></tr></table>'))).toMatchObject({ matches: true }) // an "xls" export in HTML
  })

  it('names what a mismatch holds: a ZIP, a program, text or an image in a .pdf', () => {
    const zip = zipBytes()
    expect(check('pdf', zip)).toMatchObject({ matches: false, holds: 'a ZIP archive' })
    expect(mismatchMessage('pdf', check('pdf', zip))).toBe('named .pdf but holds a ZIP archive')
    const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(100)])
    expect(check('pdf', exe).holds).toBe('a Windows program')
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(100)])
    expect(check('jpg', elf)).toMatchObject({ matches: false, holds: 'a Linux program' })
    expect(check('pdf', Buffer.from('just some text\n'))).toMatchObject({ matches: false, holds: 'text' })
    expect(check('png', pdfBytes('x'))).toMatchObject({ matches: false, holds: 'a PDF document' })
    expect(mismatchMessage('png', check('png', Buffer.from([1, 2, 0, 0, 9])))).toBe('named .png but does not start like a PNG image')
    expect(check('txt', Buffer.concat([Buffer.from('abc'), Buffer.alloc(10)]))).toMatchObject({ matches: false })
    expect(check('csv', pdfBytes('x'))).toMatchObject({ matches: false, holds: 'a PDF document' })
  })

  it('says a file of its kind is unfinished when its end marker is missing', () => {
    const pdf = paddedPdf(20_000)
    expect(check('pdf', pdf.subarray(0, 15_000))).toMatchObject({ matches: true, complete: 'no', missing: 'the %%EOF end marker' })
    const png = pngBytes('x')
    expect(check('png', png.subarray(0, png.length - 5))).toMatchObject({ complete: 'no', missing: 'the IEND end chunk' })
    const zip = zipBytes()
    expect(check('xlsx', zip.subarray(0, zip.length - 10))).toMatchObject({ complete: 'no' })
    // A JPEG without its EOI (a phone's motion photo carries a video after it): not known.
    expect(check('jpg', jpegBytes('x'.repeat(100)).subarray(0, 60))).toMatchObject({ matches: true, complete: 'unknown' })
    // A PDF whose %%EOF is followed by padding is finished.
    expect(check('pdf', Buffer.concat([pdf, Buffer.alloc(300)]))).toMatchObject({ complete: 'yes' })
  })

  it('never throws on garbage input (it may come from a worker message)', () => {
    const bad = [
      { kind: 'pdf', size: -1, head: new Uint8Array(0), tail: new Uint8Array(0) },
      { kind: 42, size: NaN, head: 'x', tail: null },
      { kind: 'webp', size: 3, head: new Uint8Array([0x52, 0x49, 0x46]), tail: new Uint8Array(0) },
      { kind: 'bmp', size: 2, head: new Uint8Array([0x42, 0x4d]), tail: new Uint8Array(0) },
      { kind: 'xlsx', size: 4, head: new Uint8Array([0x50, 0x4b, 3, 4]), tail: new Uint8Array([0x50, 0x4b, 5, 6]) },
    ] as unknown as Parameters<typeof inspect>[0][]
    for (const b of bad) expect(() => inspect(b)).not.toThrow()
  })
})
