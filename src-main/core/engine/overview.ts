/**
 * The overview's figures in the history database (../store/overview.ts): seat and credit grants made
 * from this app (the grant store, opened on first use), a profile's month of uploads by day, and the
 * client health figures.
 */
import type { Db } from '../store/db'
import { GrantStore, type Month, type UploadMonth, healthFigures, uploadMonth } from '../store/overview'

export class OverviewFigures {
  private grantStore: GrantStore | null = null

  constructor(private readonly db: Db) {}

  /** Seat and credit grants made from this app (the API lists none), in this database. */
  get grants(): GrantStore {
    return (this.grantStore ??= new GrantStore(this.db))
  }

  /** One local month of a profile's uploads, by day (the overview). */
  uploadMonth(profileId: string, m: Month): UploadMonth {
    return uploadMonth(this.db, profileId, m)
  }

  /** A profile's last completed upload and its jobs processing since before `stuckBefore`. */
  healthFigures(profileId: string, stuckBefore: number): ReturnType<typeof healthFigures> {
    return healthFigures(this.db, profileId, stuckBefore)
  }
}
