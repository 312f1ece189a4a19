/**
 * What a PDF's streams decode to, measured before PDF.js sees the file (issue 23). The worker's
 * heap limit (`resourceLimits`) bounds JavaScript objects only: PDF.js inflates a stream into an
 * ArrayBuffer outside that heap, so a 1 MB PDF whose content stream inflates to 1 GB would take a
 * gigabyte of memory before any limit noticed. Here every stream is decoded as PDF.js would decode
 * it, counting the bytes and keeping none of them (Flate and Brotli stream through zlib; LZW and
 * RunLength are counted without building their output), against one budget for the document; past
 * it the document is refused with a reason a person can read, after reading no more than the
 * budget (a 1 GB bomb costs the time of inflating 128 MB, and a few hundred KB of memory).
 *
 * The count is an upper bound of what PDF.js decodes: each stream is read to the farther of its
 * /Length and its `endstream`, every filter of a chain is counted, and images count too (PDF.js
 * does not decode them to read text, but a stream said to be an image can still be used as a page's
 * content). An encrypted PDF is not handed to PDF.js at all: its streams cannot be measured.
 */
import {
  brotliDecompressSync,
  constants,
  createBrotliDecompress,
  createInflate,
  inflateSync,
} from 'node:zlib'

const MB = 1024 * 1024

/** Bytes all the streams of one document (a PDF, or an e-mail's attached PDFs) may decode to. */
export const MAX_DECODED_BYTES = 128 * MB
/** Streams in one PDF at most (a receipt has tens; each costs a look at its dictionary). */
export const MAX_STREAMS = 20_000
/** A stream's dictionary is looked for this far back from its `stream` keyword. */
const DICT_WINDOW = 16 * 1024

/** A document refused before it was parsed: `message` says why, for people. */
export class DocumentRefused extends Error {
  override readonly name = 'DocumentRefused'
}

/** What is left to decode, shared by the PDFs of one document. */
export interface DecodeBudget {
  readonly total: number
  left: number
}

export function decodeBudget(total = MAX_DECODED_BYTES): DecodeBudget {
  return { total, left: total }
}

function overBudget(budget: DecodeBudget): DocumentRefused {
  return new DocumentRefused(
    `its compressed parts expand to more than ${Math.round(budget.total / MB)} MB, more than Bookdrop reads from one document`,
  )
}

function spend(budget: DecodeBudget, bytes: number): void {
  budget.left -= bytes
  if (budget.left < 0) throw overBudget(budget)
}

// ---------------------------------------------------------------------------------------------
// A small reader of PDF objects: enough for a stream's dictionary (names, numbers, references,
// strings, arrays, nested dictionaries), as PDF.js's lexer reads them.
// ---------------------------------------------------------------------------------------------

type PdfValue =
  | { t: 'name'; v: string }
  | { t: 'num'; v: number }
  | { t: 'ref'; n: number }
  | { t: 'array'; v: PdfValue[] }
  | { t: 'dict'; v: Map<string, PdfValue> }
  | { t: 'other' }

const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20])
const DELIM = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25])

class Reader {
  constructor(
    private readonly s: string,
    public i: number,
    private readonly end: number,
  ) {}

  private code(at = this.i): number {
    return at < this.end ? this.s.charCodeAt(at) : -1
  }

  /** Skips white space and comments. */
  skip(): void {
    for (;;) {
      const c = this.code()
      if (c >= 0 && WHITE.has(c)) this.i++
      else if (c === 0x25) {
        while (this.i < this.end && this.code() !== 0x0a && this.code() !== 0x0d) this.i++
      } else return
    }
  }

  private word(): string {
    const start = this.i
    while (this.i < this.end) {
      const c = this.code()
      if (WHITE.has(c) || DELIM.has(c)) break
      this.i++
    }
    return this.s.slice(start, this.i)
  }

