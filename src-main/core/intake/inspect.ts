/**
 * "The bytes are what the name says" and "finished means finished", as pure functions over two
 * bounded windows of a file: its first HEAD_BYTES and its last `tailBytesFor(kind)` bytes (never the
 * whole file). Input and output are plain data, so the check can run in a worker (`InspectFn`).
 *
 * A small table of signatures for the kinds Bookdrop sends (src-main/core/kinds.ts) rather than a
 * library such as `file-type`: the question here is narrower (does it start like its extension says,
 * and does it end like a finished file of that kind?), the end markers are not something `file-type`
 * answers, and the table is synchronous, dependency-free and small enough to read in one sitting.
 *
 * Per kind:
 * - pdf: `%PDF-` in the first 1 KiB; finished when `%%EOF` is in the last 1 KiB.
 * - jpg/jpeg: FF D8 FF; finished when it ends with the EOI marker FF D9 (else "unknown": a phone's
 *   motion photo carries a video after the picture).
 * - png: the PNG signature; finished when it ends with the IEND chunk.
 * - gif: GIF87a/GIF89a; finished when it ends with the trailer 0x3B.
 * - webp: RIFF…WEBP; finished when the file is as long as the RIFF header says.
 * - bmp: BM; finished when the file is as long as its header says.
 * - xlsx: a ZIP; finished when its end-of-central-directory record is there.
 * - tif/tiff, heic, xls: the signature only (no end marker: "unknown").
 * - txt, csv, eml, vcf: text (no NUL bytes, no binary signature); no end marker.
 */

import type { TaskPool } from '../../../workers/pool'

/** Bytes read from the start of a file. */
export const HEAD_BYTES = 4096
/** Bytes read from the end of most files (a PDF's `%%EOF` may sit up to 1 KiB before the end). */
const TAIL_BYTES = 1024
/** A ZIP's end-of-central-directory record: 22 bytes plus a comment of up to 65,535. */
const ZIP_TAIL_BYTES = 22 + 65_535

/** How many bytes of the end of a file of this kind the check needs. */
export function tailBytesFor(kind: string): number {
  return kind === 'xlsx' ? ZIP_TAIL_BYTES : TAIL_BYTES
}

export interface InspectInput {
  /** Lower-case extension without the dot ('' when none). */
  kind: string
  /** The file's size in bytes. */
  size: number
  /** The first min(size, HEAD_BYTES) bytes. */
  head: Uint8Array
  /** The last min(size, tailBytesFor(kind)) bytes. */
  tail: Uint8Array
}

export interface InspectVerdict {
  /** The bytes are of the kind the extension names (or the kind has no signature to check). */
  matches: boolean
  /** What the bytes hold, in words ("a ZIP archive", "a Windows program"), when recognised. */
  holds: string | null
  /**
   * Whether the file looks finished: 'yes' (the format's end marker is there), 'no' (it is a file
   * of its kind without its end marker), 'unknown' (the kind has no end marker, or the bytes are
   * not of the kind).
   */
  complete: 'yes' | 'no' | 'unknown'
  /** What is missing when complete is 'no' ("the %%EOF end marker"). */
  missing: string | null
}

/** One function, so the check can be routed through a worker: plain data in, plain data out. */
export type InspectFn = (input: InspectInput) => InspectVerdict | Promise<InspectVerdict>

/**
 * The check's own limits in the intake worker (intake-worker.ts; the worker's memory limit is the
 * fingerprint's, FINGERPRINT_LIMITS): its input is two windows (at most HEAD_BYTES + a ZIP's tail),
 * and the table is linear in them, so a check takes well under a millisecond; anything slower is a
 * fault.
 */
export const INSPECT_LIMITS = { timeoutMs: 5_000, maxInputBytes: 2 * (HEAD_BYTES + ZIP_TAIL_BYTES) }

/**
 * The check as the engine runs it: the `inspect` task of the intake worker (intake-worker.ts) in
 * `pool`, with INSPECT_LIMITS. The windows are copied into buffers of their own first: a window is
 * often a view of a whole file read into memory, and a view is sent to a worker with all of its
 * buffer.
 */
