/**
 * POST /register-business (api-spec.md 2.6, Part 5 rules 2 to 4, Part 8's password rule).
 */
import { describe, expect, it } from 'vitest'
import {
  ERROR_CODES,
  PARTNER_ROUTE_BUSINESS_KEY_MESSAGE,
  authValidateData,
  referredBusinessPage,
  registeredBusinessData,
} from '../../schemas'
import type { Sandbox } from '../../sandbox/index'
import { PARTNER_CREATE_ROUTES } from '../../sandbox/routes/partner'
import {
  B1_KEY,
  P1,
  P2,
  call,
  createsOn,
  dataOf,
  failureOf,
  partnerSandbox,
  registration,
} from './partner-helpers'

const register = (sb: Sandbox, body: unknown, key = P1) =>
  call(sb, 'POST', '/register-business', { key, body })

async function expect400(sb: Sandbox, body: unknown, re: RegExp): Promise<void> {
  const before = sb.state.businesses.size
  const res = await register(sb, body)
  expect(res.status, res.text).toBe(400)
  const f = failureOf(res)
  expect(f.error_code).toBe(ERROR_CODES.validation)
  expect(f.message).toMatch(re)
  expect(sb.state.businesses.size).toBe(before)
}

describe('POST /register-business', () => {
  const sb = partnerSandbox()

  it('grant_access admin returns business_uuid, name, currency, country and svc_pk_/svc_sk_ keys', async () => {
    const body = registration({
      business_name: 'Admin Foods',
      currency: 'USD',
      country: 'US',
      timezone: 'America/New_York',
    })
    const d = dataOf(registeredBusinessData, await register(sb, body))
    expect(d).toMatchObject({ name: 'Admin Foods', currency: 'USD', country: 'US' })
    expect(d.business_uuid).not.toBe('')
    expect(d.api_public_key).toMatch(/^svc_pk_/)
    expect(d.api_secret_key).toMatch(/^svc_sk_/)
  })

  it('the returned svc_sk_ key works at once on a business route (GET /auth/validate)', async () => {
    const d = dataOf(registeredBusinessData, await register(sb, registration({ business_name: 'Keys Now' })))
    const res = await call(sb, 'GET', '/auth/validate', { key: d.api_secret_key })
    const v = dataOf(authValidateData, res)
    expect(v).toMatchObject({
      business_uuid: d.business_uuid,
      name: 'Keys Now',
      currency: 'NGN',
      country: 'NG',
    })
  })

  it('the returned svc_pk_ key is rejected as a secret (401)', async () => {
    const d = dataOf(registeredBusinessData, await register(sb, registration()))
    const res = await call(sb, 'GET', '/auth/validate', { key: d.api_public_key })
    expect(res.status).toBe(401)
    expect(failureOf(res).message).toMatch(/public key/i)
  })

  it('grant_access viewer and editor return no keys', async () => {
    for (const grant_access of ['viewer', 'editor']) {
      const res = await register(sb, registration({ grant_access }))
      const d = dataOf(registeredBusinessData, res)
      expect(d.business_uuid).not.toBe('')
      expect(d).not.toHaveProperty('api_public_key')
      expect(d).not.toHaveProperty('api_secret_key')
    }
  })

  it('grant_access outside admin, viewer, editor → 400', async () => {
    await expect400(
      sb,
      registration({ grant_access: 'owner' }),
      /grant_access must be one of admin, viewer, editor/,
    )
    await expect400(sb, registration({ grant_access: 'ADMIN' }), /grant_access/)
  })

  it('password rule: at least 8 characters with a letter, a number and a special character; 400 lists what is missing', async () => {
    await expect400(
      sb,
      registration({ password: 'abc' }),
      /password.*at least 8 characters.*a number.*a special character/,
    )
    await expect400(sb, registration({ password: 'password1' }), /password needs a special character/)
    await expect400(sb, registration({ password: 'password!' }), /password needs a number/)
    await expect400(sb, registration({ password: '12345678!' }), /password needs a letter/)
    const res = await register(sb, registration({ password: 'Abcdef1!' }))
    expect(res.status).toBe(200)
  })

  it('timezone must be an IANA zone name → 400 otherwise', async () => {
    await expect400(sb, registration({ timezone: 'Mars/Olympus_Mons' }), /timezone must be an IANA zone name/)
    await expect400(sb, registration({ timezone: 'GMT+1' }), /timezone/)
    await expect400(sb, registration({ timezone: '' }), /timezone/)
    expect((await register(sb, registration({ timezone: 'UTC' }))).status).toBe(200)
    expect((await register(sb, registration({ timezone: 'Europe/London' }))).status).toBe(200)
  })

  it('every field but credit_from_referral_partner is required (our choice): 400 naming the missing field', async () => {
    for (const field of [
      'email',
      'firstname',
      'lastname',
      'business_name',
      'password',
      'country',
      'currency',
      'timezone',
      'grant_access',
    ]) {
      const body = registration()
      delete body[field]
      await expect400(sb, body, new RegExp(field))
    }
  })

  it('a body that is not a JSON object → 400', async () => {
    const res = await call(sb, 'POST', '/register-business', { key: P1 })
    expect(res.status).toBe(400)
    await expect400(sb, [registration()], /.+/)
  })

  it('credit_from_referral_partner defaults to false and can be set true', async () => {
    const plain = dataOf(
      registeredBusinessData,
      await register(sb, registration({ business_name: 'Default Credit' })),
    )
    const partnerPaid = dataOf(
      registeredBusinessData,
      await register(
        sb,
        registration({ business_name: 'Partner Credit', credit_from_referral_partner: true }),
      ),
    )
    const list = dataOf(
      referredBusinessPage,
      await call(sb, 'GET', '/referred-businesses?limit=100', { key: P1 }),
    )
    const row = (uuid: string) => list.data.find((r) => r.uuid === uuid)
    expect(row(plain.business_uuid)?.credit_from_referral_partner).toBe(false)
    expect(row(partnerPaid.business_uuid)?.credit_from_referral_partner).toBe(true)
    await expect400(
      sb,
      registration({ credit_from_referral_partner: 'yes' }),
      /credit_from_referral_partner must be true or false/,
    )
  })

  it('the new business is referred by this partner: free plan, credit balance 0, listed with its email', async () => {
    const email = 'Fresh.Owner@example.com'
    const d = dataOf(
      registeredBusinessData,
      await register(sb, registration({ email, business_name: 'Fresh' })),
    )
    const mine = dataOf(
      referredBusinessPage,
      await call(sb, 'GET', '/referred-businesses?limit=100', { key: P1 }),
    )
    expect(mine.data.find((r) => r.uuid === d.business_uuid)).toMatchObject({
      name: 'Fresh',
      email,
      credit_balance: 0,
      subscription_plan: 'free',
      is_subscribed_to_svc: false,
    })
    const theirs = dataOf(
      referredBusinessPage,
      await call(sb, 'GET', '/referred-businesses?limit=100', { key: P2 }),
    )
    expect(theirs.data.some((r) => r.uuid === d.business_uuid)).toBe(false)
  })

  it('a duplicate email (any case) → 409 email_taken, nothing created', async () => {
    const email = 'dup.owner@example.com'
    expect((await register(sb, registration({ email }))).status).toBe(200)
    const before = sb.state.businesses.size
    for (const again of [email, 'DUP.Owner@Example.com']) {
      const res = await register(sb, registration({ email: again }), P2)
      expect(res.status).toBe(409)
      const f = failureOf(res)
      expect(f.error_code).toBe(ERROR_CODES.emailTaken)
      expect(ERROR_CODES.emailTaken).toBe('email_taken')
      expect(f.message).toContain(again)
    }
    // An email from the fixtures is taken too.
    expect((await register(sb, registration({ email: 'b1@example.com' }))).status).toBe(409)
    expect(sb.state.businesses.size).toBe(before)
  })

  it('each registration is logged once as a create; an Idempotency-Key replay creates nothing', async () => {
    const before = (await createsOn(sb, PARTNER_CREATE_ROUTES.register)).length
    const body = registration()
    const first = await call(sb, 'POST', '/register-business', { key: P1, body, idem: 'reg-1' })
    const second = await call(sb, 'POST', '/register-business', { key: P1, body, idem: 'reg-1' })
    expect(second.text).toBe(first.text)
    const rows = await createsOn(sb, PARTNER_CREATE_ROUTES.register)
    expect(rows).toHaveLength(before + 1)
    expect(rows.at(-1)).toMatchObject({ resource_type: 'business', idempotency_key: 'reg-1' })
  })

  it('a business key → 403 telling the caller to use the distributor partner secret', async () => {
    const before = sb.state.businesses.size
    const res = await register(sb, registration(), B1_KEY)
    expect(res.status).toBe(403)
    const f = failureOf(res)
    expect(f.message).toBe(PARTNER_ROUTE_BUSINESS_KEY_MESSAGE)
    expect(f.message).toMatch(/distributor partner secret/)
    expect(sb.state.businesses.size).toBe(before)
  })
})
