/** The session room: the active profile's state, and pausing or resuming its uploads. */
import type { SessionState } from '../../../contract'
import type { AppContext } from './context'
import type { Room } from './room'

export type SessionRoom = Room<'getSession' | 'pauseUploads' | 'resumeUploads'>

export function sessionRoom(ctx: AppContext): SessionRoom {
  return {
    async getSession(): Promise<SessionState> {
      return ctx.session()
    },

    async pauseUploads(): Promise<SessionState> {
      ctx.engine.pause(ctx.activeBusiness().profile.id)
      return ctx.session()
    },

    async resumeUploads(): Promise<SessionState> {
      const id = ctx.activeBusiness().profile.id
      ctx.forgetClient(id)
      ctx.engine.resume(id)
      return ctx.session()
    },
  }
}
