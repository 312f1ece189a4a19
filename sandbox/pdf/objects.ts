/**
 * A small reader of PDF objects: enough for a stream's dictionary (names, numbers, references,
 * strings, arrays, nested dictionaries), as PDF.js's lexer reads them, and the objects a /Length or
 * a filter may refer to.
 */
/** A stream's dictionary is looked for this far back from its `stream` keyword. */
const DICT_WINDOW = 16 * 1024

export type PdfValue =
  | { t: 'name'; v: string }
  | { t: 'num'; v: number }
  | { t: 'ref'; n: number }
  | { t: 'array'; v: PdfValue[] }
  | { t: 'dict'; v: Map<string, PdfValue> }
  | { t: 'other' }

export const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20])
const DELIM = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25])

/** A name as written, its #xx escapes read: Fl#61teDecode is FlateDecode. */
export function unescapeName(name: string): string {
  return name.replace(/#([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
}

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
      return { t: 'name', v: unescapeName(this.word()) }
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

export function isDelimiter(code: number): boolean {
  return Number.isNaN(code) || WHITE.has(code) || DELIM.has(code)
}

/** `N G obj <integer> endobj` and `N G obj /Name endobj`: what a /Length or a filter may refer to. */
export function simpleObjects(text: string): { ints: Map<number, number>; names: Map<number, string> } {
  const ints = new Map<number, number>()
  const names = new Map<number, string>()
  for (const m of text.matchAll(/(\d+)\s+\d+\s+obj\s*(?:(\d+)|\/([^\s/<>[\]()%{}]+))\s*endobj/g)) {
    const n = Number(m[1])
    if (m[2] !== undefined) ints.set(n, Math.max(ints.get(n) ?? 0, Number(m[2])))
    else if (m[3] !== undefined) names.set(n, unescapeName(m[3]))
  }
  return { ints, names }
}

/** The dictionary right before a `stream` keyword at `at`, or null when it cannot be read. */
export function streamDict(text: string, at: number): Map<string, PdfValue> | null {
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
