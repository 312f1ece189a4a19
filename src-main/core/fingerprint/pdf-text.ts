/**
 * A PDF's shown text, read without PDF.js (issue 33's CPU budget: fingerprinting may add 15 % to a
 * run of 300 one-page PDFs, and loading PDF.js alone costs more than that). Runs in the fingerprint
 * worker only (it reads untrusted bytes).
 *
 * The file is read once, left to right: every `N G obj << … >> stream … endstream` whose dictionary
 * is a page's content (no /Type and no /Subtype) or a form (/Subtype /Form) is inflated (/FlateDecode
 * or no filter; zlib, bounded by MAX_DECODED) and every string shown between BT and ET is kept, as
 * its bytes (Latin-1): the codes the producer wrote, which two downloads of one document share.
 * Metadata (/Info, XMP, /ID) is never a content stream, so it never counts.
 *
 * Null when this reader cannot say (a stream with another filter, an encrypted file, a dictionary
 * that never ends): compute.ts then asks PDF.js. An empty text when it read every content stream and
 * none shows text (a scan: compute.ts looks for its page image), or when the file has no stream at
 * all (nothing on it can be shown: PDF.js would find no more, at a cost of ~13 ms for 200 KB).
 * Linear in the file's size: each scan moves forward, strings and dictionaries are read once.
 */
import { constants, inflateSync } from 'node:zlib'

/** Bytes inflated from one document at most (a receipt's content streams are a few KB). */
export const MAX_DECODED = 16 * 1024 * 1024
/** Streams looked at, at most. */
export const MAX_STREAMS = 5000

/** Streams that are never a page's content: images, fonts, metadata, cross-reference and object streams. */
const SKIP_TYPES =
  /\/(?:Type\s*\/(?:XObject|XRef|ObjStm|Metadata|EmbeddedFile|Font|FontDescriptor)|Subtype\s*\/(?!Form\b)|Length1|Length2|Length3)/
/** Streams this reader does not decode (a predictor): if no text is found elsewhere, PDF.js reads the file. */
const UNREAD = /\/DecodeParms\b/

/** The dictionary that starts at `from` (at `<<`): its end, counting nested `<< >>` and skipping strings. */
function dictEnd(s: string, from: number): number {
  let depth = 0
  for (let i = from; i < s.length - 1; i++) {
    const c = s[i]
    if (c === '(') {
      i = stringEnd(s, i) - 1
      continue
    }
    if (c === '<' && s[i + 1] === '<') {
      depth++
      i++
    } else if (c === '>' && s[i + 1] === '>') {
      depth--
      i++
      if (depth === 0) return i + 1
    }
  }
  return -1
}

/** The end (one past `)`) of the literal string starting at `from`, with escapes and nesting. */
function stringEnd(s: string, from: number): number {
  let depth = 0
  for (let i = from; i < s.length; i++) {
    const c = s[i]
    if (c === '\\') i++
    else if (c === '(') depth++
    else if (c === ')' && --depth === 0) return i + 1
  }
  return s.length
}

const ESC: Record<string, string> = {
  n: '\n',
  r: '\r',
  t: '\t',
  b: '\b',
  f: '\f',
  '(': '(',
  ')': ')',
  '\\': '\\',
}

/** The bytes of a literal string token `( … )`, escapes resolved. */
function literal(s: string, from: number, to: number): string {
  let out = ''
  for (let i = from + 1; i < to - 1; i++) {
    const c = s[i]!
    if (c !== '\\') {
      out += c
      continue
    }
    const n = s[++i] ?? ''
    if (n >= '0' && n <= '7') {
      let oct = n
      while (oct.length < 3 && s[i + 1]! >= '0' && s[i + 1]! <= '7') oct += s[++i]
      out += String.fromCharCode(parseInt(oct, 8) & 0xff)
    } else if (n === '\r' || n === '\n') {
      if (n === '\r' && s[i + 1] === '\n') i++
    } else out += ESC[n] ?? n
  }
  return out
}

