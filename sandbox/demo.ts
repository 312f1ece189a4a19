/**
 * The demo's world: one business with a few invoices and bank transactions, and its referring
 * partner, each with fresh keys. The emulator starts with it when no fixtures are given.
 */
import { randomBytes } from 'node:crypto'
import type { Fixtures } from './state'

export interface DemoKeys {
  businessKey: string
  businessPublicKey: string
  businessUuid: string
  partnerKey: string
}

export function demoFixtures(): { fixtures: Fixtures; demo: DemoKeys } {
  const rand = () => randomBytes(16).toString('hex')
  const demo: DemoKeys = {
    businessKey: `svc_sk_demo_${rand()}`,
    businessPublicKey: `svc_pk_demo_${rand()}`,
    businessUuid: 'demo-business-0001',
    partnerKey: `svc_partner_sk_demo_${rand()}`,
  }
  const today = new Date()
  const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10)
  const fixtures: Fixtures = {
    partners: [{ name: 'Demo Partner Accounting', key: demo.partnerKey, holding_credits: 50_000 }],
    businesses: [
      {
        uuid: demo.businessUuid,
        name: 'Demo Bakery Ltd',
        email: 'owner@demo-bakery.example',
        key: demo.businessKey,
        public_key: demo.businessPublicKey,
        currency: 'NGN',
        country: 'NG',
        developer_api: true,
        plus_subscription: false,
        credit_from_referral_partner: false,
        referred_by: demo.partnerKey,
        credit_balance: 1000,
      },
    ],
    invoices: [
      {
        uuid: 'demo-inv-0001',
        source_uuid: 'INV-1001',
        business: demo.businessUuid,
        date: day(-20),
        due_date: day(10),
        narration: 'Wedding cake order',
        total_amount: 185000,
        amount_paid: 50000,
        currency: 'NGN',
      },
      {
        uuid: 'demo-inv-0002',
        source_uuid: 'INV-1002',
        business: demo.businessUuid,
        date: day(-12),
        due_date: day(18),
        narration: 'Weekly bread supply, Cafe Lumen',
        total_amount: 64000,
        amount_paid: 64000,
        currency: 'NGN',
      },
      {
        uuid: 'demo-inv-0003',
        source_uuid: 'INV-1003',
        business: demo.businessUuid,
        date: day(-3),
        due_date: day(27),
        narration: 'Corporate pastries',
        total_amount: 92500,
        amount_paid: 0,
        currency: 'NGN',
      },
    ],
    bank_transactions: [
      {
        uuid: 'demo-tx-0001',
        business: demo.businessUuid,
        date: day(-9),
        amount: -42000,
        narration: 'Flour Mills Nigeria',
      },
      {
        uuid: 'demo-tx-0002',
        business: demo.businessUuid,
        date: day(-7),
        amount: 64000,
        narration: 'Cafe Lumen transfer',
      },
      {
        uuid: 'demo-tx-0003',
        business: demo.businessUuid,
        date: day(-2),
        amount: -8500,
        narration: 'Diesel for generator',
      },
    ],
    rate_limit: { limit: 600, window_seconds: 60 },
    job_delay_ms: 800,
  }
  return { fixtures, demo }
}
