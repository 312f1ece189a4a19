/**
 * GET /referred-businesses (2.7, Part 8 paging bounds) and
 * GET /referred-businesses/{business_uuid}/billing-status (design.md §3: the list row's billing fields).
 */
import { describe, expect, it } from 'vitest'
import {
  ERROR_CODES,
  MICRO_TIMESTAMP_RE,
  addSeatsData,
  billingStatusSchema,
  referredBusinessPage,
  type ReferredBusinessRow,
} from '../../schemas'
import type { Sandbox } from '../../sandbox/index'
import { NOT_REFERRED, P1, P2, call, dataOf, failureOf, partnerSandbox } from './partner-helpers'

const ROW_FIELDS = [
  'uuid',
  'name',
  'email',
  'currency',
  'country',
  'credit_from_referral_partner',
  'is_subscribed_to_svc',
  'billing_currency',
  'subscription_status',
  'available_seats',
  'subscription_plan',
  'credit_balance',
  'subscription_expires_at',
  'gateway',
]
const BILLING_FIELDS = Object.keys(billingStatusSchema.shape) as (keyof typeof billingStatusSchema.shape)[]

const list = (sb: Sandbox, query = '', key = P1) => call(sb, 'GET', `/referred-businesses${query}`, { key })
const billing = (sb: Sandbox, uuid: string, key = P1) =>
  call(sb, 'GET', `/referred-businesses/${uuid}/billing-status`, { key })

