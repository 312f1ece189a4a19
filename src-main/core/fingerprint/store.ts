/**
 * The fingerprints of a history database (FingerprintIndex, see ./index.ts): its own table, made on
 * first use (like `grants`: it shares nothing with the uploads table's migrations), one row per
 * upload, per profile and target.
 *
 * A lookup never scans:
 * - text: an index on (profile, target, hash) answers an exact match;
 * - picture: the 64-bit global hash is split into four 16-bit bands, each indexed. Two hashes within
 *   7 bits share at least one band within 1 bit (pigeonhole: 4 bands × at most 1 bit = 4 < 8), so
 *   the lookup asks each band's index for its value and its 16 one-bit neighbours (68 keys), then
 *   checks the global distance of those candidates in memory (each band's index holds the hash: no
 *   row is read for that), and reads the regions (a blob) only of the ones that are close
 *   (picture.ts samePicture: shape and EVERY region).
 * Regions are kept deflated (4-bit cells; about 2–3 KB a photo, mostly paper).
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import type { Db } from '../store/db'
import type { Fingerprint, FingerprintIndex, NearMatch, PictureHash } from './types'
import { PICTURE_MATCH, hamming, samePicture } from './picture'

interface FpRow {
  upload_id: number
  kind: 'text' | 'picture'
  hash: string
  aspect: number | null
  cols: number | null
  rows: number | null
  regions: Uint8Array | null
  chars: number | null
}

/** The four 16-bit bands of a 64-bit hex hash. */
export function bands(global: string): number[] {
  return [0, 1, 2, 3].map((i) => parseInt(global.slice(i * 4, i * 4 + 4), 16))
}

/** A band value and its 16 neighbours one bit away. */
function nearBand(v: number): number[] {
  const out = [v]
  for (let b = 0; b < 16; b++) out.push(v ^ (1 << b))
  return out
}

function packRegions(regions: readonly string[]): Uint8Array {
  return deflateRawSync(Buffer.from(regions.join(''), 'latin1'))
}

function unpackRegions(blob: Uint8Array, n: number): string[] {
  const all = inflateRawSync(blob).toString('latin1')
  const len = all.length / n
  return Array.from({ length: n }, (_, i) => all.slice(i * len, (i + 1) * len))
}

export class SqlFingerprintIndex implements FingerprintIndex {
  constructor(private readonly db: Db) {
    db.raw.exec(`CREATE TABLE IF NOT EXISTS fingerprints (
      upload_id INTEGER PRIMARY KEY,
      profile_id TEXT NOT NULL,
      target TEXT NOT NULL,
      kind TEXT NOT NULL,
      hash TEXT NOT NULL,
      chars INTEGER,
      b0 INTEGER, b1 INTEGER, b2 INTEGER, b3 INTEGER,
      aspect REAL,
      cols INTEGER,
      rows INTEGER,
      regions BLOB,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX IF NOT EXISTS fingerprints_text ON fingerprints(profile_id, target, hash) WHERE kind = 'text';
    CREATE INDEX IF NOT EXISTS fingerprints_b0 ON fingerprints(profile_id, target, b0, hash) WHERE kind = 'picture';
    CREATE INDEX IF NOT EXISTS fingerprints_b1 ON fingerprints(profile_id, target, b1, hash) WHERE kind = 'picture';
    CREATE INDEX IF NOT EXISTS fingerprints_b2 ON fingerprints(profile_id, target, b2, hash) WHERE kind = 'picture';
    CREATE INDEX IF NOT EXISTS fingerprints_b3 ON fingerprints(profile_id, target, b3, hash) WHERE kind = 'picture';`)
  }

  remember(profileId: string, target: string, uploadId: number, fp: Fingerprint, now = Date.now()): void {
    // The sha256 of a row is in the uploads table already (its own index): nothing to keep.
    if (fp.kind === 'bytes') return
    const picture = fp.kind === 'picture'
    const b = picture ? bands(fp.global) : [null, null, null, null]
    this.db.run(
      `INSERT OR REPLACE INTO fingerprints (upload_id, profile_id, target, kind, hash, chars, b0, b1, b2, b3, aspect, cols, rows, regions, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      uploadId,
      profileId,
      target,
      fp.kind,
      picture ? fp.global : fp.hash,
      picture ? null : fp.chars,
      ...b,
      picture ? fp.aspect : null,
      picture ? fp.cols : null,
      picture ? fp.rows : null,
      picture ? packRegions(fp.regions) : null,
      now,
    )
  }

  findNear(profileId: string, target: string, fp: Fingerprint, exclude?: number): NearMatch | null {
    return this.findAllNear(profileId, target, fp, exclude)[0] ?? null
  }

  findAllNear(profileId: string, target: string, fp: Fingerprint, exclude?: number): NearMatch[] {
    if (fp.kind === 'bytes') return []
    if (fp.kind === 'text') {
      return this.db
        .all<{ upload_id: number }>(
          `SELECT upload_id FROM fingerprints INDEXED BY fingerprints_text
           WHERE profile_id = ? AND target = ? AND kind = 'text' AND hash = ? ORDER BY upload_id LIMIT 50`,
          profileId,
          target,
          fp.hash,
        )
        .filter((r) => r.upload_id !== exclude)
        .map((r) => ({ uploadId: r.upload_id, basis: 'same_text' as const }))
    }
    const close = new Map<number, string>()
    bands(fp.global).forEach((v, i) => {
      const keys = nearBand(v)
      const rows = this.db.all<{ upload_id: number; hash: string }>(
        `SELECT upload_id, hash FROM fingerprints INDEXED BY fingerprints_b${i}
         WHERE profile_id = ? AND target = ? AND kind = 'picture' AND b${i} IN (${keys.map(() => '?').join(', ')})`,
        profileId,
        target,
        ...keys,
      )
      for (const r of rows)
        if (r.upload_id !== exclude && hamming(r.hash, fp.global) <= PICTURE_MATCH.global)
          close.set(r.upload_id, r.hash)
    })
    const out: NearMatch[] = []
    for (const id of [...close.keys()].sort((a, b) => a - b)) {
      const other = this.picture(id)
      if (other && samePicture(fp, other)) out.push({ uploadId: id, basis: 'same_picture' })
    }
    return out
  }

  private picture(uploadId: number): PictureHash | null {
    const fp = this.of(uploadId)
    return fp?.kind === 'picture' ? fp : null
  }

  of(uploadId: number): Fingerprint | null {
    const r = this.db.get<FpRow>(
      'SELECT upload_id, kind, hash, chars, aspect, cols, rows, regions FROM fingerprints WHERE upload_id = ?',
      uploadId,
    )
    if (!r) return null
    if (r.kind === 'text') return { kind: 'text', hash: r.hash, chars: r.chars ?? 0 }
    const cols = r.cols ?? 0
    const rows = r.rows ?? 0
    return {
      kind: 'picture',
      global: r.hash,
      aspect: r.aspect ?? 1,
      cols,
      rows,
      regions: r.regions ? unpackRegions(r.regions, cols * rows) : [],
    }
  }

  forget(uploadId: number): void {
    this.db.run('DELETE FROM fingerprints WHERE upload_id = ?', uploadId)
  }

  /** Fingerprints kept (tests and figures). */
  count(): number {
    return this.db.get<{ n: number }>('SELECT count(*) AS n FROM fingerprints')?.n ?? 0
  }
}
