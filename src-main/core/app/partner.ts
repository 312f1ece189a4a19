/**
 * The partner room: referred businesses, billing, registration (the returned business key is held
 * here, in memory, for at most 15 minutes until saved as a profile), and seat and credit grants
 * (each noted for the partner overview: the API lists none).
 */
import { randomUUID } from 'node:crypto'
import type { ReferredBusinessRow } from '../../../schemas'
import type { Calls, ParsedReq } from '../../../contract'
import { AppError } from '../app-error'
import type { NewGrant } from '../store/overview'
import type { AppContext } from './context'
import type { Room } from './room'

/** How long a registered business's secret key is held in memory, waiting to be saved. */
export const REGISTRATION_TTL_MS = 15 * 60 * 1000

export type PartnerRoom = Room<
  | 'listReferredBusinesses'
  | 'getBillingStatus'
  | 'registerBusiness'
  | 'saveRegisteredBusiness'
  | 'discardRegistration'
  | 'addSeats'
  | 'addCredits'
> & {
  /** Forgets every registration key held. */
  discardAll(): void
}

/** Every business the partner profile referred: up to 100 pages of 100. */
export async function allReferred(ctx: AppContext, profileId: string): Promise<ReferredBusinessRow[]> {
  const client = await ctx.clientOf(profileId)
  const rows: ReferredBusinessRow[] = []
  for (let page = 1; page <= 100; page++) {
    const res = await client.listReferredBusinesses({ page, limit: 100 })
    rows.push(...res.data)
    if (res.data.length === 0 || page * res.per_page >= res.total) break
  }
  return rows
}

export function partnerRoom(ctx: AppContext): PartnerRoom {
  const discard = (registrationId: string): boolean => {
    const reg = ctx.pending.get(registrationId)
    if (!reg) return false
    clearTimeout(reg.timer)
    return ctx.pending.delete(registrationId)
  }
  /** Notes a grant the server made, for the partner overview. Never fails the grant itself. */
  /** Notes a grant for the overview; the grant was made either way, so a failure is only a notice. */
  const noteGrant = (
    profileId: string,
    businessUuid: string,
    what: Omit<NewGrant, 'profileId' | 'businessUuid' | 'holdingAfter'>,
    holdingAfter: NewGrant['holdingAfter'],
  ): void => {
    try {
      ctx.engine.overview.grants.record({ profileId, businessUuid, ...what, holdingAfter })
    } catch (e) {
      ctx.emit('notice', {
        level: 'warning',
        message: `The grant was made, but the overview could not note it: ${ctx.messageOf(e)}`,
      })
    }
  }

  return {
    async listReferredBusinesses(req): Promise<Calls['listReferredBusinesses']> {
      return (await ctx.partnerClient()).client.listReferredBusinesses(req)
    },

    async getBillingStatus(req): Promise<Calls['getBillingStatus']> {
      return (await ctx.partnerClient()).client.billingStatus(req.businessUuid)
    },

    /**
     * Registers a business for the active partner. With admin access the server returns the
     * business's secret key: it stays here under a random registrationId for 15 minutes; only its
     * last 4 characters go back.
     */
    async registerBusiness(req): Promise<Calls['registerBusiness']> {
      const { client, entry } = await ctx.partnerClient()
      const res = await client.registerBusiness(req.input)
      const { api_secret_key: secret, ...rest } = res
      if (!secret) return { ...rest, registrationId: null, secretKeyHint: null }
      const registrationId = randomUUID()
      const timer = setTimeout(() => ctx.pending.delete(registrationId), REGISTRATION_TTL_MS)
      timer.unref?.()
      ctx.pending.set(registrationId, {
        secret,
        businessUuid: res.business_uuid,
        name: res.name,
        demo: entry.demo,
        environment: entry.profile.environment,
        baseUrl: entry.profile.baseUrl,
        timer,
      })
      return { ...rest, registrationId, secretKeyHint: secret.slice(-4) }
    },

    /** Saves a registration's key as a business profile (validated by the server), then forgets it here. */
    async saveRegisteredBusiness(
      req: ParsedReq<'saveRegisteredBusiness'>,
    ): Promise<Calls['saveRegisteredBusiness']> {
      const reg = ctx.pending.get(req.registrationId)
      if (!reg) {
        throw new AppError(
          'registration_expired',
          'The key of that registration is no longer held (it is kept for 15 minutes, until saved). Ask the business for its key and add it as a profile.',
        )
      }
      if (reg.businessUuid !== req.businessUuid) {
        throw new AppError('invalid_request', 'That registration is for another business.', {
          businessUuid: 'does not match the registration',
        })
      }
      const manager = reg.demo ? ctx.demo?.manager : ctx.real
      if (!manager)
        throw new AppError('registration_expired', 'The demo that registered this business has stopped.')
      const profile = await ctx.addTo(manager, {
        name: req.name,
        environment: reg.environment,
        ...(reg.environment === 'custom' ? { baseUrl: reg.baseUrl } : {}),
        kind: 'business',
        secret: reg.secret,
      })
      discard(req.registrationId)
      ctx.emitProfiles()
      return { ...ctx.profileList(), profile: { ...profile, demo: reg.demo } }
    },

    async discardRegistration(req): Promise<Calls['discardRegistration']> {
      return { discarded: discard(req.registrationId) }
    },

    async addSeats(req): Promise<Calls['addSeats']> {
      const { client, entry } = await ctx.partnerClient()
      const res = await client.addSeats(req.businessUuid, req.grant)
      const { seats, months, prorated } = res.allocation
      const charged = res.holding_credits_charged
      noteGrant(
        entry.profile.id,
        req.businessUuid,
        { kind: 'seats', seats, months, credits: 0, holdingCharged: charged, prorated },
        res.partner_holding_balance,
      )
      return res
    },

    async addCredits(req): Promise<Calls['addCredits']> {
      const { client, entry } = await ctx.partnerClient()
      const res = await client.addCredits(req.businessUuid, req.grant)
      // The answer's fields are not shown by the spec: what was asked for stands in.
      const credits = res.credits_granted ?? req.grant.credits
      noteGrant(
        entry.profile.id,
        req.businessUuid,
        { kind: 'credits', seats: 0, months: 0, credits, holdingCharged: credits, prorated: false },
        res.partner_holding_balance,
      )
      return res
    },

    discardAll(): void {
      for (const id of [...ctx.pending.keys()]) discard(id)
    },
  }
}
