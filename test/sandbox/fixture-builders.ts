/**
 * Builders of the emulator's fixtures that the test rigs share (test/api/emulator-rig.ts,
 * test/sandbox/business-helpers.ts, test/app/helpers.ts): one partner and its referred businesses,
 * and b1's open invoice, each with the rig's own names, keys and amounts.
 */
import type { Fixtures } from '../../sandbox/index'

type Invoice = NonNullable<Fixtures['invoices']>[number]
type Partner = NonNullable<Fixtures['partners']>[number]
type Business = NonNullable<Fixtures['businesses']>[number]

/** A business in Nigeria (NGN), as the rigs' first business is; `over` adds or changes any field. */
export function ngBusiness(uuid: string, name: string, key: string, over: Partial<Business> = {}): Business {
  return { uuid, name, key, currency: 'NGN', country: 'NG', ...over }
}

/** b1's invoice in NGN, dated 5 January 2026 and due a month later, partly paid; `over` changes any field. */
export function openInvoice(over: Partial<Invoice> & Pick<Invoice, 'narration'>): Invoice {
  return {
    uuid: 'i1',
    source_uuid: 's1',
    business: 'b1',
    date: '2026-01-05',
    due_date: '2026-02-05',
    total_amount: 100,
    amount_paid: 40,
    currency: 'NGN',
    ...over,
  }
}

/**
 * A rig's fixtures: `partner` with its businesses and records, a rate limit of `perMinute` calls a
 * minute and jobs that finish after `jobDelayMs`; `over` replaces any part.
 */
export function rigFixtures(
  partner: Partner,
  world: Omit<Fixtures, 'partners' | 'rate_limit' | 'job_delay_ms'>,
  limits: { perMinute: number; jobDelayMs: number },
  over: Partial<Fixtures> = {},
): Fixtures {
  return {
    partners: [partner],
    ...world,
    rate_limit: { limit: limits.perMinute, window_seconds: 60 },
    job_delay_ms: limits.jobDelayMs,
    ...over,
  }
}