  /** The next value, or null at the end of the window or on something it cannot read. */
  value(depth = 0): PdfValue | null {
    if (depth > 32) return null
    this.skip()
    const c = this.code()
    if (c < 0) return null
    if (c === 0x2f) {
      this.i++
      // #xx in a name stands for the byte xx: /Fl#61teDecode is /FlateDecode.
      return {
        t: 'name',
        v: this.word().replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      }
    }
    if (c === 0x3c && this.code(this.i + 1) === 0x3c) {
      this.i += 2
      const map = new Map<string, PdfValue>()
      for (;;) {
        this.skip()
        if (this.code() === 0x3e && this.code(this.i + 1) === 0x3e) {
          this.i += 2
          return { t: 'dict', v: map }
        }
        const key = this.value(depth + 1)
        if (!key || key.t !== 'name') return null
        const v = this.value(depth + 1)
        if (!v) return null
        map.set(key.v, v)
      }
    }
    if (c === 0x3c) {
      const close = this.s.indexOf('>', this.i)
      if (close < 0 || close >= this.end) return null
      this.i = close + 1
      return { t: 'other' }
    }
    if (c === 0x5b) {
      this.i++
      const items: PdfValue[] = []
      for (;;) {
        this.skip()
        if (this.code() === 0x5d) {
          this.i++
          return { t: 'array', v: items }
        }
        const v = this.value(depth + 1)
        if (!v) return null
        items.push(v)
      }
    }
    if (c === 0x28) {
      // A literal string: balanced parentheses, backslash escapes.
      let level = 0
      for (; this.i < this.end; this.i++) {
        const d = this.code()
        if (d === 0x5c) this.i++
        else if (d === 0x28) level++
        else if (d === 0x29 && --level === 0) {
          this.i++
          return { t: 'other' }
        }
      }
      return null
    }
    const w = this.word()
    if (w === '') return null
    if (/^[+-]?(?:\d+\.?\d*|\.\d+)$/.test(w)) {
      // `n g R` is a reference.
      const save = this.i
      if (/^\d+$/.test(w)) {
        this.skip()
        const g = this.word()
        this.skip()
        if (/^\d+$/.test(g) && this.code() === 0x52 /* R */) {
          this.i++
          return { t: 'ref', n: Number(w) }
        }
        this.i = save
      }
      return { t: 'num', v: Number(w) }
    }
    return { t: 'other' }
  }
}

// ---------------------------------------------------------------------------------------------
// Decoders that count
// ---------------------------------------------------------------------------------------------

/** Streams the output of a zlib decoder into the budget, keeping nothing; stops past it. */
function countStream(
  make: () => NodeJS.ReadWriteStream & { destroy(): void },
  input: Buffer,
  budget: DecodeBudget,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const z = make()
    let done = false
    const finish = (e: Error | null) => {
      if (done) return
      done = true
      if (e) reject(e)
      else resolve()
    }
    z.on('data', (chunk: Buffer) => {
      budget.left -= chunk.length
      if (budget.left < 0) {
        z.destroy()
        finish(overBudget(budget))
      }
    })
    // A damaged stream decodes up to the damage, as in PDF.js: what came out is counted.
    z.on('error', () => finish(null))
    z.on('end', () => finish(null))
    z.end(input)
  })
}

/**
 * LZW as PDF.js decodes it (9 to 12 bit codes, 256 clears, 257 ends, EarlyChange): counts the output
 * against the budget, and returns it when `keep` (a filter after it needs the bytes).
 */
function lzw(input: Buffer, earlyChange: number, budget: DecodeBudget, keep: boolean): Buffer | null {
  const size = 4096
  const values = new Uint8Array(size)
  const lengths = new Uint16Array(size)
  const prevCodes = new Uint16Array(size)
  const seq = new Uint8Array(size)
  for (let i = 0; i < 256; i++) {
    values[i] = i
    lengths[i] = 1
  }
  const out: Buffer[] = []
  let next = 258
  let width = 9
  let prev = 0
  let seqLength = 0
  let cached = 0
  let bits = 0
  let p = 0
  for (;;) {
    while (bits < width && p < input.length) {
      cached = ((cached << 8) | input[p++]!) & 0xffffff
      bits += 8
    }
    if (bits < width) break
    bits -= width
    const code = (cached >>> bits) & ((1 << width) - 1)
    const hadPrevious = seqLength > 0
    if (code < 256) {
      seq[0] = code
      seqLength = 1
    } else if (code >= 258) {
      if (code < next) {
        seqLength = lengths[code]!
        for (let j = seqLength - 1, c = code; j >= 0; j--) {
          seq[j] = values[c]!
          c = prevCodes[c]!
        }
      } else seq[seqLength++] = seq[0]!
    } else if (code === 256) {
      width = 9
      next = 258
      seqLength = 0
      continue
    } else break
    if (hadPrevious && next < size) {
      prevCodes[next] = prev
      lengths[next] = lengths[prev]! + 1
      values[next] = seq[0]!
      next++
      const n = next + earlyChange
      if ((n & (n - 1)) === 0) width = Math.min(Math.floor(Math.log2(n)) + 1, 12)
    }
    prev = code
    spend(budget, seqLength)
    if (keep) out.push(Buffer.from(seq.subarray(0, seqLength)))
  }
  return keep ? Buffer.concat(out) : null
}

/** RunLength: the output length, or the bytes. */
function runLength(input: Buffer, budget: DecodeBudget, keep: boolean): Buffer | null {
  const out: Buffer[] = []
  for (let p = 0; p < input.length;) {
    const n = input[p++]!
    if (n === 128) break
    if (n < 128) {
      spend(budget, n + 1)
      if (keep) out.push(input.subarray(p, p + n + 1))
      p += n + 1
    } else {
      spend(budget, 257 - n)
      if (keep) out.push(Buffer.alloc(257 - n, input[p] ?? 0))
      p++
    }
  }
  return keep ? Buffer.concat(out) : null
}

