/**
 * The profiles room: one registry over the two secret stores (the OS keychain for real keys, memory
 * for the demo's), with names unique across both; adding, renaming, rotating and removing a key,
 * and the active profile.
 */
import pkg from '../../../package.json' with { type: 'json' }
import type { Calls, ParsedReq, ProfileList } from '../../../contract'
import type { AppContext } from './context'
import { systemLanguages } from './language'
import type { Room } from './room'

export type ProfilesRoom = Room<
  'getAppInfo' | 'listProfiles' | 'addProfile' | 'rotateProfileKey' | 'renameProfile' | 'removeProfile' | 'setActiveProfile'
>

export function profilesRoom(ctx: AppContext): ProfilesRoom {
  return {
    async getAppInfo(): Promise<Calls['getAppInfo']> {
      const info = ctx.real.describeStore()
      return {
        version: pkg.version,
        host: ctx.host,
        platform: process.platform,
        languages: systemLanguages(ctx),
        demo: ctx.demo !== null,
        keychain: {
          backend: info.backend,
          label: info.label,
          persistent: info.persistent,
          problem: ctx.keychainProblem ?? info.problem ?? null,
        },
      }
    },

    async listProfiles(): Promise<ProfileList> {
      return ctx.profileList()
    },

    async addProfile(req: ParsedReq<'addProfile'>): Promise<Calls['addProfile']> {
      const profile = await ctx.addTo(ctx.real, req)
      const current = ctx.active ? ctx.entry(ctx.active) : undefined
      // The first real profile takes over from nothing, or from the demo.
      if (!current || current.demo) await ctx.setActive(profile.id)
      else ctx.emitProfiles()
      return { ...profile, demo: false }
    },

    async rotateProfileKey(req: ParsedReq<'rotateProfileKey'>): Promise<Calls['rotateProfileKey']> {
      const e = ctx.mustEntry(req.id)
      const profile = await e.manager.rotate(
        req.id,
        req.secret,
        req.bearerToken === undefined ? {} : { bearerToken: req.bearerToken },
      )
      ctx.forgetClient(req.id)
      const state = ctx.engine.profileState(req.id).state
      if (state === 'auth_required' || state === 'forbidden') {
        ctx.engine.resume(req.id)
        // Files refused for the old key go again; other failures stay for a person to look at.
        for (const row of [...ctx.engine.uploads.iterate({ statuses: ['failed'], profileId: req.id })]) {
          if (row.httpStatus === 401 || row.httpStatus === 403 || row.errorCode === 'no_key') {
            await ctx.engine.retry(row.id).catch(() => undefined)
          }
        }
      }
      ctx.emitProfiles()
      if (req.id === ctx.active) ctx.emitSession()
      return { ...profile, demo: e.demo }
    },

    async renameProfile(req: ParsedReq<'renameProfile'>): Promise<Calls['renameProfile']> {
      const e = ctx.mustEntry(req.id)
      ctx.checkNameFree(req.name, req.id)
      const profile = await e.manager.rename(req.id, req.name)
      ctx.emitProfiles()
      return { ...profile, demo: e.demo }
    },

    async removeProfile(req: ParsedReq<'removeProfile'>): Promise<ProfileList> {
      const e = ctx.mustEntry(req.id)
      await e.manager.remove(req.id)
      ctx.forgetClient(req.id)
      // Its folders stop; its files still waiting will not be sent (history keeps them, cancelled).
      for (const f of ctx.engine.folders.list().filter((f) => f.profileId === req.id))
        await ctx.engine.removeFolder(f.id)
      const waiting = ctx.engine.uploads.iterate({ statuses: ['queued', 'waiting_retry', 'processing'], profileId: req.id })
      for (const row of [...waiting]) {
        try {
          ctx.engine.cancel(row.id)
        } catch {
          // It moved on meanwhile.
        }
      }
      if (ctx.active === req.id) {
        const next = ctx.profileList().profiles.find((p) => !p.demo) ?? ctx.profileList().profiles[0]
        await ctx.setActive(next?.id ?? null)
      } else {
        ctx.emitProfiles()
      }
      return ctx.profileList()
    },

    async setActiveProfile(req: ParsedReq<'setActiveProfile'>): Promise<ProfileList> {
      await ctx.setActive(req.id)
      return ctx.profileList()
    },
  }
}
