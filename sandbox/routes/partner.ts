/**
 * Partner (distributor) routes of the emulator: api-spec.md Parts 2.6 to 2.8, 3, 4, 5, 7 and 8, with
 * the choices of design.md §3. Every route takes a partner secret key only (`config.auth: 'partner'`;
 * server.ts answers a business key with 403 and the "use the distributor partner secret" message).
 *
 * Choices where the spec says "not shown" that live in this file (docs/api-assumptions.md):
 * - the billing snapshot (`billingSnapshot` below): labels for an own Plus subscription, an expired
 *   grant and no subscription at all;
 * - the referred list is in registration order (oldest first) and carries no `meta`;
 * - an expired partner grant is not "running": the next add-seats is a first grant again, with a new
 *   subscription reference;
 * - a partner whose own subscription has ended gets 403 partner_subscription_expired on grants;
 * - a seat grant also adds TRANSACTION_CREDITS_PER_SEAT_GRANT (0) to the business's credit balance;
 * - create-log route labels are the route patterns without /v1, as business.ts logs them:
 *   `/referred-businesses/:business_uuid/add-seats`.
 *
 * Check-then-debit happens with no `await` in between, so two concurrent grants can never both
 * spend the same holding.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import {
  ADD_SEATS_FAILURE_STATUS,
  DAYS_PER_MONTH,
  ERROR_CODES,
  KEY_PREFIX,
  TRANSACTION_CREDITS_PER_SEAT_GRANT,
  addCreditsSchema,
  addSeatsSchema,
  describeIssues,
  firstGrantCost,
  proratedGrantCost,
  referredListQuerySchema,
  registerBusinessSchema,
  roundMoney,
  type AddCreditsResult,
  type AddSeatsResult,
  type BillingStatus,
  type ReferredBusinessPage,
  type ReferredBusinessRow,
  type RegisteredBusiness,
} from '../../schemas'
import type { RouteContext } from '../context'
import { ApiFailure, ok, parse, requirePartner } from '../server'
import { type Business, type Partner, type SandboxState, microTimestamp } from '../state'

const DAY_MS = 86_400_000

type BusinessParams = { Params: { business_uuid: string } }

/** Route labels in the create log (`GET /_sandbox/creates?route=...`): the route pattern without /v1. */
export const PARTNER_CREATE_ROUTES = {
  register: '/register-business',
  addSeats: '/referred-businesses/:business_uuid/add-seats',
  addCredits: '/referred-businesses/:business_uuid/add-credits',
} as const

/**
 * The billing snapshot of one business (2.7's billing fields; billing-status returns exactly this).
 * The one place that decides plan, status, gateway and seats:
 * - active partner grant (expires in the future): plus / active / referral_partner / grant seats;
 * - the business's own Plus subscription: plus / active / direct / 1 seat, no known expiry (our choice);
 * - expired partner grant: plus / expired / referral_partner / 0 seats, with the past expiry (our choice);
 * - nothing: free / inactive / none / 0 seats, no expiry (our choice).
 */
export function billingSnapshot(b: Business, now: number): BillingStatus {
  const snapshot = (
    plan: 'plus' | 'free',
    status: 'active' | 'expired' | 'inactive',
    gateway: 'referral_partner' | 'direct' | 'none',
    seats: number,
    expiresAt: number | null,
  ): BillingStatus => ({
    credit_from_referral_partner: b.credit_from_referral_partner,
    billing_currency: b.currency,
    credit_balance: b.credit_balance,
    is_subscribed_to_svc: status === 'active',
    subscription_status: status,
    available_seats: seats,
    subscription_plan: plan,
    subscription_expires_at: expiresAt === null ? null : microTimestamp(expiresAt),
    gateway,
  })
  if (b.grant && b.grant.expires_at > now)
    return snapshot('plus', 'active', 'referral_partner', b.grant.seats, b.grant.expires_at)
  if (b.plus_subscription) return snapshot('plus', 'active', 'direct', 1, null)
  if (b.grant) return snapshot('plus', 'expired', 'referral_partner', 0, b.grant.expires_at)
  return snapshot('free', 'inactive', 'none', 0, null)
}

export function referredRow(b: Business, now: number): ReferredBusinessRow {
  return {
    uuid: b.uuid,
    name: b.name,
    email: b.email,
    currency: b.currency,
    country: b.country,
    ...billingSnapshot(b, now),
  }
}

/** A business this partner referred, or 404 (an unknown uuid and another partner's business look the same). */
function referredBusiness(state: SandboxState, partner: Partner, uuid: string): Business {
  const b = state.businesses.get(uuid)
  if (!b || b.referred_by !== partner.id) {
    throw new ApiFailure(
      ADD_SEATS_FAILURE_STATUS.businessNotReferred,
      `no business ${uuid} among the businesses you referred`,
      ERROR_CODES.businessNotReferred,
    )
  }
  return b
}

/**
 * The sixth add-seats failure (Part 7 rule 4; our choice): a partner whose own subscription has
 * ended cannot grant seats or credits (403 partner_subscription_expired). Reads still work.
 */
