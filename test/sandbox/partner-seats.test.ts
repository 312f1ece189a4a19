/**
 * POST /referred-businesses/{business_uuid}/add-seats: Part 3's state table, Part 7 rules 2 to 4,
 * Part 8's seat cost, design.md §3's later-grant prorating, and idempotent replays.
 */
import { describe, expect, it } from 'vitest'
import {
  ADD_SEATS_FAILURE_STATUS,
  DAYS_PER_MONTH,
  ERROR_CODES,
  MICRO_TIMESTAMP_RE,
  TRANSACTION_CREDITS_PER_SEAT_GRANT,
  addSeatsData,
  billingStatusSchema,
} from '../../schemas'
import type { Sandbox } from '../../sandbox/index'
import { PARTNER_CREATE_ROUTES } from '../../sandbox/routes/partner'
import {
  DAY_MS,
  P1,
  P2,
  addSeats,
  advanceClock,
  call,
  createsOn,
  dataOf,
  expectNothingMoved,
  failureOf,
  holdingOf,
  parseMicro,
  partnerFixtures,
  partnerSandbox,
  start,
} from './partner-helpers'

const SEATS_ROUTE = PARTNER_CREATE_ROUTES.addSeats
const billing = async (sb: Sandbox, uuid: string, key = P1) =>
  dataOf(billingStatusSchema, await call(sb, 'GET', `/referred-businesses/${uuid}/billing-status`, { key }))

describe('Part 3: partner-granted subscription state table', () => {
  let firstExpiry = ''
  let firstReference = ''
  const sb = partnerSandbox({ p1Holding: 5000 })

  /** b1's billing is `state` of a grant through the partner: Plus, gateway referral_partner, ending with the first grant. */
  async function expectGrantState(state: {
    subscription_status: string
    is_subscribed_to_svc: boolean
    available_seats: number
  }): Promise<void> {
    expect(await billing(sb, 'b1')).toMatchObject({
      subscription_plan: 'plus',
      ...state,
      gateway: 'referral_partner',
      subscription_expires_at: firstExpiry,
    })
  }

  it('starts without a partner-granted Plus subscription (plan free, status inactive)', async () => {
    const s = await billing(sb, 'b1')
    expect(s).toMatchObject({
      subscription_plan: 'free',
      subscription_status: 'inactive',
      available_seats: 0,
      gateway: 'none',
    })
    expect(s.subscription_expires_at).toBeNull()
  })

  it('first grant: debits 150 × seats × months, prorated false, resulting_seats = seats, expiry = now + months × 30 days', async () => {
    const before = Date.now()
    const res = await addSeats(sb, 'b1', { seats: 2, months: 3 })
    const after = Date.now()
    const d = dataOf(addSeatsData, res)
    const cost = 150 * 2 * 3
    expect(d.holding_credits_charged).toBe(cost)
    expect(d.partner_holding_balance).toBe(5000 - cost)
    expect(holdingOf(sb, P1)).toBe(5000 - cost)
    expect(d.transaction_credits_granted).toBe(TRANSACTION_CREDITS_PER_SEAT_GRANT)
    expect(d.allocation).toMatchObject({
      allocation_type: 'seats',
      quantity: 2,
      seats: 2,
      months: 3,
      prorated: false,
      resulting_seats: 2,
      meta: { holding_credits_charged: cost, credits_granted: TRANSACTION_CREDITS_PER_SEAT_GRANT },
    })
    expect(d.allocation.subscription_expires_at).toBe(d.subscription_expires_at)
    expect(d.subscription_expires_at).toMatch(MICRO_TIMESTAMP_RE)
    const expiry = parseMicro(d.subscription_expires_at)
    expect(expiry).toBeGreaterThanOrEqual(before + 3 * DAYS_PER_MONTH * DAY_MS)
    expect(expiry).toBeLessThanOrEqual(after + 3 * DAYS_PER_MONTH * DAY_MS)
    firstExpiry = d.subscription_expires_at
    firstReference = d.allocation.subscription_reference
    expect(firstReference).not.toBe('')
  })

  it('first grant: the business becomes Plus active through the partner (gateway referral_partner, seats granted)', async () => {
    await expectGrantState({ subscription_status: 'active', is_subscribed_to_svc: true, available_seats: 2 })
  })

  it('later grant while the period runs: ceil(150 × seats × remaining_days / 30), prorated true, expiry unchanged, seats added', async () => {
    const now = await advanceClock(sb, 15 * DAY_MS)
    const holdingBefore = holdingOf(sb, P1)
    const d = dataOf(addSeatsData, await addSeats(sb, 'b1', { seats: 3, months: 6 }))
    const remainingDays = (parseMicro(firstExpiry) - now) / DAY_MS
    expect(remainingDays).toBeCloseTo(75, 3) // 90 days granted, 15 gone
    const expected = Math.ceil((150 * 3 * remainingDays) / 30)
    expect(expected).toBe(1125)
    expect(d.holding_credits_charged).toBe(expected)
    expect(d.partner_holding_balance).toBe(holdingBefore - expected)
    expect(holdingOf(sb, P1)).toBe(holdingBefore - expected)
    expect(d.allocation).toMatchObject({
      prorated: true,
      seats: 3,
      quantity: 3,
      months: 6, // recorded, but it does not extend the period
      resulting_seats: 5,
      subscription_reference: firstReference,
      subscription_expires_at: firstExpiry,
      meta: { holding_credits_charged: expected },
    })
    expect(d.subscription_expires_at).toBe(firstExpiry)
    const s = await billing(sb, 'b1')
    expect(s).toMatchObject({
      available_seats: 5,
      subscription_status: 'active',
      subscription_expires_at: firstExpiry,
    })
  })

  it('later grant at 15 days left of a 30-day grant costs exactly half: 150 × seats × 15 / 30', async () => {
    const fresh = await start(partnerFixtures({ p1Holding: 5000 }))
    try {
      const first = dataOf(addSeatsData, await addSeats(fresh, 'b1', { seats: 2, months: 1 }))
      expect(first.holding_credits_charged).toBe(300)
      await advanceClock(fresh, 15 * DAY_MS)
      const later = dataOf(addSeatsData, await addSeats(fresh, 'b1', { seats: 4, months: 1 }))
      expect(later.holding_credits_charged).toBe(Math.ceil((150 * 4 * 15) / 30)) // 300
      expect(later.partner_holding_balance).toBe(5000 - 300 - 300)
      expect(later.allocation.resulting_seats).toBe(6)
      expect(later.allocation.prorated).toBe(true)
    } finally {
      await fresh.stop()
    }
  })

  it('expired grant (our choice): status expired, seats 0, and the next add-seats is a first grant with a new reference', async () => {
    await advanceClock(sb, 76 * DAY_MS) // 91 days after a 90-day grant
    await expectGrantState({
      subscription_status: 'expired',
      is_subscribed_to_svc: false,
      available_seats: 0,
    })
    const holdingBefore = holdingOf(sb, P1)
    const d = dataOf(addSeatsData, await addSeats(sb, 'b1', { seats: 1, months: 2 }))
    expect(d.holding_credits_charged).toBe(300)
    expect(d.partner_holding_balance).toBe(holdingBefore - 300)
    expect(d.allocation).toMatchObject({ prorated: false, resulting_seats: 1 })
    expect(d.allocation.subscription_reference).not.toBe(firstReference)
    expect(parseMicro(d.subscription_expires_at)).toBeGreaterThan(parseMicro(firstExpiry))
  })

  it('every grant is logged once as a create', async () => {
    const rows = await createsOn(sb, SEATS_ROUTE)
    expect(rows).toHaveLength(3)
    expect(rows[0]).toMatchObject({ business: 'b1', resource_type: 'seat_allocation' })
  })
})

