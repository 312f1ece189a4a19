/**
 * The possible duplicates room (issue 33): Discard a held row, and the active business's setting
 * "Hold possible duplicates for me" (hold, the default) or "Send them anyway" (send). Send anyway
 * is `retryUpload` (uploads room).
 */
import type { Calls, ParsedReq } from '../../../contract'
import { AppError } from '../app-error'
import type { AppContext } from './context'
import type { Room } from './room'

export type DuplicatesRoom = Room<'discardUpload' | 'getDuplicateSetting' | 'setDuplicateSetting'>

export function duplicatesRoom(ctx: AppContext): DuplicatesRoom {
  return {
    async discardUpload(req: ParsedReq<'discardUpload'>): Promise<Calls['discardUpload']> {
      if (!ctx.engine.uploads.get(req.id)) throw new AppError('not_found', `There is no upload #${req.id}.`)
      return ctx.engine.uploads.view(await ctx.engineAction('not_discardable', () => ctx.engine.held.discard(req.id)))
    },

    async getDuplicateSetting(): Promise<Calls['getDuplicateSetting']> {
      const { profile } = ctx.activeBusiness()
      return { mode: ctx.engine.held.savedMode(profile.id) }
    },

    async setDuplicateSetting(req: ParsedReq<'setDuplicateSetting'>): Promise<Calls['setDuplicateSetting']> {
      const { profile } = ctx.activeBusiness()
      ctx.engine.held.setMode(profile.id, req.mode)
      return { mode: ctx.engine.held.savedMode(profile.id) }
    },
  }
}
