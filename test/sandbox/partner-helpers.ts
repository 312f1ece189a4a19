/**
 * Shared fixtures and HTTP helpers for the partner route tests (test/sandbox/partner*.test.ts).
 * Every call goes over real HTTP (./http.ts) to an emulator started in process on a free port.
 */
import { expect } from 'vitest'
import type { z } from 'zod'
import { failureEnvelope } from '../../schemas'
import { type Fixtures, type Sandbox, startSandbox } from '../../sandbox/index'
import { type Res, call, useSandbox } from './http'

export { type Res, call, dataOf, useSandbox } from './http'

export const P1 = 'svc_partner_sk_p1'
export const P2 = 'svc_partner_sk_p2'
export const B1_KEY = 'svc_sk_b1'
export const DAY_MS = 86_400_000

/**
 * P1 referred b1 (plain), b_plus (own Plus), b_credit (credit_from_referral_partner) and b_both (both);
 * P2 referred b_other; b_orphan has no partner.
 */
export function partnerFixtures(opts: { p1Holding?: number; p2Holding?: number } = {}): Fixtures {
  const biz = (
    uuid: string,
    referred_by: string | null,
    extra: { plus?: boolean; credit?: boolean } = {},
  ) => ({
    uuid,
    name: `Business ${uuid}`,
    email: `${uuid}@example.com`,
    key: `svc_sk_${uuid}`,
    public_key: `svc_pk_${uuid}`,
    currency: 'NGN',
    country: 'NG',
    developer_api: true,
    plus_subscription: extra.plus ?? false,
    credit_from_referral_partner: extra.credit ?? false,
    referred_by,
    credit_balance: 0,
  })
  return {
    partners: [
      { name: 'P1', key: P1, holding_credits: opts.p1Holding ?? 5000 },
      { name: 'P2', key: P2, holding_credits: opts.p2Holding ?? 900 },
    ],
    businesses: [
      biz('b1', P1),
      biz('b_plus', P1, { plus: true }),
      biz('b_credit', P1, { credit: true }),
      biz('b_both', P1, { plus: true, credit: true }),
      biz('b_other', P2),
      biz('b_orphan', null),
    ],
    job_delay_ms: 50,
  }
}

export function start(fixtures: Fixtures = partnerFixtures()): Promise<Sandbox> {
  return startSandbox({ fixtures, port: 0 })
}

/**
 * An emulator with partnerFixtures(opts) for the calling describe block (useSandbox); `setup` runs
 * once it is up, before the block's tests.
 */
export function partnerSandbox(
  opts: Parameters<typeof partnerFixtures>[0] = {},
  setup: (sb: Sandbox) => Promise<void> = async () => {},
): Sandbox {
  return useSandbox(async () => {
    const sb = await start(partnerFixtures(opts))
    await setup(sb)
    return sb
  })
}

/** A failure envelope, checked against the shared schema. */
export function failureOf(res: Res): z.output<typeof failureEnvelope> {
  return failureEnvelope.parse(res.body)
}

/** POST /referred-businesses/{uuid}/<action> as partner P1, unless another key is given. */
function grantTo(action: 'add-seats' | 'add-credits') {
  return (sb: Sandbox, uuid: string, body: unknown, key = P1, idem?: string) =>
    call(sb, 'POST', `/referred-businesses/${uuid}/${action}`, { key, body, idem })
}
export const addSeats = grantTo('add-seats')
export const addCredits = grantTo('add-credits')

/**
 * Runs `run` and asserts it moved nothing: neither partner's holding, no business's credit balance,
 * and no create logged on `route`. Returns what `run` returns.
 */
export async function expectNothingMoved<T>(sb: Sandbox, route: string, run: () => Promise<T>): Promise<T> {
  const h1 = holdingOf(sb, P1)
  const h2 = holdingOf(sb, P2)
  const balances = () => [...sb.state.businesses.values()].map((b) => b.credit_balance)
  const before = balances()
  const creates = (await createsOn(sb, route)).length
  const out = await run()
  expect(holdingOf(sb, P1)).toBe(h1)
  expect(holdingOf(sb, P2)).toBe(h2)
  expect(balances()).toEqual(before)
  expect(await createsOn(sb, route)).toHaveLength(creates)
  return out
}

/** [business uuid, partner key] pairs where that partner did not refer that business, or it is unknown. */
export const NOT_REFERRED: readonly (readonly [uuid: string, partnerKey: string])[] = [
  ['b_other', P1],
  ['b1', P2],
  ['b_orphan', P1],
  ['no-such-business', P1],
]

/** Moves the emulator clock; returns the emulator's "now" (epoch ms) as it reports it. */
export async function advanceClock(sb: Sandbox, ms: number): Promise<number> {
  const res = await fetch(`${sb.origin}/_sandbox/clock`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ advance_ms: ms }),
  })
  if (res.status !== 200) throw new Error(`clock move failed: ${res.status}`)
  const body = (await res.json()) as { data: { now: string } }
  return Date.parse(body.data.now)
}

/** Epoch ms of a microsecond timestamp (2026-01-05T10:20:30.123456Z). */
export function parseMicro(ts: string): number {
  return Date.parse(ts.replace(/(\.\d{3})\d{3}Z$/, '$1Z'))
}

/** The partner's holding as the emulator holds it (no route reads it without spending). */
export function holdingOf(sb: Sandbox, partnerKey: string): number {
  const p = sb.state.partners.get(partnerKey)
  if (!p) throw new Error(`no partner ${partnerKey}`)
  return p.holding_credits
}

export async function createsOn(sb: Sandbox, route: string): Promise<unknown[]> {
  const res = await fetch(`${sb.origin}/_sandbox/creates?route=${encodeURIComponent(route)}`)
  const body = (await res.json()) as { data: unknown[] }
  return body.data
}

/** A registration body that passes every rule of 2.6; override fields per test. */
export function registration(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email: `new-${Math.random().toString(36).slice(2)}@example.com`,
    firstname: 'Ada',
    lastname: 'Obi',
    business_name: 'Ada Foods Ltd',
    password: 'Passw0rd!',
    country: 'NG',
    currency: 'NGN',
    timezone: 'Africa/Lagos',
    grant_access: 'admin',
    ...overrides,
  }
}
