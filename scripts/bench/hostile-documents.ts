/**
 * Documents built to cost their reader as much as possible (issue 23), for the tests
 * (test/sandbox/hostile-documents.test.ts) and `npm run bench -- --only hostile`. Each is made in a
 * few milliseconds, in memory, from nothing but its size.
 */
import { constants, deflateRawSync, deflateSync } from 'node:zlib'

const MB = 1024 * 1024

/** A one-page PDF whose page content is `content`, with `dict` added to the content stream's dictionary. */
export function pdfWithContent(content: Buffer, dict = ''): Buffer {
  const parts: Buffer[] = []
  let length = 0
  const push = (b: Buffer | string) => {
    const x = typeof b === 'string' ? Buffer.from(b, 'latin1') : b
    parts.push(x)
    length += x.length
  }
  const objects: (string | Buffer[])[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    [
      Buffer.from(`<< /Length ${content.length}${dict ? ` ${dict}` : ''} >>\nstream\n`, 'latin1'),
      content,
      Buffer.from('\nendstream', 'latin1'),
    ],
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  const offsets: number[] = []
  push('%PDF-1.4\n')
  objects.forEach((o, i) => {
    offsets.push(length)
    push(`${i + 1} 0 obj\n`)
    if (typeof o === 'string') push(o)
    else o.forEach(push)
    push('\nendobj\n')
  })
  const xref = length
  push(
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`,
  )
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`)
  return Buffer.concat(parts)
}

/**
 * A PDF whose one page holds `runs` text runs on one line ("(a) Tj 0 0 Td", Flate-compressed): the
 * input that made the emulator's line building quadratic (40 KB of it is over a million runs).
 */
export function manyRunsPdf(runs: number): Buffer {
  const content = Buffer.from(`BT /F1 1 Tf ${'(a) Tj 0 0 Td '.repeat(runs)}ET`, 'latin1')
  return pdfWithContent(deflateSync(content, { level: 9 }), '/Filter /FlateDecode')
}

/**
 * A zlib stream of `mb` MB of zeros, about 1 KB per MB: one block of a MB of zeros, compressed on
 * its own (full flush), repeated, then the end and the checksum. Built without inflating anything.
 */
export function zeroBomb(mb: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(MB), { finishFlush: constants.Z_FULL_FLUSH, level: 9 })
  const b = (mb * MB) % 65521 // Adler-32 of zeros: a = 1, b = length mod 65521
  const end = Buffer.from([0x03, 0x00, (b >> 8) & 255, b & 255, 0, 1])
  return Buffer.concat([Buffer.from([0x78, 0xda]), ...Array<Buffer>(mb).fill(block), end])
}

/** A PDF of about `mb` KB whose page content inflates to `mb` MB (1024: a 1 MB PDF, 1 GB inflated). */
export function inflateBombPdf(mb: number, filterName = '/FlateDecode'): Buffer {
  return pdfWithContent(zeroBomb(mb), `/Filter ${filterName}`)
}

/** RunLength data that decodes to `bytes` zeros (2 bytes in, 128 out). */
export function runLengthBomb(bytes: number): Buffer {
  return Buffer.concat([
    Buffer.alloc(Math.ceil(bytes / 128) * 2).fill(Buffer.from([129, 0])),
    Buffer.from([128]),
  ])
}

/**
 * LZW codes (PDF's variant, EarlyChange 1) whose output is as large as LZW allows: the dictionary
 * is filled with ever longer runs of one byte, then its longest entry is sent `repeats` times
 * (12 bits in, about 3,800 bytes out).
 */
export function lzwBomb(repeats: number): Buffer {
  const codes = [0]
  for (let c = 258; c < 4096; c++) codes.push(c)
  for (let i = 0; i < repeats; i++) codes.push(4095)
  codes.push(257)
  const out: number[] = []
  let acc = 0
  let bits = 0
  let next = 258
  let width = 9
  let previous = false
  for (const code of codes) {
    acc = (acc << width) | code
    bits += width
    while (bits >= 8) {
      bits -= 8
      out.push((acc >>> bits) & 255)
    }
    acc &= (1 << bits) - 1
    if (code === 257) break
    if (previous && next < 4096) {
      next++
      const n = next + 1
      if ((n & (n - 1)) === 0) width = Math.min(Math.floor(Math.log2(n)) + 1, 12)
    }
    previous = true
  }
  if (bits > 0) out.push((acc << (8 - bits)) & 255)
  return Buffer.from(out)
}

/** An e-mail of about `bytes` whose HTML body is `<` after `<`: what made the tag stripping quadratic. */
export function lessThanEmail(bytes: number, unit = '<'): Buffer {
  const body = unit.repeat(Math.ceil(bytes / unit.length))
  return Buffer.from(
    `From: Shop <shop@example.com>\r\nTo: me@example.com\r\nSubject: Receipt\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n${body}\r\n`,
  )
}

/** An e-mail with `pdf` attached (Base64). */
export function emailWithPdf(pdf: Buffer, name = 'receipt.pdf'): Buffer {
  const b64 = pdf.toString('base64').replace(/.{76}/g, '$&\r\n')
  return Buffer.from(
    [
      'From: Shop <shop@example.com>',
      'Subject: Receipt',
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'Your receipt is attached.',
      '--b',
      `Content-Type: application/pdf; name="${name}"`,
      'Content-Transfer-Encoding: base64',
      `Content-Disposition: attachment; filename="${name}"`,
      '',
      b64,
      '--b--',
      '',
    ].join('\r\n'),
  )
}

/** A text receipt of about `bytes` that says "at 1" again and again: what made the vendor search quadratic. */
export function atOneText(bytes: number, unit = 'at 1 '): string {
  return unit.repeat(Math.ceil(bytes / unit.length))
}
