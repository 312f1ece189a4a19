/**
 * Part 5 rules 4 and 7 on the partner routes: business keys are refused with the distributor
 * message; partner keys are refused on business routes; missing, unknown and public keys are 401.
 */
import { describe, expect, it } from 'vitest'
import {
  BUSINESS_ROUTE_PARTNER_KEY_MESSAGE,
  ERROR_CODES,
  PARTNER_ROUTE_BUSINESS_KEY_MESSAGE,
  WRONG_KEY_KIND_STATUS,
  referredBusinessPage,
} from '../../schemas'
import { PARTNER_CREATE_ROUTES } from '../../sandbox/routes/partner'
import {
  B1_KEY,
  P1,
  call,
  createsOn,
  dataOf,
  failureOf,
  holdingOf,
  partnerSandbox,
  registration,
} from './partner-helpers'

const PARTNER_ROUTES: { method: 'GET' | 'POST'; path: string; body?: unknown }[] = [
  { method: 'POST', path: '/register-business', body: registration() },
  { method: 'GET', path: '/referred-businesses' },
  { method: 'GET', path: '/referred-businesses/b1/billing-status' },
  { method: 'POST', path: '/referred-businesses/b1/add-seats', body: { seats: 1, months: 1 } },
  { method: 'POST', path: '/referred-businesses/b1/add-credits', body: { credits: 1 } },
]

describe('partner route authentication', () => {
  const sb = partnerSandbox()

  for (const r of PARTNER_ROUTES) {
    it(`a business key on ${r.method} ${r.path} → 403 telling the caller to use the distributor partner secret`, async () => {
      const holding = holdingOf(sb, P1)
      const res = await call(sb, r.method, r.path, { key: B1_KEY, body: r.body })
      expect(res.status).toBe(WRONG_KEY_KIND_STATUS)
      expect(WRONG_KEY_KIND_STATUS).toBe(403)
      const f = failureOf(res)
      expect(f.message).toBe(PARTNER_ROUTE_BUSINESS_KEY_MESSAGE)
      expect(f.message).toMatch(/distributor partner secret/)
      expect(f.error_code).toBe(ERROR_CODES.wrongKeyKind)
      expect(holdingOf(sb, P1)).toBe(holding)
    })
  }

  it('no partner route creates anything or moves the holding when called with a business key', async () => {
    expect(await createsOn(sb, PARTNER_CREATE_ROUTES.register)).toHaveLength(0)
    expect(await createsOn(sb, PARTNER_CREATE_ROUTES.addSeats)).toHaveLength(0)
    expect(await createsOn(sb, PARTNER_CREATE_ROUTES.addCredits)).toHaveLength(0)
    expect(holdingOf(sb, P1)).toBe(5000)
  })

  it('a partner key on a business route (GET /auth/validate) → 403', async () => {
    const res = await call(sb, 'GET', '/auth/validate', { key: P1 })
    expect(res.status).toBe(403)
    const f = failureOf(res)
    expect(f.message).toBe(BUSINESS_ROUTE_PARTNER_KEY_MESSAGE)
    expect(f.error_code).toBe(ERROR_CODES.wrongKeyKind)
  })

  it('a missing key on a partner route → 401', async () => {
    for (const r of PARTNER_ROUTES) {
      const res = await call(sb, r.method, r.path, { body: r.body })
      expect(res.status, r.path).toBe(401)
      expect(failureOf(res).error_code).toBe(ERROR_CODES.invalidKey)
    }
  })

  it('an unknown partner-looking key → 401', async () => {
    const res = await call(sb, 'GET', '/referred-businesses', { key: 'svc_partner_sk_nobody' })
    expect(res.status).toBe(401)
  })

  it('a public svc_pk_ key on a partner route → 401 (never a secret)', async () => {
    const res = await call(sb, 'GET', '/referred-businesses', { key: 'svc_pk_b1' })
    expect(res.status).toBe(401)
    expect(failureOf(res).message).toMatch(/public key/i)
  })

  it('the partner key works in any of X-API-Key, api-key and sk', async () => {
    for (const keyHeader of ['X-API-Key', 'api-key', 'sk']) {
      const page = dataOf(
        referredBusinessPage,
        await call(sb, 'GET', '/referred-businesses', { key: P1, keyHeader }),
      )
      expect(page.total, keyHeader).toBe(4)
    }
  })
})