function asciiHex(input: Buffer): Buffer {
  const s = input.toString('latin1')
  const end = s.indexOf('>')
  const hex = (end < 0 ? s : s.slice(0, end)).replace(/[^0-9A-Fa-f]/g, '')
  return Buffer.from(hex.length % 2 ? `${hex}0` : hex, 'hex')
}

function ascii85(input: Buffer, budget: DecodeBudget): Buffer {
  const s = input.toString('latin1')
  const end = s.indexOf('~>')
  const text = (end < 0 ? s : s.slice(0, end)).replace(/\s/g, '')
  const out: number[] = []
  let group: number[] = []
  for (const ch of text) {
    if (ch === 'z' && group.length === 0) {
      spend(budget, 4)
      out.push(0, 0, 0, 0)
      continue
    }
    const c = ch.charCodeAt(0) - 33
    if (c < 0 || c > 84) continue
    group.push(c)
    if (group.length === 5) {
      const v = group.reduce((a, d) => a * 85 + d, 0) >>> 0
      out.push(v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255)
      group = []
    }
  }
  if (group.length > 1) {
    const n = group.length
    while (group.length < 5) group.push(84)
    const v = group.reduce((a, d) => a * 85 + d, 0) >>> 0
    out.push(...[v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].slice(0, n - 1))
  }
  return Buffer.from(out)
}

/** Filters PDF.js decodes only to draw an image: text reading stops at them. */
const IMAGE_FILTERS = new Set([
  'DCT',
  'DCTDecode',
  'JPX',
  'JPXDecode',
  'CCF',
  'CCITTFaxDecode',
  'JBIG2Decode',
])

/** Decodes `data` through `filters` in order, counting every stage's output against the budget. */
async function countFilters(
  data: Buffer,
  filters: string[],
  earlyChange: number,
  budget: DecodeBudget,
): Promise<void> {
  for (let k = 0; k < filters.length; k++) {
    const f = filters[k]!
    const last = k === filters.length - 1 || IMAGE_FILTERS.has(filters[k + 1]!)
    const limit = { maxOutputLength: Math.max(1, budget.left + 1) }
    switch (f) {
      case 'Fl':
      case 'FlateDecode':
        if (last) return countStream(() => createInflate({ chunkSize: 64 * 1024 }), data, budget)
        data = decodeOrStop(
          () => inflateSync(data, { ...limit, finishFlush: constants.Z_SYNC_FLUSH }),
          budget,
        )
        break
      case 'BrotliDecode':
        if (last) return countStream(() => createBrotliDecompress({ chunkSize: 64 * 1024 }), data, budget)
        data = decodeOrStop(() => brotliDecompressSync(data, limit), budget)
        break
      case 'LZW':
      case 'LZWDecode':
        data = lzw(data, earlyChange, budget, !last) ?? Buffer.alloc(0)
        if (last) return
        break
      case 'RL':
      case 'RunLengthDecode':
        data = runLength(data, budget, !last) ?? Buffer.alloc(0)
        if (last) return
        break
      case 'AHx':
      case 'ASCIIHexDecode':
        data = asciiHex(data)
        spend(budget, data.length)
        break
      case 'A85':
      case 'ASCII85Decode':
        data = ascii85(data, budget)
        spend(budget, data.length)
        break
      default:
        return // an image filter, or one PDF.js does not know (it then keeps the bytes as they are)
    }
  }
}

/** A synchronous decode bounded by the budget: over it is a refusal; damaged data decodes to nothing more. */
function decodeOrStop(decode: () => Buffer, budget: DecodeBudget): Buffer {
  let out: Buffer
  try {
    out = decode()
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || e instanceof RangeError)
      throw overBudget(budget)
    return Buffer.alloc(0)
  }
  spend(budget, out.length)
  return out
}

// ---------------------------------------------------------------------------------------------
// The scan
// ---------------------------------------------------------------------------------------------

function isDelimiter(code: number): boolean {
  return Number.isNaN(code) || WHITE.has(code) || DELIM.has(code)
}

/** `N G obj <integer> endobj` and `N G obj /Name endobj`: what a /Length or a filter may refer to. */
function simpleObjects(text: string): { ints: Map<number, number>; names: Map<number, string> } {
  const ints = new Map<number, number>()
  const names = new Map<number, string>()
  for (const m of text.matchAll(/(\d+)\s+\d+\s+obj\s*(?:(\d+)|\/([^\s/<>[\]()%{}]+))\s*endobj/g)) {
    const n = Number(m[1])
    if (m[2] !== undefined) ints.set(n, Math.max(ints.get(n) ?? 0, Number(m[2])))
    else if (m[3] !== undefined)
      names.set(
        n,
        m[3].replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      )
  }
  return { ints, names }
}

