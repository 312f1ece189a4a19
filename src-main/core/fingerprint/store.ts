/** The fingerprints of a history database (FingerprintIndex, see ./index.ts). */
import type { Db } from '../store/db'
import type { Fingerprint, FingerprintIndex, NearMatch } from './index'

export class SqlFingerprintIndex implements FingerprintIndex {
  constructor(private readonly db: Db) {}
  remember(_profileId: string, _target: string, _uploadId: number, _fp: Fingerprint): void {}
  findNear(profileId: string, target: string, fp: Fingerprint, exclude?: number): NearMatch | null {
    return this.findAllNear(profileId, target, fp, exclude)[0] ?? null
  }
  findAllNear(_profileId: string, _target: string, _fp: Fingerprint, _exclude?: number): NearMatch[] {
    void this.db
    return []
  }
  of(_uploadId: number): Fingerprint | null {
    return null
  }
  forget(_uploadId: number): void {}
}
