/**
 * Decoders that count: each filter PDF.js may apply to a stream, run against the document's
 * budget (budget.ts). Flate and Brotli stream through zlib keeping nothing; LZW and RunLength are
 * counted without building their output unless a later filter needs the bytes.
 */
import {
  brotliDecompressSync,
  constants,
  createBrotliDecompress,
  createInflate,
  inflateSync,
} from 'node:zlib'
import { type DecodeBudget, overBudget, spend } from './budget'

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
export async function countFilters(
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