describe('Part 7 rules 2 to 4: add-seats failures (failure envelope, error_code, nothing debited)', () => {
  const sb = partnerSandbox({ p1Holding: 5000, p2Holding: 900 })

  /** Asserts a failure with status and code, and that nothing moved (no holding, no balance, no create). */
  async function expectFailure(
    uuid: string,
    body: unknown,
    status: number,
    code: string,
    key = P1,
  ): Promise<string> {
    return expectNothingMoved(sb, SEATS_ROUTE, async () => {
      const res = await addSeats(sb, uuid, body, key)
      expect(res.status).toBe(status)
      const f = failureOf(res)
      expect(f.status).toBe('failed')
      expect(f.error_code).toBe(code)
      expect(f.message.length).toBeGreaterThan(0)
      return f.message
    })
  }

  it('rule 2: holding cannot cover 150 × seats × months → 400 insufficient_partner_credit_holding, saying needed and available', async () => {
    const message = await expectFailure(
      'b_other',
      { seats: 7, months: 1 },
      ADD_SEATS_FAILURE_STATUS.insufficientHolding,
      ERROR_CODES.insufficientHolding,
      P2,
    )
    expect(ERROR_CODES.insufficientHolding).toBe('insufficient_partner_credit_holding')
    expect(ADD_SEATS_FAILURE_STATUS.insufficientHolding).toBe(400)
    expect(message).toMatch(/insufficient partner credit holding/i)
    expect(message).toContain('1050') // needed
    expect(message).toContain('900') // available
    const s = await billing(sb, 'b_other', P2)
    expect(s.subscription_plan).toBe('free')
  })

  it('rule 2: a holding that exactly covers the cost is enough, and leaves 0', async () => {
    const d = dataOf(addSeatsData, await addSeats(sb, 'b_other', { seats: 6, months: 1 }, P2))
    expect(d.holding_credits_charged).toBe(900)
    expect(d.partner_holding_balance).toBe(0)
    await expectFailure('b_other', { seats: 1, months: 1 }, 400, ERROR_CODES.insufficientHolding, P2)
  })

  it.each([
    {
      name: 'rule 3: the business has its own active Plus subscription → 409 business_has_own_subscription',
      uuid: 'b_plus',
      rule: 'ownPlusSubscription',
      says: /own active Plus subscription/,
    },
    {
      name: 'rule 3: the business was registered with credit_from_referral_partner true → 409 business_uses_partner_credit',
      uuid: 'b_credit',
      rule: 'partnerPaidCredits',
      says: /credit_from_referral_partner/,
    },
  ] as const)('$name', async ({ uuid, rule, says }) => {
    expect(ADD_SEATS_FAILURE_STATUS[rule]).toBe(409)
    const message = await expectFailure(uuid, { seats: 1, months: 1 }, 409, ERROR_CODES[rule])
    expect(message).toMatch(says)
  })

  it('not referred by this partner → 404 business_not_found', async () => {
    expect(ADD_SEATS_FAILURE_STATUS.businessNotReferred).toBe(404)
    await expectFailure('b_other', { seats: 1, months: 1 }, 404, ERROR_CODES.businessNotReferred, P1)
    await expectFailure('b_orphan', { seats: 1, months: 1 }, 404, ERROR_CODES.businessNotReferred, P1)
  })

  it('unknown business → 404 business_not_found', async () => {
    await expectFailure('no-such-business', { seats: 1, months: 1 }, 404, ERROR_CODES.businessNotReferred)
  })

  it('invalid seats or months → 400 invalid_seat_request naming the field', async () => {
    expect(ADD_SEATS_FAILURE_STATUS.invalidSeatRequest).toBe(400)
    const cases: [unknown, RegExp][] = [
      [{ seats: 0, months: 1 }, /seats/],
      [{ seats: -2, months: 1 }, /seats/],
      [{ seats: 1.5, months: 1 }, /seats must be a whole number/],
      [{ seats: '2', months: 1 }, /seats/],
      [{ months: 1 }, /seats/],
      [{ seats: 1, months: 0 }, /months/],
      [{ seats: 1, months: 2.5 }, /months must be a whole number/],
      [{ seats: 1 }, /months/],
      [{ seats: 1, months: 37 }, /months must be 36 or less/],
      [{ seats: 1001, months: 1 }, /seats must be 1000 or less/],
      [[1, 2], /.+/],
    ]
    for (const [body, re] of cases) {
      const message = await expectFailure('b1', body, 400, ERROR_CODES.invalidSeatRequest)
      expect(message, JSON.stringify(body)).toMatch(re)
    }
  })

  it('missing body → 400 invalid_seat_request', async () => {
    const res = await call(sb, 'POST', '/referred-businesses/b1/add-seats', { key: P1 })
    expect(res.status).toBe(400)
    expect(failureOf(res).error_code).toBe(ERROR_CODES.invalidSeatRequest)
  })

  it('check order: 404 before 400 invalid, 400 invalid before 409, own Plus before partner credit, 409 before insufficient', async () => {
    await expectFailure('no-such-business', { seats: 0 }, 404, ERROR_CODES.businessNotReferred)
    await expectFailure('b_plus', { seats: 0, months: 1 }, 400, ERROR_CODES.invalidSeatRequest)
    await expectFailure('b_both', { seats: 1, months: 1 }, 409, ERROR_CODES.ownPlusSubscription)
    // 150 × 1000 × 36 is far above the holding: the 409s still win.
    await expectFailure('b_plus', { seats: 1000, months: 36 }, 409, ERROR_CODES.ownPlusSubscription)
    await expectFailure('b_credit', { seats: 1000, months: 36 }, 409, ERROR_CODES.partnerPaidCredits)
  })

  it('a failed grant leaves the business without a subscription', async () => {
    const s = await billing(sb, 'b1')
    expect(s).toMatchObject({ subscription_plan: 'free', available_seats: 0 })
  })
})

