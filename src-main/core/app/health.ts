/**
 * The health room: client health (one row per business profile on this machine) and the overview
 * (a business's month of uploads from the history; a partner's grants and businesses without seats).
 */
import { AI_CREDITS_PER_CREATE, type ReferredBusinessRow } from '../../../schemas'
import type { ClientHealth, Overview, ParsedReq } from '../../../contract'
import type { Profile } from '../secrets'
import { ATTENTION_STATUSES, type Month, monthOf } from '../store/overview'
import { type AppContext, isBusinessKind } from './context'
import { allReferred } from './partner'
import type { Room } from './room'

/** A job still processing this long after its file was added counts as stuck (client health). */
export const STUCK_AFTER_MS = 60 * 60 * 1000

export type HealthRoom = Room<'getClientHealth' | 'getOverview'>

export function healthRoom(ctx: AppContext): HealthRoom {
  const partnerOverview = async (profileId: string, m: Month): Promise<Overview> => {
    const grants = ctx.engine.overview.grants.month(profileId, m)
    let referred: ReferredBusinessRow[] | null = null
    let error: string | null = null
    try {
      referred = await allReferred(ctx, profileId)
    } catch (err) {
      error = `Your referred businesses could not be listed: ${ctx.messageOf(err)}`
    }
    const names = new Map(referred?.map((r) => [r.uuid, r.name]))
    return {
      kind: 'partner',
      month: m.month,
      ...grants,
      grants: grants.grants.map((g) => ({ ...g, businessName: names.get(g.businessUuid) ?? null })),
      businesses: referred?.length ?? null,
      withoutSeats: referred?.filter((r) => !(r.available_seats > 0)) ?? null,
      error,
    }
  }

  return {
    /**
     * One row per business profile on this machine: its folders, last completed upload, jobs stuck
     * in processing for over an hour, failed files, and — when the active profile is a partner that
     * referred it — its AI credit balance.
     */
    async getClientHealth(): Promise<ClientHealth[]> {
      const list = ctx.profileList()
      const active = list.activeId ? ctx.entry(list.activeId) : undefined
      let credits: Map<string, number> | null = null
      let creditError: string | null = null
      if (active?.profile.kind === 'partner') {
        try {
          const rows = await allReferred(ctx, active.profile.id)
          credits = new Map(rows.map((b) => [b.uuid, b.credit_balance]))
        } catch (e) {
          creditError = `Credit balances unavailable: ${ctx.messageOf(e)}`
        }
      }
      const folders = ctx.engine.listFolders()
      const stuckBefore = Date.now() - STUCK_AFTER_MS
      const sameServer = (p: Profile) =>
        !!active && p.environment === active.profile.environment && p.baseUrl === active.profile.baseUrl

      return list.profiles.filter(isBusinessKind).map((p): ClientHealth => {
        const uuid = p.business?.uuid ?? null
        const balance = credits && uuid && sameServer(p) ? credits.get(uuid) : undefined
        return {
          profileId: p.id,
          profileName: p.name,
          businessUuid: uuid,
          folders: folders
            .filter((f) => f.profileId === p.id)
            .map((f) => ({ path: f.path, state: f.state, message: f.message })),
          ...ctx.engine.overview.healthFigures(p.id, stuckBefore),
          failed: ctx.engine.uploads.countByStatus(p.id).failed,
          creditBalance: balance ?? null,
          error: creditError,
        }
      })
    },

    /**
     * The overview of the active profile for a local month. A business: its uploads by day, from
     * the history in SQLite. A partner: the grants this app made that month, the holding as the last
     * grant left it, and its referred businesses without seats (listed from the server).
     */
    async getOverview(req: ParsedReq<'getOverview'>): Promise<Overview> {
      const e = ctx.activeEntry()
      const m = monthOf(req.month)
      if (e.profile.kind === 'partner') return partnerOverview(e.profile.id, m)
      const counts = ctx.engine.uploads.countByStatus(e.profile.id)
      return {
        kind: 'business',
        month: m.month,
        ...ctx.engine.overview.uploadMonth(e.profile.id, m),
        needsAttention: ATTENTION_STATUSES.reduce((n, st) => n + counts[st], 0),
        creditsPerCreate: AI_CREDITS_PER_CREATE,
      }
    },
  }
}
