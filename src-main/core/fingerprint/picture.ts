/**
 * The perceptual hash of a picture (issue 33): a photo as prepared, or a scanned PDF's page image.
 *
 * 1. Decoded grey, at most WORK_EDGE px (compute.ts): a prepared photo as it is. Read smaller, the
 *    content box is a pixel less precise, and text edges move a third of a cell: copies then differ
 *    as much as receipts with another digit (measured: docs/duplicates.md).
 * 2. Its content box: the rows and columns where the picture has edges (the paper's border on a
 *    table, the print on it). A crop that cuts only the table or the paper's blank margin leaves
 *    the box where it was; scaling and re-compression do not move it either.
 * 3. The box scaled to NORM_W × NORM_H cells (whatever its shape; `aspect` keeps the shape):
 *    - the global hash: 64-bit DCT hash of the box at 32 × 32 (the classic pHash), banded for the
 *      index (store.ts) and compared by Hamming distance;
 *    - the regions: a COLS × ROWS grid of CELL × CELL cells, each cell the box's mean grey there
 *      (4 bits, one hex digit). Two regions are as far apart as their most different cell
 *      (regionDistance, in levels of 16): a few digits of a total change some cells of one region
 *      by many levels, while re-compression, scaling and a content box a fraction of a cell off
 *      change every cell by a few. A match needs EVERY region close, never an average.
 * The thresholds (PICTURE_MATCH) come from the test set (docs/duplicates.md).
 */
import type { PictureHash } from './types'

/** Longest edge a picture is read at: a prepared photo's (PHOTO_DEFAULTS.photoMaxEdge) is read as it is. */
export const WORK_EDGE = 2400
export const COLS = 4
export const ROWS = 8
/** Cells per region side: the box is kept as 128 × 256 cells, a region as 32 × 32. */
export const CELL = 32
export const NORM_W = COLS * CELL
export const NORM_H = ROWS * CELL

/**
 * When two picture hashes are the same receipt (chosen from the test set, docs/duplicates.md):
 * global hash within `global` bits (the index finds every hash within 7: store.ts), shapes within
 * `aspect` (ratio), and every region within `region` levels (of 16).
 */
export const PICTURE_MATCH = { global: 7, aspect: 0.04, region: 3 } as const

type Gray = { data: Uint8Array; width: number; height: number }

/** The box holding the picture's content (edges), or the whole picture when it has none. */
export function contentBox(g: Gray): { left: number; top: number; width: number; height: number } {
  const { data, width: w, height: h } = g
  const cols = new Uint32Array(w)
  const rows = new Uint32Array(h)
  const T = 28
  for (let y = 0; y < h - 1; y++) {
    const o = y * w
    for (let x = 0; x < w - 1; x++) {
      const v = data[o + x]!
      if (Math.abs(v - data[o + x + 1]!) > T || Math.abs(v - data[o + x + w]!) > T) {
        cols[x]!++
        rows[y]!++
      }
    }
  }
  const minCol = Math.max(2, Math.round(h * 0.004))
  const minRow = Math.max(2, Math.round(w * 0.004))
  let left = 0
  while (left < w && cols[left]! < minCol) left++
  let right = w - 1
  while (right > left && cols[right]! < minCol) right--
  let top = 0
  while (top < h && rows[top]! < minRow) top++
  let bottom = h - 1
  while (bottom > top && rows[bottom]! < minRow) bottom--
  if (right - left < 16 || bottom - top < 16) return { left: 0, top: 0, width: w, height: h }
  return { left, top, width: right - left + 1, height: bottom - top + 1 }
}

/** Area-average resample of a box of `g` to `W` × `H` (float values). */
export function resample(
  g: Gray,
  box: { left: number; top: number; width: number; height: number },
  W: number,
  H: number,
): Float32Array {
  const out = new Float32Array(W * H)
  const sx = box.width / W
  const sy = box.height / H
  for (let Y = 0; Y < H; Y++) {
    const y0 = box.top + Y * sy
    const y1 = y0 + sy
    for (let X = 0; X < W; X++) {
      const x0 = box.left + X * sx
      const x1 = x0 + sx
      let sum = 0
      let area = 0
      for (let y = Math.floor(y0); y < Math.ceil(y1); y++) {
        const wy = Math.min(y1, y + 1) - Math.max(y0, y)
        if (wy <= 0) continue
        const row = Math.min(g.height - 1, y) * g.width
        for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
          const wx = Math.min(x1, x + 1) - Math.max(x0, x)
          if (wx <= 0) continue
          sum += g.data[row + Math.min(g.width - 1, x)]! * wx * wy
          area += wx * wy
        }
      }
      out[Y * W + X] = area > 0 ? sum / area : 255
    }
  }
  return out
}