describe('Idempotency-Key on add-seats', () => {
  const sb = partnerSandbox({ p1Holding: 5000 })

  it('a repeated add-seats with the same key debits once and returns the same body', async () => {
    const first = await addSeats(sb, 'b1', { seats: 2, months: 2 }, P1, 'idem-seat-1')
    const d = dataOf(addSeatsData, first)
    expect(d.partner_holding_balance).toBe(5000 - 600)
    const second = await addSeats(sb, 'b1', { seats: 2, months: 2 }, P1, 'idem-seat-1')
    expect(second.status).toBe(200)
    expect(second.text).toBe(first.text)
    expect(second.headers.get('idempotent-replayed')).toBe('true')
    expect(holdingOf(sb, P1)).toBe(4400)
    const logged = await createsOn(sb, SEATS_ROUTE)
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatchObject({ idempotency_key: 'idem-seat-1' })
    expect((await billing(sb, 'b1')).available_seats).toBe(2)
  })

  it('a new key is a new grant (prorated onto the running period)', async () => {
    const d = dataOf(addSeatsData, await addSeats(sb, 'b1', { seats: 2, months: 2 }, P1, 'idem-seat-2'))
    expect(d.allocation.prorated).toBe(true)
    expect(d.allocation.resulting_seats).toBe(4)
    expect(await createsOn(sb, SEATS_ROUTE)).toHaveLength(2)
  })
})
