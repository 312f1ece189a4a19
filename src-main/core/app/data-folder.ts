/**
 * The data folder room (issue 31): how much Bookdrop's data folder takes, per part, and "Free
 * space", which deletes the local copies of receipts no unfinished upload needs (the retention's
 * rule with 0 days: engine/retention.ts).
 */
import type { DataFolderView, FreedView } from '../../../contract'
import type { AppContext } from './context'
import type { Room } from './room'

export type DataFolderRoom = Room<'getDataFolder' | 'freeDataFolder'>

export function dataFolderRoom(ctx: AppContext): DataFolderRoom {
  return {
    async getDataFolder(): Promise<DataFolderView> {
      return ctx.engine.copies.size()
    },

    async freeDataFolder(): Promise<FreedView> {
      const freed = await ctx.engine.copies.free()
      return { ...freed, size: await ctx.engine.copies.size() }
    },
  }
}