const DCT_N = 32
let cosTable: Float64Array | null = null
function cosines(): Float64Array {
  if (cosTable) return cosTable
  cosTable = new Float64Array(DCT_N * DCT_N)
  for (let u = 0; u < DCT_N; u++)
    for (let x = 0; x < DCT_N; x++)
      cosTable[u * DCT_N + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * DCT_N))
  return cosTable
}

/** 64-bit DCT hash of a 32 × 32 picture: the 8 × 8 lowest frequencies against their median. */
export function dctHash(px: Float32Array): string {
  const c = cosines()
  const tmp = new Float64Array(8 * DCT_N)
  for (let u = 0; u < 8; u++)
    for (let y = 0; y < DCT_N; y++) {
      let s = 0
      for (let x = 0; x < DCT_N; x++) s += px[y * DCT_N + x]! * c[u * DCT_N + x]!
      tmp[u * DCT_N + y] = s
    }
  const coef = new Float64Array(64)
  for (let v = 0; v < 8; v++)
    for (let u = 0; u < 8; u++) {
      let s = 0
      for (let y = 0; y < DCT_N; y++) s += tmp[u * DCT_N + y]! * c[v * DCT_N + y]!
      coef[v * 8 + u] = s
    }
  const sorted = [...coef.subarray(1)].sort((a, b) => a - b)
  const median = sorted[31]!
  let hex = ''
  for (let i = 0; i < 64; i += 4) {
    let nib = 0
    for (let j = 0; j < 4; j++) nib = (nib << 1) | (coef[i + j]! > median ? 1 : 0)
    hex += nib.toString(16)
  }
  return hex
}

/** The hash of a grey picture (see the module's comment). */
export function hashGray(g: Gray): PictureHash {
  const box = contentBox(g)
  const cells = resample(g, box, NORM_W, NORM_H)
  // The global hash's 32 × 32 picture: means of the cells (4 × 8 each), not a second pass over the pixels.
  const small = new Float32Array(DCT_N * DCT_N)
  const bw = NORM_W / DCT_N
  const bh = NORM_H / DCT_N
  for (let y = 0; y < NORM_H; y++)
    for (let x = 0; x < NORM_W; x++)
      small[Math.floor(y / bh) * DCT_N + Math.floor(x / bw)]! += cells[y * NORM_W + x]! / (bw * bh)
  const global = dctHash(small)
  const regions: string[] = []
  for (let r = 0; r < ROWS; r++)
    for (let c = 0; c < COLS; c++) {
      const digits: string[] = []
      for (let y = 0; y < CELL; y++)
        for (let x = 0; x < CELL; x++)
          digits.push(
            Math.min(15, Math.round(cells[(r * CELL + y) * NORM_W + c * CELL + x]! / 17)).toString(16),
          )
      regions.push(digits.join(''))
    }
  return { global, regions, cols: COLS, rows: ROWS, aspect: box.width / box.height }
}

const POP = new Uint8Array(16).map((_, i) => (i & 1) + ((i >> 1) & 1) + ((i >> 2) & 1) + ((i >> 3) & 1))
/** A hex digit's value by its character code (0 for anything else). */
const HEX = new Uint8Array(128)
for (let i = 0; i < 16; i++) HEX[i.toString(16).charCodeAt(0)] = i

/** Bits that differ between two hex hashes of one length. */
export function hamming(a: string, b: string): number {
  let d = 0
  for (let i = 0; i < a.length; i++) d += POP[HEX[a.charCodeAt(i)]! ^ HEX[b.charCodeAt(i)]!]!
  return d
}

/** How far two regions are: the largest difference of one cell, in levels (0–15). */
export function regionDistance(a: string, b: string): number {
  if (a.length !== b.length) return 15
  let worst = 0
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(HEX[a.charCodeAt(i)]! - HEX[b.charCodeAt(i)]!)
    if (d > worst) worst = d
  }
  return worst
}

/** How two picture hashes compare: their global distance, shape ratio and farthest region. */
export function pictureDistance(
  a: PictureHash,
  b: PictureHash,
): { global: number; aspect: number; region: number } {
  const aspect = Math.abs(Math.log(a.aspect / b.aspect))
  let region = 0
  if (a.cols !== b.cols || a.rows !== b.rows || a.regions.length !== b.regions.length) region = 15
  else
    for (let i = 0; i < a.regions.length; i++)
      region = Math.max(region, regionDistance(a.regions[i]!, b.regions[i]!))
  return { global: hamming(a.global, b.global), aspect, region }
}

/** True when two picture hashes are the same receipt (PICTURE_MATCH). */
export function samePicture(a: PictureHash, b: PictureHash): boolean {
  if (hamming(a.global, b.global) > PICTURE_MATCH.global) return false
  const d = pictureDistance(a, b)
  return d.aspect <= PICTURE_MATCH.aspect && d.region <= PICTURE_MATCH.region
}
