/**
 * Issue 33's test set, built from receipts.ts: pairs that are one receipt twice (must match) and
 * pairs that only look alike (must not). Each photo is prepared as intake prepares it
 * (prepare/images.ts, the Settings' defaults) before it is fingerprinted, as the engine does.
 */
import { prepareImage } from '../../src-main/core/prepare/images'
import { PHOTO_DEFAULTS } from '../../src-main/core/prepare/preparer'
import {
  crop,
  otherTotal,
  receipt,
  receiptPdf,
  receiptPhoto,
  reencode,
  rescale,
  scannedPdf,
} from './receipts'

export interface Pair {
  /** What the pair is, for the printed table. */
  name: string
  group: 'photo' | 'pdf' | 'scan'
  same: boolean
  a: { bytes: Uint8Array; kind: 'pdf' | 'image' }
  b: { bytes: Uint8Array; kind: 'pdf' | 'image' }
}

/** A photo as intake sends it: prepared with the default settings (or as it is when small). */
export async function asPrepared(jpeg: Buffer): Promise<{ bytes: Uint8Array; kind: 'image' }> {
  const out = await prepareImage({
    bytes: jpeg,
    maxEdge: PHOTO_DEFAULTS.photoMaxEdge,
    quality: PHOTO_DEFAULTS.photoQuality,
    maxPixels: 50_000_000,
    keepBelowBytes: 1024 * 1024,
  })
  return { bytes: out.kind === 'as_is' ? jpeg : out.bytes, kind: 'image' }
}

const pdf = (bytes: Uint8Array) => ({ bytes, kind: 'pdf' as const })

/**
 * The pairs. `big`: how many templates get a real 4000 × 3000 photo (scaled to 1600 × 1200); the
 * others are drawn at 2000 × 1500 (scaled to 1600 × 1200 too) to keep the test's time down.
 */
export async function buildTestSet(o: { big?: number } = {}): Promise<Pair[]> {
  const big = o.big ?? 2
  const pairs: Pair[] = []
  const TEMPLATES = 7
  for (let t = 0; t < TEMPLATES; t++) {
    const rc = receipt(t, t + 1)
    const [W, H] = t < big ? [4000, 3000] : [2000, 1500]
    const photo = await receiptPhoto(rc, { width: W, height: H })
    const A = await asPrepared(photo)
    // One receipt twice.
    pairs.push({
      name: `t${t} photo, re-encoded at q70`,
      group: 'photo',
      same: true,
      a: A,
      b: await asPrepared(await reencode(photo, 70)),
    })
    pairs.push({
      name: `t${t} photo ${W}×${H}, scaled to 1600×1200`,
      group: 'photo',
      same: true,
      a: A,
      b: await asPrepared(await rescale(photo, 1600, 1200)),
    })
    const sides = [
      ['left', 'top', 'right', 'bottom'],
      ['left', 'top'],
      ['right', 'bottom'],
      ['top'],
      ['left'],
    ] as const
    const pct = 2 + (t % 3)
    pairs.push({
      name: `t${t} photo, ${pct} % cropped (${sides[t % 5]!.join('+')})`,
      group: 'photo',
      same: true,
      a: A,
      b: await asPrepared(await crop(photo, pct, sides[t % 5]!)),
    })
    pairs.push({
      name: `t${t} photo, q70 then 3 % cropped`,
      group: 'photo',
      same: true,
      a: A,
      b: await asPrepared(await crop(await reencode(photo, 70), 3, ['bottom', 'right'])),
    })
    const pdfA = pdf(await receiptPdf(rc, 0))
    pairs.push({
      name: `t${t} PDF, downloaded again`,
      group: 'pdf',
      same: true,
      a: pdfA,
      b: pdf(await receiptPdf(rc, 1 + t)),
    })
    // Look-alikes: the same template, only digits of the total changed (1, 2 or 3 digits).
    for (let k = 0; k < 3; k++) {
      const digits = 1 + ((t + k) % 3)
      const base = k === 0 ? rc : receipt(t, 50 + t * 3 + k)
      const other = otherTotal(base, digits, 1000 + t * 10 + k)
      // Drawn at 2000 × 1500, or 1600 × 1200 (a smaller picture: fewer pixels per digit).
      const size = k === 1 ? { width: 1600, height: 1200 } : { width: 2000, height: 1500 }
      const a = k === 0 ? A : await asPrepared(await receiptPhoto(base, size))
      const b = await asPrepared(await reencode(await receiptPhoto(other, size), 85))
      pairs.push({
        name: `t${t} photos, total ${base.total} vs ${other.total}`,
        group: 'photo',
        same: false,
        a,
        b,
      })
      pairs.push({
        name: `t${t} PDFs, total ${base.total} vs ${other.total}`,
        group: 'pdf',
        same: false,
        a: pdf(await receiptPdf(base)),
        b: pdf(await receiptPdf(other)),
      })
    }
    // Another receipt of the same shop (other lines and amounts).
    const next = receipt(t, t + 200)
    pairs.push({
      name: `t${t} photos, another receipt of the shop`,
      group: 'photo',
      same: false,
      a: A,
      b: await asPrepared(await receiptPhoto(next, { width: 2000, height: 1500 })),
    })
    pairs.push({
      name: `t${t} PDFs, another receipt of the shop`,
      group: 'pdf',
      same: false,
      a: pdfA,
      b: pdf(await receiptPdf(next)),
    })
  }
  // Scans (a PDF whose page is a photo): the same scan made twice (q70), and a look-alike.
  for (let t = 0; t < 3; t++) {
    const rc = receipt(t, t + 1)
    const photo = await receiptPhoto(rc, { width: 2000, height: 1500 })
    const scan = pdf(await scannedPdf(photo))
    pairs.push({
      name: `t${t} scanned PDF, scanned again (q70)`,
      group: 'scan',
      same: true,
      a: scan,
      b: pdf(await scannedPdf(await reencode(photo, 70), 1)),
    })
    const other = await receiptPhoto(otherTotal(rc, 1 + t, 77 + t), { width: 2000, height: 1500 })
    pairs.push({
      name: `t${t} scanned PDFs, total ${rc.total} vs other`,
      group: 'scan',
      same: false,
      a: scan,
      b: pdf(await scannedPdf(other)),
    })
  }
  return pairs
}