/** True when the operator `op` (two letters) stands at `i` as a word of its own. */
function operator(content: string, i: number, op: string): boolean {
  return content.startsWith(op, i) && !/\w/.test(content[i + 2] ?? ' ') && !/\w/.test(content[i - 1] ?? ' ')
}

/** The strings shown in a content stream (between BT and ET), one line per text object. */
export function shownText(content: string): string {
  const lines: string[] = []
  let parts: string[] = []
  let inText = false
  let i = 0
  const n = content.length
  while (i < n) {
    const c = content[i]!
    if (c === '(') {
      const end = stringEnd(content, i)
      if (inText) parts.push(literal(content, i, end))
      i = end
    } else if (c === '<' && content[i + 1] !== '<') {
      const end = content.indexOf('>', i)
      const stop = end < 0 ? n : end
      if (inText) {
        const hex = content.slice(i + 1, stop).replace(/[^0-9a-fA-F]/g, '')
        let bytes = ''
        for (let k = 0; k < hex.length; k += 2)
          bytes += String.fromCharCode(parseInt(hex.slice(k, k + 2).padEnd(2, '0'), 16))
        parts.push(bytes)
      }
      i = stop + 1
    } else if (c === '%') {
      const end = content.indexOf('\n', i)
      i = end < 0 ? n : end + 1
    } else if (operator(content, i, 'BT')) {
      inText = true
      i += 2
    } else if (operator(content, i, 'ET')) {
      inText = false
      if (parts.length) lines.push(parts.join(' '))
      parts = []
      i += 2
    } else i++
  }
  if (parts.length) lines.push(parts.join(' '))
  return lines.join('\n')
}

/** What the quick reader found: the text shown, and how many streams the file has. */
export interface QuickRead {
  text: string
  streams: number
}

/** The text shown on a PDF's pages and its count of streams, or null when this reader cannot tell. */
export function quickPdfRead(bytes: Uint8Array): QuickRead | null {
  // No stream anywhere (looked for in the bytes, before any text is made of them): nothing shown.
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (buf.indexOf('stream') < 0) return { text: '', streams: 0 }
  const s = buf.toString('latin1')
  if (/\/Encrypt\b/.test(s)) return null
  const texts: string[] = []
  let decoded = 0
  let streams = 0
  let unread = false
  // Bounded runs: a file of ten million digits costs one pass, not one pass per digit.
  const objRe = /\d{1,10}\s{1,8}\d{1,5}\s{1,8}obj\s{0,64}<</g
  let m: RegExpExecArray | null
  while ((m = objRe.exec(s))) {
    const start = m.index + m[0].length - 2
    const end = dictEnd(s, start)
    if (end < 0) return null
    objRe.lastIndex = end
    const after = /^\s*stream\r?\n/.exec(s.slice(end, end + 16))
    if (!after) continue
    if (++streams > MAX_STREAMS) return null
    const dataStart = end + after[0].length
    const dataEnd = s.indexOf('endstream', dataStart)
    if (dataEnd < 0) return null
    objRe.lastIndex = dataEnd + 9
    const dict = s.slice(start, end)
    if (SKIP_TYPES.test(dict)) continue
    if (UNREAD.test(dict)) {
      unread = true
      continue
    }
    const filter = /\/Filter\s*(\[\s*)?\/(\w+)\s*(\])?/.exec(dict)
    let data = bytes.subarray(dataStart, dataEnd)
    if (filter) {
      if (filter[2] !== 'FlateDecode' || (filter[1] && !filter[3])) return null
      try {
        data = inflateSync(data, {
          maxOutputLength: MAX_DECODED - decoded, // A stream cut short or followed by an end of line is read as far as it goes.
          finishFlush: constants.Z_SYNC_FLUSH,
        })
      } catch {
        return null
      }
    }
    decoded += data.length
    if (decoded >= MAX_DECODED) return null
    const text = shownText(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('latin1'))
    if (text) texts.push(text)
  }
  // No object held a stream: was there any at all (one the object pattern missed)? Then PDF.js reads it.
  if (streams === 0 && /\bstream\r?\n/.test(s)) return null
  if (unread && texts.length === 0) return null
  return { text: texts.join('\n'), streams }
}
