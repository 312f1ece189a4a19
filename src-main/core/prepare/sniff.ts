/**
 * What a file's bytes are, by their first bytes (never by its name): the images worker decides by
 * this what to prepare, and the phone listener which photos it takes. Pure and cheap (64 bytes).
 */

/** What the bytes are, by their first bytes (never by the name). */
export type SniffedKind = 'jpeg' | 'png' | 'webp' | 'heic' | 'avif' | 'tiff' | 'gif' | 'bmp' | 'pdf' | 'other'

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs', 'mif1', 'msf1'])

function ascii(b: Uint8Array, from: number, to: number): string {
  let s = ''
  for (let i = from; i < Math.min(to, b.length); i++) s += String.fromCharCode(b[i]!)
  return s
}

export function sniffKind(b: Uint8Array): SniffedKind {
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'jpeg'
  if (b.length >= 8 && ascii(b, 1, 4) === 'PNG' && b[0] === 0x89) return 'png'
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 12) === 'WEBP') return 'webp'
  if (ascii(b, 4, 8) === 'ftyp') {
    const major = ascii(b, 8, 12)
    if (major === 'avif' || major === 'avis') return 'avif'
    if (HEIF_BRANDS.has(major)) return 'heic'
    // Compatible brands, after the minor version: a HEIF may name another major brand first.
    const boxSize = ((b[0]! << 24) | (b[1]! << 16) | (b[2]! << 8) | b[3]!) >>> 0
    for (let i = 16; i + 4 <= Math.min(boxSize, 64, b.length); i += 4) {
      const brand = ascii(b, i, i + 4)
      if (HEIF_BRANDS.has(brand)) return 'heic'
      if (brand === 'avif') return 'avif'
    }
    return 'other'
  }
  if (ascii(b, 0, 4) === 'II*\0' || ascii(b, 0, 4) === 'MM\0*') return 'tiff'
  if (ascii(b, 0, 4) === 'GIF8') return 'gif'
  if (ascii(b, 0, 2) === 'BM') return 'bmp'
  if (ascii(b, 0, 5) === '%PDF-') return 'pdf'
  return 'other'
}