export function inspectInWorker(pool: TaskPool<{ inspect: (input: InspectInput) => InspectVerdict }>): InspectFn {
  return (input) =>
    pool.run('inspect', { ...input, head: new Uint8Array(input.head), tail: new Uint8Array(input.tail) }, INSPECT_LIMITS)
}

type Sig = { what: string; test: (h: Uint8Array) => boolean }

const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0))

function startsWith(h: Uint8Array, bytes: readonly number[], at = 0): boolean {
  if (h.length < at + bytes.length) return false
  for (let i = 0; i < bytes.length; i++) if (h[at + i] !== bytes[i]) return false
  return true
}

function indexOf(h: Uint8Array, bytes: readonly number[], from = 0, to = h.length): number {
  const last = Math.min(to, h.length) - bytes.length
  outer: for (let i = Math.max(0, from); i <= last; i++) {
    for (let k = 0; k < bytes.length; k++) if (h[i + k] !== bytes[k]) continue outer
    return i
  }
  return -1
}

function lastIndexOf(h: Uint8Array, bytes: readonly number[]): number {
  outer: for (let i = h.length - bytes.length; i >= 0; i--) {
    for (let k = 0; k < bytes.length; k++) if (h[i + k] !== bytes[k]) continue outer
    return i
  }
  return -1
}

const PDF = ascii('%PDF-')
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]
const PNG_IEND = [0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]
const ZIP = [0x50, 0x4b, 0x03, 0x04]
const ZIP_EMPTY = [0x50, 0x4b, 0x05, 0x06]
const ZIP_EOCD = [0x50, 0x4b, 0x05, 0x06]
const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]

function isFtyp(h: Uint8Array, brands: readonly string[]): boolean {
  if (!startsWith(h, ascii('ftyp'), 4)) return false
  const brand = String.fromCharCode(...h.subarray(8, 12))
  return brands.includes(brand)
}

const HEIF_BRANDS = ['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1', 'avif', 'avis']

