/**
 * Names as the file system holds them, names as a person may see them, and names as Bookdrop
 * stores them.
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

import { extname } from 'node:path'

/**
 * Characters that are never shown as they are: control characters (C0, DEL, C1), bidirectional
 * marks, embeddings, overrides and isolates, the zero-width space and word joiners, line and
 * paragraph separators, the byte-order mark. `printable` escapes them; `storedName` replaces them.
 * The zero-width (non-)joiners stay: emoji and several scripts are written with them.
 */
const INVISIBLE = '\\u0000-\\u001F\\u007F-\\u009F\\u061C\\u180E\\u200B\\u200E\\u200F\\u2028-\\u202E\\u2060-\\u2069\\uFEFF'

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

/** Everything `printable` escapes: the INVISIBLE characters and lone surrogates (raw bytes). */
const UNPRINTABLE = new RegExp(`[${INVISIBLE}]|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]`, 'g')

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
  return r
}

// ---- names for storage (issue 23) ---------------------------------------------------------------
//
// The name a file sent as bytes (a browser drop, the demo's samples, a bank statement, a phone's
// photo) is saved under in the data folder, which is also the name the history shows. The name
// came from anywhere (a sender, a shared folder), so it is made safe:
// - one name, never a path: no separators, no `..`, no leading dot, no characters a file system
//   refuses, not a Windows device name;
// - the INVISIBLE characters replaced (U+202E turns `invoice\u202Efdp.exe` into what looks like
//   `invoiceexe.pdf`);
// - at most 255 bytes of UTF-8 (what ext4, APFS and NTFS take for one name), cut between whole
//   characters (grapheme clusters: an accent or an emoji is never split), the extension kept.

/** Bytes of UTF-8 one stored name may take (one path component on ext4, APFS, NTFS). */
export const MAX_NAME_BYTES = 255
/** Bytes of an extension kept as one (longer, it is part of the name). */
const MAX_EXTENSION_BYTES = 24
/** What replaces a character that cannot be stored or shown as it is. */
const REPLACEMENT = '_'

/** The INVISIBLE characters, each replaced in a stored name. */
export const UNSAFE_CHARACTERS = new RegExp(`[${INVISIBLE}]`, 'g')

const encoder = new TextEncoder()

/** Bytes of `s` in UTF-8. */
export function utf8Bytes(s: string): number {
  return encoder.encode(s).length
}

/** The longest start of `s`, in whole grapheme clusters, that fits `maxBytes` of UTF-8. */
export function truncateBytes(s: string, maxBytes: number): string {
  if (utf8Bytes(s) <= maxBytes) return s
  let out = ''
  let bytes = 0
  for (const { segment } of new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(s)) {
    const n = utf8Bytes(segment)
    if (bytes + n > maxBytes) break
    out += segment
    bytes += n
  }
  return out
}

/** Splits a name into its stem and its extension (with the dot), the extension only when short. */
function splitExtension(name: string): [stem: string, ext: string] {
  const ext = extname(name)
  if (!ext || ext === name || utf8Bytes(ext) > MAX_EXTENSION_BYTES) return [name, '']
  return [name.slice(0, -ext.length), ext]
}

/**
 * The name `raw` is stored (and shown) under: see above. Never empty ("file"), never a path, at
 * most `maxBytes` bytes of UTF-8 with its extension kept.
 */
export function storedName(raw: string, maxBytes = MAX_NAME_BYTES): string {
  let n = String(raw).normalize('NFC').replace(UNSAFE_CHARACTERS, REPLACEMENT)
  n = n.replace(/[\\/]/g, REPLACEMENT).replace(/[<>:"|?*]/g, REPLACEMENT)
  n = n.replace(/\.{2,}/g, '.')
  n = n
    .trim()
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
  if (/^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i.test(n)) n = `_${n}`
  if (n === '') n = 'file'
  return fitBytes(n, '', maxBytes)
}

/**
 * A plain stem for a file Bookdrop names in its own data folder (a prepared photo, a phone's page):
 * `name` without its extension, letters, digits and a few marks only, no leading dots, at most 80
 * characters, or `fallback` when nothing is left. (`storedName` keeps a person's name as it is
 * shown; this one is for names Bookdrop makes.)
 */
export function plainStem(name: string, fallback: string): string {
  const stem = name.normalize('NFC').replace(/\.[^.]{1,8}$/, '')
  const clean = stem
    .replace(/[^\p{L}\p{N} ._()-]+/gu, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^[.\s_]+/, '')
    .slice(0, 80)
    .trim()
  return clean || fallback
}

/** `name` with ` (n)` before its extension, still within `maxBytes` (the stem is shortened). */
export function numberedStoredName(name: string, n: number, maxBytes = MAX_NAME_BYTES): string {
  return n <= 1 ? fitBytes(name, '', maxBytes) : fitBytes(name, ` (${n})`, maxBytes)
}

/** `stem + suffix + extension` of `name`, the stem cut so the whole fits `maxBytes`. */
function fitBytes(name: string, suffix: string, maxBytes: number): string {
  const [stem, ext] = splitExtension(name)
  const room = maxBytes - utf8Bytes(suffix) - utf8Bytes(ext)
  const cut = truncateBytes(stem, Math.max(1, room)).replace(/[.\s]+$/, '')
  return `${cut || 'file'}${suffix}${ext}`
}