/** The dictionary right before a `stream` keyword at `at`, or null when it cannot be read. */
function streamDict(text: string, at: number): Map<string, PdfValue> | null {
  // The keyword follows the dictionary's `>>` (white space between).
  let j = at - 1
  while (j >= 0 && WHITE.has(text.charCodeAt(j))) j--
  if (j < 1 || text[j] !== '>' || text[j - 1] !== '>') return null
  // Its object header `N G obj`, at most DICT_WINDOW back; the dictionary is read forward from there.
  const from = Math.max(0, at - DICT_WINDOW)
  let o = text.lastIndexOf('obj', at)
  while (o >= from && (o < 3 || text.slice(o - 3, o) === 'end' || !isDelimiter(text.charCodeAt(o + 3))))
    o = text.lastIndexOf('obj', o - 1)
  if (o < from) return null
  const r = new Reader(text, o + 3, at)
  const v = r.value()
  r.skip()
  return v?.t === 'dict' && r.i === at ? v.v : null
}

export interface PdfStreamReport {
  /** An /Encrypt entry: the streams are ciphered, so they cannot be measured here. */
  encrypted: boolean
  streams: number
}

/**
 * Decodes every stream of `pdf` as PDF.js would (counting, keeping nothing) against `budget`.
 * Throws DocumentRefused past the budget or past MAX_STREAMS.
 */
export async function measurePdfStreams(pdf: Buffer, budget: DecodeBudget): Promise<PdfStreamReport> {
  const text = pdf.toString('latin1')
  // Names may spell a letter as #xx: look for /Encrypt in any spelling.
  const encrypted =
    text.includes('/Encrypt') ||
    [...text.matchAll(/\/[^\s/<>[\]()%{}]*#[^\s/<>[\]()%{}]*/g)].some(
      (m) =>
        m[0].replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))) ===
        '/Encrypt',
    )
  if (encrypted) return { encrypted, streams: 0 }
  let objects: ReturnType<typeof simpleObjects> | null = null
  const refs = () => (objects ??= simpleObjects(text))
  const keyword = /stream/g
  let streams = 0
  let after = 0
  for (let m = keyword.exec(text); m; m = keyword.exec(text)) {
    const at = m.index
    keyword.lastIndex = at + 6
    // A token `stream` (not endstream, not a longer word), outside the stream just measured.
    if (
      at < after ||
      (at > 0 && !isDelimiter(text.charCodeAt(at - 1))) ||
      !isDelimiter(text.charCodeAt(at + 6))
    )
      continue
    if (++streams > MAX_STREAMS)
      throw new DocumentRefused(`it has more than ${MAX_STREAMS} parts, more than Bookdrop reads`)
    // The data starts after the end of the keyword's line (PDF.js skips to the next line).
    let start = at + 6
    while (start < text.length && text[start] !== '\n' && text[start] !== '\r') start++
    if (text[start] === '\r' && text[start + 1] === '\n') start += 2
    else start++
    const dict = streamDict(text, at)
    // Where PDF.js may take the data to end: its /Length, or the first endstream; the farther one.
    const endKeyword = text.indexOf('endstream', start)
    let end = endKeyword < 0 ? text.length : endKeyword
    const lengthValue = dict?.get('Length')
    const length =
      lengthValue?.t === 'num'
        ? lengthValue.v
        : lengthValue?.t === 'ref'
          ? refs().ints.get(lengthValue.n)
          : undefined
    if (length !== undefined && Number.isInteger(length) && length > 0)
      end = Math.max(end, Math.min(text.length, start + length))
    after = end
    const data = pdf.subarray(start, end)
    let filters: string[]
    let earlyChange = 1
    if (dict) {
      const spec = dict.get('F') ?? dict.get('Filter')
      const one = (v: PdfValue | undefined): string =>
        v?.t === 'name' ? v.v : v?.t === 'ref' ? (refs().names.get(v.n) ?? '?') : '?'
      filters = spec === undefined ? [] : spec.t === 'array' ? spec.v.map(one) : [one(spec)]
      const parms = dict.get('DP') ?? dict.get('DecodeParms')
      const ec = parms?.t === 'dict' ? parms.v.get('EarlyChange') : undefined
      if (ec?.t === 'num') earlyChange = ec.v
      // A filter named in a way this scan cannot follow: measure it as Flate (what a bomb would be).
      filters = filters.map((f) => (f === '?' ? 'FlateDecode' : f))
    } else {
      // A dictionary this scan cannot read: if the data is a zlib stream, count it as one.
      filters = ['FlateDecode']
    }
    await countFilters(data, filters, earlyChange, budget)
  }
  return { encrypted: false, streams }
}