/** Signatures Bookdrop recognises, to say what a file holds when it is not what its name says. */
const KNOWN: readonly Sig[] = [
  { what: 'a PDF document', test: (h) => indexOf(h, PDF, 0, 1024) >= 0 },
  { what: 'a PNG image', test: (h) => startsWith(h, PNG) },
  { what: 'a JPEG image', test: (h) => startsWith(h, [0xff, 0xd8, 0xff]) },
  { what: 'a GIF image', test: (h) => startsWith(h, ascii('GIF87a')) || startsWith(h, ascii('GIF89a')) },
  { what: 'a WebP image', test: (h) => startsWith(h, ascii('RIFF')) && startsWith(h, ascii('WEBP'), 8) },
  { what: 'a BMP image', test: (h) => startsWith(h, ascii('BM')) && h.length >= 14 && !looksLikeText(h) },
  { what: 'a TIFF image', test: (h) => startsWith(h, [0x49, 0x49, 0x2a, 0x00]) || startsWith(h, [0x4d, 0x4d, 0x00, 0x2a]) },
  { what: 'a HEIC image', test: (h) => isFtyp(h, HEIF_BRANDS) },
  { what: 'a ZIP archive', test: (h) => startsWith(h, ZIP) || startsWith(h, ZIP_EMPTY) },
  { what: 'an Office document (OLE)', test: (h) => startsWith(h, CFB) },
  { what: 'a Windows program', test: (h) => startsWith(h, ascii('MZ')) && !looksLikeText(h) },
  { what: 'a Linux program', test: (h) => startsWith(h, [0x7f, 0x45, 0x4c, 0x46]) },
  {
    what: 'a macOS program',
    test: (h) =>
      startsWith(h, [0xfe, 0xed, 0xfa, 0xce]) ||
      startsWith(h, [0xfe, 0xed, 0xfa, 0xcf]) ||
      startsWith(h, [0xce, 0xfa, 0xed, 0xfe]) ||
      startsWith(h, [0xcf, 0xfa, 0xed, 0xfe]) ||
      startsWith(h, [0xca, 0xfe, 0xba, 0xbe]),
  },
  { what: 'a gzip archive', test: (h) => startsWith(h, [0x1f, 0x8b]) },
  { what: 'a 7-Zip archive', test: (h) => startsWith(h, [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
  { what: 'a RAR archive', test: (h) => startsWith(h, ascii('Rar!\x1a\x07')) },
  { what: 'a script', test: (h) => startsWith(h, ascii('#!')) },
  { what: 'a video or audio file', test: (h) => startsWith(h, ascii('ftyp'), 4) },
]

function dv(h: Uint8Array): DataView {
  return new DataView(h.buffer, h.byteOffset, h.byteLength)
}

/** What the bytes hold, in words: a known signature, text, or null. */
export function describeBytes(head: Uint8Array): string | null {
  for (const s of KNOWN) if (s.test(head)) return s.what
  if (head.length > 0 && looksLikeText(head)) return 'text'
  return null
}

/** Text: no NUL byte (UTF-16 with its byte-order mark aside) and no C0 control other than tab, CR, LF, FF, ESC, SUB. */
function looksLikeText(h: Uint8Array): boolean {
  if (startsWith(h, [0xff, 0xfe]) || startsWith(h, [0xfe, 0xff])) return true
  for (const b of h) {
    if (b === 0) return false
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c && b !== 0x1b && b !== 0x1a) return false
  }
  return true
}

/** Drops trailing bytes a writer may pad a finished file with (NUL, whitespace). */
function trimEnd(t: Uint8Array): Uint8Array {
  let end = t.length
  while (end > 0 && (t[end - 1] === 0x00 || t[end - 1] === 0x20 || t[end - 1] === 0x0a || t[end - 1] === 0x0d || t[end - 1] === 0x09))
    end--
  return t.subarray(0, end)
}

interface Rule {
  /** The kind's own signature. */
  is(h: Uint8Array): boolean
  /** Other contents accepted under this extension (e.g. an .xls that is really text). */
  alsoOk?(h: Uint8Array): boolean
  /** Whether it looks finished; absent: no end marker ('unknown'). */
  complete?(i: InspectInput): { complete: 'yes' | 'no' | 'unknown'; missing: string | null }
  name: string
}

const yes = { complete: 'yes' as const, missing: null }
const unknown = { complete: 'unknown' as const, missing: null }
const no = (missing: string) => ({ complete: 'no' as const, missing })

const PDF_RULE: Rule = {
  name: 'a PDF',
  is: (h) => indexOf(h, PDF, 0, 1024) >= 0,
  complete: ({ tail }) => (lastIndexOf(tail, ascii('%%EOF')) >= 0 ? yes : no('the %%EOF end marker')),
}
const JPEG_RULE: Rule = {
  name: 'a JPEG image',
  is: (h) => startsWith(h, [0xff, 0xd8, 0xff]),
  complete: ({ tail }) => {
    const t = trimEnd(tail)
    return t.length >= 2 && t[t.length - 2] === 0xff && t[t.length - 1] === 0xd9 ? yes : unknown
  },
}
/** Text: no NUL or other binary control byte in the head, and not a PDF (whose header reads as text). */
const TEXT_RULE: Rule = { name: 'text', is: (h) => looksLikeText(h) && !startsWith(h, PDF) }

const RULES: Record<string, Rule> = {
  pdf: PDF_RULE,
  jpg: JPEG_RULE,
  jpeg: JPEG_RULE,
  png: {
    name: 'a PNG image',
    is: (h) => startsWith(h, PNG),
    complete: ({ tail }) => {
      const t = trimEnd(tail)
      // IEND's own bytes end in 0x60 0x82, which trimEnd leaves alone.
      return t.length >= PNG_IEND.length && startsWith(t, PNG_IEND, t.length - PNG_IEND.length) ? yes : no('the IEND end chunk')
    },
  },
  gif: {
    name: 'a GIF image',
    is: (h) => startsWith(h, ascii('GIF87a')) || startsWith(h, ascii('GIF89a')),
    complete: ({ tail }) => (trimEnd(tail).at(-1) === 0x3b ? yes : no('the GIF trailer')),
  },
  webp: {
    name: 'a WebP image',
    is: (h) => startsWith(h, ascii('RIFF')) && startsWith(h, ascii('WEBP'), 8),
    complete: ({ head, size }) => (head.length >= 8 && dv(head).getUint32(4, true) + 8 <= size ? yes : no('the rest of the image its header announces')),
  },
  bmp: {
    name: 'a BMP image',
    is: (h) => startsWith(h, ascii('BM')) && !looksLikeText(h),
    complete: ({ head, size }) => {
      if (head.length < 6) return no('its header')
      const declared = dv(head).getUint32(2, true)
      if (declared === 0) return unknown
      return declared <= size ? yes : no('the rest of the image its header announces')
    },
  },
  tif: { name: 'a TIFF image', is: (h) => startsWith(h, [0x49, 0x49, 0x2a, 0x00]) || startsWith(h, [0x4d, 0x4d, 0x00, 0x2a]) },
  tiff: { name: 'a TIFF image', is: (h) => startsWith(h, [0x49, 0x49, 0x2a, 0x00]) || startsWith(h, [0x4d, 0x4d, 0x00, 0x2a]) },
  heic: { name: 'a HEIC image', is: (h) => isFtyp(h, HEIF_BRANDS) },
  xlsx: {
    name: 'an Excel workbook (a ZIP)',
    is: (h) => startsWith(h, ZIP),
    complete: ({ tail }) => {
      const at = lastIndexOf(tail, ZIP_EOCD)
      if (at < 0 || tail.length - at < 22) return no('the end of its ZIP directory')
      const commentLength = dv(tail).getUint16(at + 20, true)
      return at + 22 + commentLength <= tail.length ? yes : no('the end of its ZIP directory')
    },
  },
  xls: {
    name: 'an Excel workbook',
    is: (h) => startsWith(h, CFB),
    // Many "xls" exports (banks, web shops) are really an xlsx, or HTML, XML or tab-separated text.
    alsoOk: (h) => startsWith(h, ZIP) || TEXT_RULE.is(h),
  },
  txt: TEXT_RULE,
  csv: TEXT_RULE,
  eml: TEXT_RULE,
  vcf: TEXT_RULE,
}

/**
 * Do the bytes match the extension, and does the file look finished? Pure; reads only the two
 * windows given. A kind without a rule matches anything (its completeness is 'unknown').
 */
export function inspect(input: InspectInput): InspectVerdict {
  const kind = typeof input.kind === 'string' ? input.kind.toLowerCase() : ''
  const head = input.head instanceof Uint8Array ? input.head : new Uint8Array(0)
  const tail = input.tail instanceof Uint8Array ? input.tail : new Uint8Array(0)
  const size = Number.isFinite(input.size) && input.size >= 0 ? input.size : head.length
  const rule = RULES[kind]
  const holds = describeBytes(head)
  if (!rule) return { matches: true, holds, complete: 'unknown', missing: null }
  if (size === 0) return { matches: true, holds: null, complete: 'unknown', missing: null }
  if (rule.is(head)) {
    const c = rule.complete ? rule.complete({ kind, size, head, tail }) : unknown
    return { matches: true, holds, complete: c.complete, missing: c.missing }
  }
  if (rule.alsoOk?.(head)) return { matches: true, holds, complete: 'unknown', missing: null }
  return { matches: false, holds, complete: 'unknown', missing: null }
}

/** The reason a mismatch is skipped with: "named .pdf but holds a ZIP archive". */
export function mismatchMessage(kind: string, v: InspectVerdict): string {
  const named = kind ? `named .${kind}` : 'without an extension'
  const rule = RULES[kind]
  const holds = v.holds ? `holds ${v.holds}` : `does not start like ${rule?.name ?? 'its kind'}`
  return `${named} but ${holds}`
}