function checkPartnerSubscription(state: SandboxState, partner: Partner): void {
  const end = partner.subscription_expires_at
  if (end === null || end > state.now()) return
  throw new ApiFailure(
    ADD_SEATS_FAILURE_STATUS.subscriptionExpired,
    `your partner subscription ended on ${new Date(end).toISOString().slice(0, 10)}: renew it to grant seats or credits`,
    ERROR_CODES.subscriptionExpired,
  )
}

/**
 * The partner granting (add-seats, add-credits) and the business it grants to, checked in the order
 * both routes answer: 403 when the partner's own subscription has ended, then 404.
 */
function grantParties(
  state: SandboxState,
  req: FastifyRequest<BusinessParams>,
): { partner: Partner; business: Business } {
  const partner = requirePartner(req)
  checkPartnerSubscription(state, partner)
  return { partner, business: referredBusiness(state, partner, req.params.business_uuid) }
}

/** Logs a grant as the create it is (the /_sandbox/creates log); returns its uuid. */
function logGrant(
  state: SandboxState,
  req: FastifyRequest,
  grant: { route: string; resource_type: string; business: Business; partner: Partner },
): string {
  const uuid = randomUUID()
  state.logCreate({
    route: grant.route,
    business: grant.business.uuid,
    partner: grant.partner.id,
    idempotency_key: idempotencyKeyOf(req),
    resource_type: grant.resource_type,
    uuid,
    attachments: [],
  })
  return uuid
}

function insufficientHolding(partner: Partner, needed: number, what: string): ApiFailure {
  return new ApiFailure(
    ADD_SEATS_FAILURE_STATUS.insufficientHolding,
    `insufficient partner credit holding: ${what} needs ${needed} credits, your holding has ${partner.holding_credits}`,
    ERROR_CODES.insufficientHolding,
  )
}

function newKey(prefix: string): string {
  return `${prefix}${randomBytes(24).toString('hex')}`
}

function idempotencyKeyOf(req: FastifyRequest): string | null {
  return req.idempotencyKey ?? null
}

