/**
 * The phone room (issue 25): "Add from phone" on the Capture screen. It opens the phone listener
 * (core/phone/, loaded on first use), makes the one-time link, relays the person's Allow or Refuse
 * and their "End", and closes everything with the panel. Photos a paired phone sends go through the
 * one intake as source `phone`, for the business that was active when the person allowed the phone.
 */
import { coded } from '../../../contract/coded'
import { MAIN_ERRORS as E } from '../../../contract/main-messages'
import { join } from 'node:path'
import type { Calls, PhoneState } from '../../../contract'
import { AppError } from '../app-error'
import { packageRoot } from '../paths'
import type { PhoneService } from '../phone/service'
import type { AppContext } from './context'
import type { Room } from './room'
import { readSettings } from './settings'

export interface PhoneRoomOptions {
  /** The web host's --phone-listen: this address instead of the one in Settings. */
  listen?: string
  /** The built renderer holding the phone's page (out/renderer by default). */
  rendererDir?: string
  /** Test clocks of the pairing (link lifetime, idle sessions). */
  clock?: () => number
}

export type PhoneRoom = Room<'getPhone' | 'openPhone' | 'newPhoneLink' | 'decidePhone' | 'endPhone' | 'closePhone'>

export function phoneRoom(ctx: AppContext, opts: PhoneRoomOptions = {}): PhoneRoom & { shutdown(): Promise<void> } {
  let service: PhoneService | null = null
  let loading: Promise<PhoneService> | null = null

  const businessName = (profileId: string | null): string | null => {
    const p = profileId ? ctx.entry(profileId)?.profile : undefined
    return p ? (p.business?.name ?? p.name) : null
  }

  const load = (): Promise<PhoneService> =>
    (loading ??= (async () => {
      const { PhoneService } = await import('../phone/service')
      service = new PhoneService({
        dataDir: ctx.dataDir,
        photos: ctx.engine.photos,
        rendererDir: opts.rendererDir ?? join(packageRoot(import.meta.dirname), 'out', 'renderer'),
        businessName,
        upload: (id) => ctx.engine.uploads.get(id),
        take: async (path, o) => {
          const [r] = await ctx.engine.addFiles([path], { ...o, source: 'phone' })
          if (!r) throw new Error('intake returned nothing')
          return r
        },
        onChange: (state) => ctx.emit('phone', state),
        clock: opts.clock,
      })
      return service
    })())

  const closedState = async (): Promise<PhoneState> => {
    if (service) return service.state()
    const { lanAddresses } = await import('../phone/addresses')
    return { open: false, address: null, link: null, pending: [], paired: [], refused: 0, interfaces: lanAddresses(), problem: null }
  }

  return {
    async getPhone(): Promise<Calls['getPhone']> {
      return closedState()
    },

    async openPhone(): Promise<Calls['openPhone']> {
      const s = await load()
      return s.open(opts.listen ?? readSettings(ctx).phoneListen)
    },

    async newPhoneLink(): Promise<Calls['newPhoneLink']> {
      if (!service?.state().open) throw new AppError('phone_closed', coded(E.phoneClosed))
      return service.newLink()
    },

    async decidePhone(req): Promise<Calls['decidePhone']> {
      if (!service) throw new AppError('not_found', 'No phone is waiting.')
      // Photos go to the business active now: a partner profile cannot take them.
      const profileId = req.allow ? ctx.activeBusiness().profile.id : null
      if (!service.decide(req.id, req.allow, profileId))
        throw new AppError('not_found', coded(E.phoneNotWaiting))
      return service.state()
    },

    async endPhone(req): Promise<Calls['endPhone']> {
      if (!service || !service.end(req.id)) throw new AppError('not_found', coded(E.phoneNotFound))
      return service.state()
    },

    async closePhone(): Promise<Calls['closePhone']> {
      return service ? service.close() : closedState()
    },

    async shutdown() {
      await (await loading?.catch(() => null))?.shutdown()
    },
  }
}
