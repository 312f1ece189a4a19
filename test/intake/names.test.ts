/**
 * names.ts: every name the file system can hold is kept exactly (bytes that are not UTF-8 survive a
 * round trip through a path string) and printed on one line, in its own order.
 */
import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { decodeFsName, encodeFsName, fsPath, hasRawBytes, printable } from '../../src-main/core/names'

describe('names that are not UTF-8', () => {
  it('a Latin-1 name decodes to a string that gives back the exact bytes', () => {
    const bytes = Buffer.concat([Buffer.from('Quittung-M'), Buffer.from([0xfc]), Buffer.from('ller.pdf')])
    const s = decodeFsName(bytes)
    expect(hasRawBytes(s)).toBe(true)
    expect(encodeFsName(s)).toEqual(bytes)
    expect(fsPath(s)).toEqual(bytes)
    expect(printable(s)).toBe('Quittung-M\\xFCller.pdf')
  })

  it('valid UTF-8 is left as it is (and fs gets the string)', () => {
    for (const name of ['Quittung-Müller.pdf', '領収書.pdf', 'emoji 🧾.pdf', 'U+FFFD \uFFFD.pdf']) {
      const s = decodeFsName(Buffer.from(name, 'utf8'))
      expect(s).toBe(name)
      expect(hasRawBytes(s)).toBe(false)
      expect(fsPath(s)).toBe(name)
    }
  })

  it('any bytes survive the round trip (random names, overlongs, surrogates encoded in UTF-8, truncated sequences)', () => {
    const cases = [
      Buffer.from([0xc0, 0xaf]), // overlong "/"
      Buffer.from([0xed, 0xa0, 0x80]), // a surrogate encoded in UTF-8
      Buffer.from([0xf4, 0x90, 0x80, 0x80]), // above U+10FFFF
      Buffer.from([0xe2, 0x82]), // truncated
      Buffer.from([0xf0, 0x9f, 0xa7, 0xbe, 0xfc]), // a real emoji then a raw byte
    ]
    for (let i = 0; i < 500; i++) cases.push(randomBytes(1 + (i % 40)))
    for (const b of cases) expect(encodeFsName(decodeFsName(b))).toEqual(b)
  })
})

describe('printable', () => {
  it.each([
    ['evil\nFAILED #99 forged.pdf', 'evil\\nFAILED #99 forged.pdf'],
    ['a\r\tb\x1b[31mred.pdf', 'a\\r\\tb\\x1B[31mred.pdf'],
    ['invoice\u202Efdp.exe', 'invoice\\u{202E}fdp.exe'],
    ['x\u2028y\u2029z\u0085.pdf', 'x\\u{2028}y\\u{2029}z\\x85.pdf'],
    ['\u2066isolate\u2069\u200f.pdf', '\\u{2066}isolate\\u{2069}\\u{200F}.pdf'],
  ])(
    'a newline, a carriage return, controls and bidi overrides cannot forge or reorder a line: %j',
    (input, expected) => {
      expect(printable(input)).toBe(expected)
    },
  )

  it('ordinary names are unchanged, and printing twice changes nothing more', () => {
    for (const s of ['receipt.pdf', 'Quittung Müller (2).pdf', 'C:\\Users\\me\\scan.pdf', '領収書 🧾.pdf']) {
      expect(printable(s)).toBe(s)
    }
    const once = printable('a\nb\u202E\uDCFC')
    expect(printable(once)).toBe(once)
    expect(once).not.toMatch(/[\n\u202E\uDCFC]/)
  })
})