export function registerPartnerRoutes(app: FastifyInstance, state: SandboxState, _ctx: RouteContext): void {
  const partnerOnly = { config: { auth: 'partner' as const } }

  // ---- POST /register-business (2.6) ---------------------------------------------------------
  app.post('/register-business', partnerOnly, async (req, reply) => {
    const partner = requirePartner(req)
    const input = parse(registerBusinessSchema, req.body)
    const email = input.email.trim().toLowerCase()
    for (const other of state.businesses.values()) {
      if (other.email.trim().toLowerCase() === email) {
        throw new ApiFailure(
          409,
          `a business with the email ${input.email} already exists`,
          ERROR_CODES.emailTaken,
        )
      }
    }
    // Every business has keys; only an admin grant hands them to the partner (Part 5 rule 3).
    const business: Business = {
      uuid: randomUUID(),
      name: input.business_name,
      email: input.email,
      key: newKey(KEY_PREFIX.businessSecret),
      public_key: newKey(KEY_PREFIX.businessPublic),
      currency: input.currency,
      country: input.country,
      timezone: input.timezone,
      developer_api: true,
      plus_subscription: false,
      credit_from_referral_partner: input.credit_from_referral_partner,
      referred_by: partner.id,
      credit_balance: 0,
      grant: null,
      created_at: state.now(),
    }
    state.addBusiness(business)
    state.logCreate({
      route: PARTNER_CREATE_ROUTES.register,
      business: business.uuid,
      partner: partner.id,
      idempotency_key: idempotencyKeyOf(req),
      resource_type: 'business',
      uuid: business.uuid,
      attachments: [],
    })
    const data: RegisteredBusiness = {
      business_uuid: business.uuid,
      name: business.name,
      currency: business.currency,
      country: business.country,
      ...(input.grant_access === 'admin'
        ? { api_public_key: business.public_key, api_secret_key: business.key }
        : {}),
    }
    return ok(reply, 'business registered', data)
  })

  // ---- GET /referred-businesses (2.7) ---------------------------------------------------------
  app.get('/referred-businesses', partnerOnly, async (req, reply) => {
    const partner = requirePartner(req)
    const q = parse(referredListQuerySchema, req.query, 'query')
    const mine = [...state.businesses.values()]
      .filter((b) => b.referred_by === partner.id)
      .sort((a, b) => a.created_at - b.created_at) // stable: equal times keep registration order
    const now = state.now()
    const start = (q.page - 1) * q.limit
    const page: ReferredBusinessPage = {
      current_page: q.page,
      data: mine.slice(start, start + q.limit).map((b) => referredRow(b, now)),
      per_page: q.limit,
      total: mine.length,
    }
    return ok(reply, `${page.data.length} of ${page.total} referred businesses`, page)
  })

  // ---- GET /referred-businesses/:business_uuid/billing-status ----------------------------------
  app.get<BusinessParams>(
    '/referred-businesses/:business_uuid/billing-status',
    partnerOnly,
    async (req, reply) => {
      const partner = requirePartner(req)
      const business = referredBusiness(state, partner, req.params.business_uuid)
      return ok(reply, 'billing status', billingSnapshot(business, state.now()))
    },
  )

  // ---- POST /referred-businesses/:business_uuid/add-seats (Part 3, Part 7 rules 2 to 4) ---------
  app.post<BusinessParams>(
    '/referred-businesses/:business_uuid/add-seats',
    partnerOnly,
    async (req, reply) => {
      // Check order: 403 partner subscription ended, 404, 400 invalid, 409 own Plus, 409 partner-paid
      // credit, 400 insufficient holding.
      const { partner, business } = grantParties(state, req)
      if (req.body === undefined || req.body === null) {
        throw new ApiFailure(
          ADD_SEATS_FAILURE_STATUS.invalidSeatRequest,
          'request body is required: send {"seats": <whole number>, "months": <whole number>}',
          ERROR_CODES.invalidSeatRequest,
        )
      }
      const parsed = addSeatsSchema.safeParse(req.body)
      if (!parsed.success) {
        throw new ApiFailure(
          ADD_SEATS_FAILURE_STATUS.invalidSeatRequest,
          describeIssues(parsed.error),
          ERROR_CODES.invalidSeatRequest,
        )
      }
      const { seats, months } = parsed.data
      if (business.plus_subscription) {
        throw new ApiFailure(
          ADD_SEATS_FAILURE_STATUS.ownPlusSubscription,
          'this business already has its own active Plus subscription: partner seats cannot be added to it',
          ERROR_CODES.ownPlusSubscription,
        )
      }
      if (business.credit_from_referral_partner) {
        throw new ApiFailure(
          ADD_SEATS_FAILURE_STATUS.partnerPaidCredits,
          'this business was registered with credit_from_referral_partner true: partner seats cannot be added to it',
          ERROR_CODES.partnerPaidCredits,
        )
      }

      const now = state.now()
      const running = business.grant !== null && business.grant.expires_at > now ? business.grant : null
      const cost = running
        ? proratedGrantCost(seats, running.expires_at - now)
        : firstGrantCost(seats, months)
      if (partner.holding_credits < cost) {
        throw insufficientHolding(
          partner,
          cost,
          running
            ? `adding ${seats} seat(s) for the remaining ${((running.expires_at - now) / DAY_MS).toFixed(2)} days`
            : `${seats} seat(s) for ${months} month(s)`,
        )
      }

      // Commit: nothing above has changed any state.
      const grant = running
        ? { ...running, seats: running.seats + seats }
        : {
            seats,
            expires_at: now + months * DAYS_PER_MONTH * DAY_MS,
            subscription_reference: `sub_${randomUUID()}`,
          }
      partner.holding_credits = roundMoney(partner.holding_credits - cost)
      business.grant = grant
      business.credit_balance = roundMoney(business.credit_balance + TRANSACTION_CREDITS_PER_SEAT_GRANT)
      const expires = microTimestamp(grant.expires_at)
      const allocationUuid = logGrant(state, req, {
        route: PARTNER_CREATE_ROUTES.addSeats,
        resource_type: 'seat_allocation',
        business,
        partner,
      })
      const data: AddSeatsResult = {
        allocation: {
          uuid: allocationUuid,
          allocation_type: 'seats',
          quantity: seats,
          seats,
          months,
          prorated: running !== null,
          resulting_seats: grant.seats,
          subscription_reference: grant.subscription_reference,
          subscription_expires_at: expires,
          meta: { holding_credits_charged: cost, credits_granted: TRANSACTION_CREDITS_PER_SEAT_GRANT },
        },
        holding_credits_charged: cost,
        partner_holding_balance: partner.holding_credits,
        subscription_expires_at: expires,
        transaction_credits_granted: TRANSACTION_CREDITS_PER_SEAT_GRANT,
      }
      return ok(
        reply,
        running ? `${seats} seat(s) added, prorated to the current period` : `${seats} seat(s) granted`,
        data,
      )
    },
  )

  // ---- POST /referred-businesses/:business_uuid/add-credits (design.md §3) ----------------------
  app.post<BusinessParams>(
    '/referred-businesses/:business_uuid/add-credits',
    partnerOnly,
    async (req, reply) => {
      const { partner, business } = grantParties(state, req)
      const { credits } = parse(addCreditsSchema, req.body)
      if (partner.holding_credits < credits)
        throw insufficientHolding(partner, credits, `granting ${credits} credits`)
      partner.holding_credits = roundMoney(partner.holding_credits - credits)
      business.credit_balance = roundMoney(business.credit_balance + credits)
      logGrant(state, req, {
        route: PARTNER_CREATE_ROUTES.addCredits,
        resource_type: 'credit_allocation',
        business,
        partner,
      })
      const data: AddCreditsResult = {
        credits_granted: credits,
        partner_holding_balance: partner.holding_credits,
        credit_balance: business.credit_balance,
      }
      return ok(reply, `${credits} credits granted`, data)
    },
  )
}