describe('GET /referred-businesses', () => {
  // b1 gets a partner grant so one row carries an expiry.
  const sb = partnerSandbox({}, async (started) => {
    dataOf(
      addSeatsData,
      await call(started, 'POST', '/referred-businesses/b1/add-seats', {
        key: P1,
        body: { seats: 2, months: 1 },
      }),
    )
  })

  it('data is an object {current_page, data, per_page, total}, not an array', async () => {
    const res = await list(sb)
    const body = res.body as { data: unknown }
    expect(Array.isArray(body.data)).toBe(false)
    expect(Object.keys(body.data as object).sort()).toEqual(['current_page', 'data', 'per_page', 'total'])
    const page = dataOf(referredBusinessPage, res)
    expect(page).toMatchObject({ current_page: 1, per_page: 20, total: 4 })
  })

  it('lists only the businesses referred by this partner', async () => {
    const mine = dataOf(referredBusinessPage, await list(sb))
    expect(mine.data.map((r) => r.uuid)).toEqual(['b1', 'b_plus', 'b_credit', 'b_both'])
    const theirs = dataOf(referredBusinessPage, await list(sb, '', P2))
    expect(theirs.data.map((r) => r.uuid)).toEqual(['b_other'])
    expect(theirs.total).toBe(1)
  })

  it('every row has every field of 2.7 and no other', async () => {
    const page = dataOf(referredBusinessPage, await list(sb))
    for (const row of page.data) expect(Object.keys(row).sort()).toEqual([...ROW_FIELDS].sort())
    expect(page.data[0]).toMatchObject({
      uuid: 'b1',
      name: 'Business b1',
      email: 'b1@example.com',
      currency: 'NGN',
      country: 'NG',
      billing_currency: 'NGN',
      credit_balance: 0,
    })
  })

  it('subscription_expires_at is ISO 8601 UTC with microseconds and Z, or null without a subscription end', async () => {
    const page = dataOf(referredBusinessPage, await list(sb))
    const b1 = page.data.find((r) => r.uuid === 'b1')
    expect(b1?.subscription_expires_at).toMatch(MICRO_TIMESTAMP_RE)
    expect(b1?.subscription_expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
    expect(page.data.find((r) => r.uuid === 'b_credit')?.subscription_expires_at).toBeNull()
  })

  it.each([
    {
      name: 'billing snapshot: partner grant → plus, active, referral_partner, grant seats',
      uuid: 'b1',
      row: {
        subscription_plan: 'plus',
        subscription_status: 'active',
        gateway: 'referral_partner',
        available_seats: 2,
        is_subscribed_to_svc: true,
      },
    },
    {
      name: 'billing snapshot (our choice): own Plus → plus, active, direct, 1 seat, no expiry',
      uuid: 'b_plus',
      row: {
        subscription_plan: 'plus',
        subscription_status: 'active',
        gateway: 'direct',
        available_seats: 1,
        is_subscribed_to_svc: true,
        subscription_expires_at: null,
      },
    },
    {
      name: 'billing snapshot (our choice): no subscription → free, inactive, none, 0 seats',
      uuid: 'b_credit',
      row: {
        subscription_plan: 'free',
        subscription_status: 'inactive',
        gateway: 'none',
        available_seats: 0,
        is_subscribed_to_svc: false,
        credit_from_referral_partner: true,
      },
    },
  ])('$name', async ({ uuid, row }) => {
    const page = dataOf(referredBusinessPage, await list(sb))
    expect(page.data.find((r) => r.uuid === uuid)).toMatchObject(row)
  })

  it('page and limit select a slice; total counts all of this partner’s referrals', async () => {
    const p1 = dataOf(referredBusinessPage, await list(sb, '?page=1&limit=3'))
    expect(p1).toMatchObject({ current_page: 1, per_page: 3, total: 4 })
    expect(p1.data.map((r) => r.uuid)).toEqual(['b1', 'b_plus', 'b_credit'])
    const p2 = dataOf(referredBusinessPage, await list(sb, '?page=2&limit=3'))
    expect(p2).toMatchObject({ current_page: 2, per_page: 3, total: 4 })
    expect(p2.data.map((r) => r.uuid)).toEqual(['b_both'])
    const p3 = dataOf(referredBusinessPage, await list(sb, '?page=3&limit=3'))
    expect(p3).toMatchObject({ current_page: 3, data: [], total: 4 })
    expect(dataOf(referredBusinessPage, await list(sb, '?limit=100')).per_page).toBe(100)
    expect(dataOf(referredBusinessPage, await list(sb, '?limit=1')).data).toHaveLength(1)
  })

  it('page must be an integer ≥ 1 and limit an integer from 1 to 100, else 400 with a message', async () => {
    const cases: [string, RegExp][] = [
      ['?page=0', /page must be 1 or more/],
      ['?page=-1', /page must be 1 or more/],
      ['?page=x', /page must be a whole number/],
      ['?page=1.5', /page must be a whole number/],
      ['?limit=0', /limit must be 1 or more/],
      ['?limit=101', /limit must be 100 or less/],
      ['?limit=x', /limit must be a whole number/],
      ['?page=', /page/],
    ]
    for (const [query, re] of cases) {
      const res = await list(sb, query)
      expect(res.status, query).toBe(400)
      const f = failureOf(res)
      expect(f.error_code).toBe(ERROR_CODES.validation)
      expect(f.message, query).toMatch(re)
    }
  })
})

describe('GET /referred-businesses/{business_uuid}/billing-status', () => {
  const sb = partnerSandbox({}, async (started) => {
    await call(started, 'POST', '/referred-businesses/b1/add-seats', {
      key: P1,
      body: { seats: 3, months: 2 },
    })
    await call(started, 'POST', '/referred-businesses/b_credit/add-credits', {
      key: P1,
      body: { credits: 40 },
    })
  })

  it('equals the list row’s billing fields for every referred business', async () => {
    const page = dataOf(referredBusinessPage, await list(sb))
    expect(page.data.length).toBe(4)
    for (const row of page.data) {
      const status = dataOf(billingStatusSchema, await billing(sb, row.uuid))
      const fromRow: Partial<ReferredBusinessRow> = {}
      for (const f of BILLING_FIELDS) Object.assign(fromRow, { [f]: row[f] })
      expect(status, row.uuid).toEqual(fromRow)
      expect(Object.keys(status).sort()).toEqual([...BILLING_FIELDS].sort())
    }
  })

  it('reflects grants and credits: seats, expiry, credit balance', async () => {
    const b1 = dataOf(billingStatusSchema, await billing(sb, 'b1'))
    expect(b1).toMatchObject({ subscription_plan: 'plus', available_seats: 3, gateway: 'referral_partner' })
    expect(b1.subscription_expires_at).toMatch(MICRO_TIMESTAMP_RE)
    const credit = dataOf(billingStatusSchema, await billing(sb, 'b_credit'))
    expect(credit).toMatchObject({
      credit_balance: 40,
      credit_from_referral_partner: true,
      subscription_plan: 'free',
    })
  })

  it('a business not referred by this partner, or unknown → 404', async () => {
    for (const [uuid, key] of NOT_REFERRED) {
      const res = await billing(sb, uuid, key)
      expect(res.status, uuid).toBe(404)
      expect(failureOf(res).error_code).toBe(ERROR_CODES.businessNotReferred)
    }
  })
})
