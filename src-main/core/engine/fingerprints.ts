/**
 * The engine's content fingerprints (issue 33, src-main/core/fingerprint/): the limited worker that
 * computes them, the index in the history database that keeps them, and the two questions the
 * holding flow asks (lookupNear for a stored row, nearOf for a new fingerprint).
 */
import type { PossibleDuplicate } from '../../../contract/possible-duplicate'
import type { TaskPool } from '../../../workers/pool'
import { FINGERPRINT_LIMITS, type Fingerprint, Fingerprinter, SqlFingerprintIndex, lookupNear, nearOf } from '../fingerprint'
import type { FingerprintTasks } from '../fingerprint/fingerprinter'
import type { IntakeFingerprints } from '../fingerprint/intake'
import type { Db } from '../store/db'
import type { Upload, UploadStore } from '../store/uploads'

export class EngineFingerprints implements IntakeFingerprints {
  readonly index: SqlFingerprintIndex
  readonly fingerprinter: Fingerprinter

  constructor(
    db: Db,
    private readonly uploads: Pick<UploadStore, 'get'>,
    /** EngineOptions.fingerprints (default on). */
    private readonly on: boolean,
    /** The engine's intake worker (./intake-pool.ts), which the engine closes. */
    pool: TaskPool<FingerprintTasks>,
  ) {
    this.index = new SqlFingerprintIndex(db)
    this.fingerprinter = new Fingerprinter(FINGERPRINT_LIMITS, pool)
  }

  enabled(): boolean {
    return this.on
  }

  /** The receipt a stored row looks like (sent first, then on its way), or null. */
  lookupNear(row: Pick<Upload, 'id' | 'profileId' | 'target'>): PossibleDuplicate | null {
    return lookupNear(this.uploads, this.index, row)
  }

  /** The receipt a new fingerprint looks like (intake, inside its transaction), or null. */
  nearOf(q: {
    profileId: string
    target: string
    fp: Fingerprint
    exclude?: number
  }): PossibleDuplicate | null {
    return nearOf(this.uploads, this.index, q)
  }

  close(): Promise<void> {
    return this.fingerprinter.close()
  }
}
