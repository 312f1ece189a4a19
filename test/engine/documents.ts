/**
 * Small real documents for tests: a file named .pdf holds a PDF, a .png a PNG, a .jpg a JPEG, so
 * the content check (src-main/core/intake/inspect.ts) takes them. Each carries the given text (the
 * PDF as a text layer the emulator reads), so files of different texts differ in content.
 */
import { crc32 } from 'node:zlib'
import { fileKind } from '../../schemas/routes'

/** A one-page PDF showing `lines` (a text layer), with a correct cross-reference table. */
export function pdfBytes(text: string): Buffer {
  const lines = text.split('\n').filter((l) => l.length > 0)
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?')
  const content = `BT /F1 12 Tf 50 750 Td 14 TL ${lines.map((l) => `(${esc(l)}) '`).join(' ')} ET`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out))
    out += `${i + 1} 0 obj\n${o}\nendobj\n`
  })
  const xref = Buffer.byteLength(out)
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const off of offsets) out += `${String(off).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4)
  len.writeUInt32BE(data.length)
  const td = Buffer.concat([Buffer.from(type, 'latin1'), data])
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(td))
  return Buffer.concat([len, td, crc])
}

/** A 1×1 PNG carrying `text` in a tEXt chunk. */
export function pngBytes(text: string): Buffer {
  const ihdr = Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0])
  // zlib stream of one filtered scanline (filter 0, one grey pixel).
  const idat = Buffer.from([0x78, 0x9c, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('tEXt', Buffer.from(`Comment\0${text}`, 'latin1')),
    pngChunk('IDAT', idat),
    pngChunk('IEND', Buffer.alloc(0)),
  ])
}

/** A JPEG-shaped file (SOI, JFIF, a comment holding `text`, EOI). */
export function jpegBytes(text: string): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00])
  const body = Buffer.from(text, 'utf8').subarray(0, 60_000)
  const com = Buffer.concat([Buffer.from([0xff, 0xfe, (body.length + 2) >> 8, (body.length + 2) & 0xff]), body])
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, com, Buffer.from([0xff, 0xd9])])
}

/** A document of the kind `name`'s extension says, carrying `text` (other kinds: the text itself). */
export function documentBytes(name: string, text: string): Buffer {
  switch (fileKind(name)) {
    case 'pdf':
      return pdfBytes(text)
    case 'png':
      return pngBytes(text)
    case 'jpg':
    case 'jpeg':
      return jpegBytes(text)
    default:
      return Buffer.from(text, 'utf8')
  }
}

/**
 * A PDF-shaped file of exactly `size` bytes: the PDF header, `fill` bytes, then the %%EOF end
 * marker (the content check takes it; nothing parses its body).
 */
export function paddedPdf(size: number, fill = 0x20): Buffer {
  const head = Buffer.from('%PDF-1.4\n%', 'latin1')
  const tail = Buffer.from('\n%%EOF\n', 'latin1')
  const b = Buffer.alloc(Math.max(size, head.length + tail.length), fill)
  head.copy(b, 0)
  tail.copy(b, b.length - tail.length)
  return b
}
