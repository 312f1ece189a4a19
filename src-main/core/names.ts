/**
 * Names as the file system holds them, and names as a person may see them.
 *
 * A file name on Linux is any bytes but `/` and NUL: it may hold a newline, a control character, a
 * bidi control such as U+202E (which shows "gpj.exe" as "exe.jpg"), or bytes that are not UTF-8
 * at all (an old Latin-1 `Quittung-M\xFCller.pdf` from a network share).
 *
 * - Inside main a path is a string. Bytes that are not UTF-8 are kept in it as lone surrogates
 *   U+DC80–U+DCFF, one per byte (Python's "surrogateescape", PEP 383): `decodeFsName` makes such a
 *   string from bytes, `fsPath` turns it back into the exact bytes for an fs call. A path that is
 *   valid UTF-8 (every path on macOS and Windows, nearly every one on Linux) is left as it is.
 * - Wherever a name or a path is printed (headless lines, notifications, the history's name, CSV),
 *   `printable` shows it on one line, in its own order: control characters, line breaks and bidi
 *   controls become escapes (`\n`, `\x1B`, `\u{202E}`), and a byte that is not UTF-8 shows as
 *   `\xFC`, which also marks the name as not UTF-8. Ordinary names come out unchanged.
 */

const FATAL_UTF8 = new TextDecoder('utf-8', { fatal: true })

/** A lone low surrogate that stands for one raw byte (0x80–0xFF). */
const RAW_BYTE = /(?<![\uD800-\uDBFF])[\uDC80-\uDCFF]/

/** The string of a name (or path) read as bytes: UTF-8 where it is, one escape per byte where not. */
export function decodeFsName(bytes: Uint8Array): string {
  try {
    return FATAL_UTF8.decode(bytes)
  } catch {
    return decodeEscaped(bytes)
  }
}

/** Well-formed UTF-8 sequences decode; every byte of an ill-formed one becomes U+DC00 + byte. */
function decodeEscaped(b: Uint8Array): string {
  let out = ''
  let i = 0
  while (i < b.length) {
    const c = b[i]!
    if (c < 0x80) {
      out += String.fromCharCode(c)
      i++
      continue
    }
    const len = c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0
    let cp = -1
    if (len > 0 && i + len <= b.length) {
      const c1 = b[i + 1]!
      // The second byte's range depends on the first (no overlongs, no surrogates, ≤ U+10FFFF).
      const lo = c === 0xe0 ? 0xa0 : c === 0xf0 ? 0x90 : 0x80
      const hi = c === 0xed ? 0x9f : c === 0xf4 ? 0x8f : 0xbf
      let ok = c1 >= lo && c1 <= hi
      for (let k = 2; ok && k < len; k++) ok = (b[i + k]! & 0xc0) === 0x80
      if (ok) {
        cp = len === 2 ? c & 0x1f : len === 3 ? c & 0x0f : c & 0x07
        for (let k = 1; k < len; k++) cp = (cp << 6) | (b[i + k]! & 0x3f)
      }
    }
    if (cp < 0) {
      out += String.fromCharCode(0xdc00 + c)
      i++
    } else {
      out += String.fromCodePoint(cp)
      i += len
    }
  }
  return out
}

/** True when the string holds bytes that are not UTF-8 (see decodeFsName). */
export function hasRawBytes(s: string): boolean {
  return RAW_BYTE.test(s)
}

/** The exact bytes of a string made by decodeFsName. */
export function encodeFsName(s: string): Buffer {
  if (!hasRawBytes(s)) return Buffer.from(s, 'utf8')
  const parts: number[] = []
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i)
    if (u >= 0xd800 && u <= 0xdbff && i + 1 < s.length) {
      const v = s.charCodeAt(i + 1)
      if (v >= 0xdc00 && v <= 0xdfff) {
        for (const byte of Buffer.from(s.slice(i, i + 2), 'utf8')) parts.push(byte)
        i++
        continue
      }
    }
    if (u >= 0xdc80 && u <= 0xdcff) parts.push(u - 0xdc00)
    else for (const byte of Buffer.from(s[i]!, 'utf8')) parts.push(byte)
  }
  return Buffer.from(parts)
}

/** What to give an fs call for a path string: the string, or its exact bytes when it holds raw ones. */
export function fsPath(p: string): string | Buffer {
  return hasRawBytes(p) ? encodeFsName(p) : p
}

/** Characters that reorder text (bidi embeddings, overrides, isolates and marks). */
const BIDI = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/
/** Everything `printable` escapes: C0 and C1 controls, DEL, line/paragraph separators, bidi, lone surrogates. */
const UNPRINTABLE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' }

function hex(n: number, width: number): string {
  return n.toString(16).toUpperCase().padStart(width, '0')
}

/**
 * A name or path (or a line that holds them) as it may be printed: on one line, in its own reading
 * order. Control characters, line breaks and bidi controls become escapes; a byte that is not UTF-8
 * shows as `\xFC`. Ordinary text is returned unchanged, and an escaped text is left as it is (the
 * function may be applied twice).
 */
export function printable(s: string): string {
  if (typeof s !== 'string') return ''
  UNPRINTABLE.lastIndex = 0
  if (!UNPRINTABLE.test(s)) return s
  UNPRINTABLE.lastIndex = 0
  return s.replace(UNPRINTABLE, (ch) => {
    const named = NAMED[ch]
    if (named) return named
    const u = ch.charCodeAt(0)
    if (u >= 0xdc80 && u <= 0xdcff) return `\\x${hex(u - 0xdc00, 2)}` // a raw byte of a non-UTF-8 name
    if (u <= 0xff) return `\\x${hex(u, 2)}`
    return `\\u{${hex(u, 4)}}`
  })
}

/** The name of a file as a person sees it (history, notifications, headless lines). */
export const printableName = printable

/** True when the name holds something `printable` escapes (a bidi control, a line break, raw bytes). */
export function needsEscaping(s: string): boolean {
  UNPRINTABLE.lastIndex = 0
  const r = UNPRINTABLE.test(s)
  UNPRINTABLE.lastIndex = 0
  return r || BIDI.test(s)
}
