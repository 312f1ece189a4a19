/**
 * Part 1 of 2 (auth, partner routes, purchase orders).
 * End-to-end: every client method against the emulator over real HTTP (loopback). A fresh sandbox
 * per test, so each test owns its data (partner holding, records, rate-limit budget).
 *
 * Everything runs twice (issue #11): against the emulator's full answers, and against its
 * spec-minimal variant, which carries only what api-spec.md names. Where a field is our own guess,
 * `ours(value, fallback)` says what the client reads from each: the value, or the fallback (null).
 */
import { inspect } from 'node:util'
import { describe, expect, it } from 'vitest'
import {
  DEVELOPER_API_403_MESSAGE,
  ERROR_CODES,
  PARTNER_ROUTE_BUSINESS_KEY_MESSAGE,
  proratedGrantCost,
} from '../../schemas'
import { SANDBOX_VARIANTS } from '../../sandbox/index'
import { BUSINESS_KEY, fixtures, useEmulator } from './emulator-rig'

describe.each(SANDBOX_VARIANTS)(
  'the client against the %s emulator: auth, partner routes, purchase orders',
  (variant) => {
    const r = useEmulator(variant)
    const { ours, start, client, business, partner, failure, po, registration } = r

    // ---------------------------------------------------------------------------------------------
    // Authentication
    // ---------------------------------------------------------------------------------------------

    describe('auth', () => {
      it('validateKey returns the business of the key', async () => {
        expect(await business().validateKey()).toEqual({
          business_uuid: 'b1',
          name: 'B',
          currency: ours('NGN'),
          country: ours('NG'),
        })
        expect(r.responses).toEqual([
          {
            method: 'GET',
            path: '/auth/validate',
            status: 200,
            rateLimit: { limit: 600, remaining: 599, resetAt: expect.any(Number) },
          },
        ])
      })

      it('an unknown key is a 401 with the server message, and the key is nowhere in the error', async () => {
        const e = await failure(client({ key: 'svc_sk_unknown_0123456789' }).validateKey())
        expect(e).toMatchObject({ status: 401, errorCode: ERROR_CODES.invalidKey, retryable: false })
        expect(e.message.length).toBeGreaterThan(0)
        for (const text of [e.message, JSON.stringify(e), inspect(e, { depth: 5 }), e.stack ?? '']) {
          expect(text).not.toContain('svc_sk_unknown_0123456789')
        }
      })

      it('OAuth: the app key plus a bearer token acts for the business of the token', async () => {
        await start(
          fixtures({ oauth_tokens: [{ token: 'tok_good', app_key: BUSINESS_KEY, business: 'b1' }] }),
        )
        const c = client({ mode: 'oauth', appKey: BUSINESS_KEY, accessToken: 'tok_good' })
        expect((await c.validateKey()).business_uuid).toBe('b1')
        expect((await c.getInvoice('i1')).uuid).toBe('i1')
        const bad = await failure(
          client({ mode: 'oauth', appKey: BUSINESS_KEY, accessToken: 'tok_bad' }).validateKey(),
        )
        expect(bad).toMatchObject({ status: 401, errorCode: ERROR_CODES.invalidKey })
        expect(JSON.stringify(bad)).not.toContain('tok_bad')
      })

      it('a business without Developer API access gets the 403 and its explanation', async () => {
        const f = fixtures()
        f.businesses?.push({ uuid: 'b2', name: 'No API', key: 'svc_sk_noapi', developer_api: false })
        await start(f)
        const e = await failure(client({ key: 'svc_sk_noapi' }).list('invoices'))
        expect(e).toMatchObject({
          status: 403,
          errorCode: ERROR_CODES.developerApiNotAllowed,
          message: DEVELOPER_API_403_MESSAGE,
          retryable: false,
        })
      })

      it('a key of the wrong kind is refused before any request reaches the server', async () => {
        const p = await failure(partner().validateKey())
        expect(p.errorCode).toBe('wrong_key_type')
        const b = await failure(business().addSeats('b1', { seats: 1, months: 1 }))
        expect(b.errorCode).toBe('wrong_key_type')
        expect(b.message).toContain(PARTNER_ROUTE_BUSINESS_KEY_MESSAGE)
        expect(r.responses).toEqual([])
        expect(r.sb.state.creates).toEqual([])
      })
    })

    // ---------------------------------------------------------------------------------------------
    // Partner routes
    // ---------------------------------------------------------------------------------------------

    describe('partner', () => {
      it('registers a business whose returned secret key then works on business routes', async () => {
        const p = partner()
        const reg = await p.registerBusiness(registration)
        expect(reg).toMatchObject({ name: 'New Shop', currency: 'NGN', country: 'NG' })
        expect(reg.api_secret_key).toMatch(/^svc_sk_/)
        expect(reg.api_public_key).toMatch(/^svc_pk_/)
        const own = client({ key: reg.api_secret_key! })
        expect(await own.validateKey()).toEqual({
          business_uuid: reg.business_uuid,
          name: 'New Shop',
          currency: ours('NGN'),
          country: ours('NG'),
        })

        const viewer = await p.registerBusiness({
          ...registration,
          email: 'viewer@newshop.example',
          grant_access: 'viewer',
        })
        expect(viewer.api_secret_key).toBeUndefined()
      })

      it('a weak password is refused before sending, naming what is missing', async () => {
        const e = await failure(partner().registerBusiness({ ...registration, password: 'abcdefgh' }))
        expect(e.errorCode).toBe('validation_error')
        expect(e.message).toContain('password: password needs a number, a special character')
        expect(r.sb.state.creates).toEqual([])
      })

      it('lists referred businesses page by page', async () => {
        const p = partner()
        await p.registerBusiness(registration)
        const all = await p.listReferredBusinesses({ page: 1, limit: 10 })
        expect(all).toMatchObject({ current_page: 1, per_page: 10, total: 2 })
        expect(all.data.map((r) => r.name)).toEqual(['B', 'New Shop'])
        expect(all.data[0]).toMatchObject({
          uuid: 'b1',
          currency: 'NGN',
          country: 'NG',
          credit_from_referral_partner: false,
        })
        const second = await p.listReferredBusinesses({ page: 2, limit: 1 })
        expect(second).toMatchObject({ current_page: 2, per_page: 1, total: 2 })
        expect(second.data.map((r) => r.name)).toEqual(['New Shop'])
      })

      it('grants seats: a first grant at 150 × seats × months, then a prorated one', async () => {
        const p = partner()
        const before = await p.billingStatus('b1')
        expect(before).toMatchObject({
          credit_from_referral_partner: false,
          is_subscribed_to_svc: false,
          available_seats: 0,
        })

        const first = await p.addSeats('b1', { seats: 2, months: 3 })
        expect(first).toMatchObject({ holding_credits_charged: 900, partner_holding_balance: 4100 })
        expect(first.allocation).toMatchObject({
          allocation_type: 'seats',
          seats: 2,
          months: 3,
          prorated: false,
          resulting_seats: 2,
        })
        expect(Date.parse(first.subscription_expires_at)).toBeGreaterThan(Date.now())

        const status = await p.billingStatus('b1')
        expect(status).toMatchObject({
          is_subscribed_to_svc: true,
          available_seats: 2,
          subscription_plan: 'plus',
          subscription_status: 'active',
        })
        expect(status.subscription_expires_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)

        const later = await p.addSeats('b1', { seats: 1, months: 1 })
        expect(later.allocation).toMatchObject({ prorated: true, resulting_seats: 3 })
        expect(later.holding_credits_charged).toBeGreaterThan(0)
        expect(later.holding_credits_charged).toBeLessThanOrEqual(proratedGrantCost(1, 3 * 31 * 86_400_000))
        expect(later.partner_holding_balance).toBe(4100 - later.holding_credits_charged)
        expect(later.subscription_expires_at).toBe(first.subscription_expires_at)

        const row = (await p.listReferredBusinesses({ page: 1, limit: 10 })).data.find((r) => r.uuid === 'b1')
        expect(row?.available_seats).toBe(3)
      })

      it('an add-seats the holding cannot cover fails with insufficient_partner_credit_holding and charges nothing', async () => {
        const p = partner()
        const e = await failure(p.addSeats('b1', { seats: 10, months: 36 }))
        expect(e).toMatchObject({ status: 400, errorCode: ERROR_CODES.insufficientHolding, retryable: false })
        expect(e.message).toMatch(/insufficient partner credit holding/i)
        expect((await p.addCredits('b1', { credits: 1 })).partner_holding_balance).toBe(4999)
      })

      it('grants AI credits from the holding, and refuses more than it holds', async () => {
        const p = partner()
        const before = (await p.billingStatus('b1')).credit_balance
        expect(await p.addCredits('b1', { credits: 100 })).toEqual({
          credits_granted: 100,
          partner_holding_balance: 4900,
          credit_balance: ours(before + 100),
        })
        expect((await p.billingStatus('b1')).credit_balance).toBe(before + 100)
        const e = await failure(p.addCredits('b1', { credits: 6000 }))
        expect(e).toMatchObject({ status: 400, errorCode: ERROR_CODES.insufficientHolding })
      })

      it('an unknown business is a 404', async () => {
        const e = await failure(partner().billingStatus('nobody'))
        expect(e.status).toBe(404)
        expect(e.retryable).toBe(false)
      })

      it('a repeated Idempotency-Key grants once', async () => {
        const p = partner()
        const before = (await p.billingStatus('b1')).credit_balance
        const a = await p.addCredits('b1', { credits: 10 }, { idempotencyKey: 'grant-1' })
        const b = await p.addCredits('b1', { credits: 10 }, { idempotencyKey: 'grant-1' })
        expect(b).toEqual(a)
        expect((await p.billingStatus('b1')).credit_balance).toBe(before + 10)
      })
    })

    // ---------------------------------------------------------------------------------------------
    // Purchase orders
    // ---------------------------------------------------------------------------------------------

    describe('purchase orders', () => {
      it('creates one, then lists and reads it', async () => {
        const c = business()
        const created = await c.createPurchaseOrder(po)
        expect(created).toMatchObject({
          transaction_type: 'purchase_order',
          status: 'draft',
          narration: 'Flour for January',
          amount: 51_075,
          currency: 'NGN',
        })
        expect(created.document_number).not.toBe('')
        const list = await c.list('purchase-orders')
        expect(list.meta).toEqual({ page: 1, limit: 20, total: ours(1) })
        expect(list.data.map((r) => r.uuid)).toEqual([created.uuid])
        const read = await c.get('purchase-orders', created.uuid)
        expect(read).toMatchObject({
          uuid: created.uuid,
          document_number: created.document_number,
          amount: 51_075,
          customer: ours('Flour Mills'),
          date: ours('2026-01-05'),
        })
        expect(read.items.map((i) => i.item_name)).toEqual(ours(['Flour 50kg', 'Delivery'], []))
      })

      it('the alias route creates the same kind of order', async () => {
        const created = await business().createPurchaseOrder(po, { alias: true })
        expect(created.transaction_type).toBe('purchase_order')
        expect(r.sb.state.creates.map((x) => x.route)).toEqual(['/create/purchase_order'])
      })

      it('a bad purchase order never leaves the machine', async () => {
        const c = business()
        const e = await failure(c.createPurchaseOrder({ date: '2026-01-05', items: [] }))
        expect(e.errorCode).toBe('validation_error')
        expect(e.message).toContain('items')
        expect(r.responses).toEqual([])
        expect(r.sb.state.creates).toEqual([])
        expect((await c.list('purchase-orders')).data).toEqual([])
      })

      it('the same Idempotency-Key creates once and replays the first answer', async () => {
        const c = business()
        const a = await c.createPurchaseOrder(po, { idempotencyKey: 'po-row-1' })
        const b = await c.createPurchaseOrder(po, { idempotencyKey: 'po-row-1' })
        expect(b.uuid).toBe(a.uuid)
        expect(r.sb.state.creates).toHaveLength(1)
        const other = await c.createPurchaseOrder(po)
        expect(other.uuid).not.toBe(a.uuid)
      })
    })
  },
)
