/**
 * The world of the e2e suites that show every screen of both modes (i18n.test.ts, layout.test.ts):
 * a partner, the business it referred (NGN, 120 credits) with its open invoices and bank
 * transactions, and more businesses the partner referred. Each suite gives its own names, counts
 * and texts; ids follow its tag (b-<tag>, inv-<tag>-<i>, bt-<tag>-<i>).
 */
import type { Fixtures } from '../../sandbox'

type Business = NonNullable<Fixtures['businesses']>[number]
type Invoice = NonNullable<Fixtures['invoices']>[number]

export interface PartnerWorld {
  tag: string
  partner: { name: string; key: string }
  business: { name: string; key: string }
  /** More businesses the partner referred. */
  referred: Omit<Business, 'referred_by'>[]
  /** The business's invoices (125,000 NGN and 1,000 more each): what differs per invoice. */
  invoices: {
    count: number
    each: (i: number) => Pick<Invoice, 'source_uuid' | 'date' | 'narration' | 'amount_paid'>
  }
  /** Its bank transactions (from 1 March 2026, money in and out in turn): their narrations. */
  transactions: { count: number; narration: (i: number) => string }
}

export function partnerWorld(w: PartnerWorld): Fixtures {
  const business = `b-${w.tag}`
  return {
    partners: [{ ...w.partner, holding_credits: 25_000 }],
    businesses: [
      {
        uuid: business,
        ...w.business,
        currency: 'NGN',
        country: 'NG',
        referred_by: w.partner.key,
        credit_balance: 120,
      },
      ...w.referred.map((b) => ({ ...b, referred_by: w.partner.key })),
    ],
    invoices: Array.from({ length: w.invoices.count }, (_, i) => ({
      uuid: `inv-${w.tag}-${i}`,
      business,
      total_amount: 125_000 + i * 1000,
      currency: 'NGN',
      ...w.invoices.each(i),
    })),
    bank_transactions: Array.from({ length: w.transactions.count }, (_, i) => ({
      uuid: `bt-${w.tag}-${i}`,
      business,
      date: `2026-03-0${i + 1}`,
      amount: i % 2 ? -12_500.5 : 480_000,
      narration: w.transactions.narration(i),
    })),
    rate_limit: { limit: 100_000, window_seconds: 60 },
  }
}
