/**
 * POST /referred-businesses/{business_uuid}/add-credits (Part 4, Part 5 rule 8, design.md §3).
 */
import { describe, expect, it } from 'vitest'
import { ERROR_CODES, addCreditsData, billingStatusSchema } from '../../schemas'
import { PARTNER_CREATE_ROUTES } from '../../sandbox/routes/partner'
import * as rig from './partner-helpers'

const CREDITS_ROUTE = PARTNER_CREATE_ROUTES.addCredits

describe('POST /referred-businesses/{business_uuid}/add-credits', () => {
  const sb = rig.partnerSandbox({ p1Holding: 5000, p2Holding: 900 })

  const expectNoMove = (run: () => Promise<void>) => rig.expectNothingMoved(sb, CREDITS_ROUTE, run)

  it('debits the partner holding and credits the business: {credits_granted, partner_holding_balance, credit_balance}', async () => {
    const d = rig.dataOf(addCreditsData, await rig.addCredits(sb, 'b1', { credits: 250 }))
    expect(d).toEqual({ credits_granted: 250, partner_holding_balance: 4750, credit_balance: 250 })
    const again = rig.dataOf(addCreditsData, await rig.addCredits(sb, 'b1', { credits: 100.5 }))
    expect(again).toEqual({ credits_granted: 100.5, partner_holding_balance: 4649.5, credit_balance: 350.5 })
    expect(rig.holdingOf(sb, rig.P1)).toBe(4649.5)
    const status = rig.dataOf(
      billingStatusSchema,
      await rig.call(sb, 'GET', '/referred-businesses/b1/billing-status', { key: rig.P1 }),
    )
    expect(status.credit_balance).toBe(350.5)
  })

  it('is logged once as a create per grant', async () => {
    const rows = await rig.createsOn(sb, CREDITS_ROUTE)
    expect(rows).toHaveLength(2)
    expect(rows[0]).toMatchObject({ business: 'b1', resource_type: 'credit_allocation' })
  })

  it('works for a business registered with credit_from_referral_partner true (the partner manages its credit)', async () => {
    const d = rig.dataOf(addCreditsData, await rig.addCredits(sb, 'b_credit', { credits: 10 }))
    expect(d.credit_balance).toBe(10)
  })

  it('credits must be a number greater than 0 → 400 otherwise', async () => {
    const cases: [unknown, RegExp][] = [
      [{ credits: 0 }, /credits must be greater than 0/],
      [{ credits: -5 }, /credits must be greater than 0/],
      [{ credits: '10' }, /credits must be a number/],
      [{}, /credits/],
      [{ credits: 10_000_001 }, /credits must be 10000000 or less/],
    ]
    for (const [body, re] of cases) {
      await expectNoMove(async () => {
        const res = await rig.addCredits(sb, 'b1', body)
        expect(res.status, JSON.stringify(body)).toBe(400)
        const f = rig.failureOf(res)
        expect(f.error_code).toBe(ERROR_CODES.validation)
        expect(f.message).toMatch(re)
      })
    }
    await expectNoMove(async () => {
      expect(
        (await rig.call(sb, 'POST', '/referred-businesses/b1/add-credits', { key: rig.P1 })).status,
      ).toBe(400)
    })
  })

  it('holding cannot cover the credits → 400 insufficient_partner_credit_holding, nothing moves', async () => {
    await expectNoMove(async () => {
      const res = await rig.addCredits(sb, 'b_other', { credits: 901 }, rig.P2)
      expect(res.status).toBe(400)
      const f = rig.failureOf(res)
      expect(f.error_code).toBe(ERROR_CODES.insufficientHolding)
      expect(f.message).toMatch(/insufficient partner credit holding/)
      expect(f.message).toContain('901')
      expect(f.message).toContain('900')
    })
    const d = rig.dataOf(addCreditsData, await rig.addCredits(sb, 'b_other', { credits: 900 }, rig.P2))
    expect(d.partner_holding_balance).toBe(0)
  })

  it('a business not referred by this partner, or unknown → 404', async () => {
    for (const [uuid, key] of rig.NOT_REFERRED) {
      await expectNoMove(async () => {
        const res = await rig.addCredits(sb, uuid, { credits: 1 }, key)
        expect(res.status, uuid).toBe(404)
        expect(rig.failureOf(res).error_code).toBe(ERROR_CODES.businessNotReferred)
      })
    }
  })

  it('a repeated Idempotency-Key grants once and replays the same body', async () => {
    const first = await rig.addCredits(sb, 'b1', { credits: 5 }, rig.P1, 'cred-1')
    const holding = rig.holdingOf(sb, rig.P1)
    const second = await rig.addCredits(sb, 'b1', { credits: 5 }, rig.P1, 'cred-1')
    expect(second.text).toBe(first.text)
    expect(rig.holdingOf(sb, rig.P1)).toBe(holding)
  })
})
