/**
 * Emulator rules of issue #11 point 3, over real HTTP: AI credit usage (2.6), chart-of-accounts
 * delete (Part 7 rule 1), a business's own source_uuid winning over another business's uuid (2.11),
 * the `bank` and `schema` list filters, PUT /expenses/{uuid} (not in the spec: 405), and the sixth
 * add-seats failure (Part 7 rule 4).
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  ADD_SEATS_FAILURE_STATUS,
  AI_CREDITS_EXHAUSTED_STATUS,
  AI_CREDITS_PER_CREATE,
  ERROR_CODES,
  billingStatusSchema,
} from '../../schemas'
import {
  K1,
  K2,
  PARTNER,
  anyRecord,
  as1,
  asyncData,
  b64,
  businessSandbox,
  call,
  dataOf,
  failureOf,
  metaOf,
  waitForJob,
} from './business-helpers'

const rows = z.array(z.object({ uuid: z.string() }).loose())
const uuids = (res: Awaited<ReturnType<typeof as1>>) => dataOf(rows, res).map((r) => r.uuid)

describe("2.11: a business's own source_uuid resolves even when another business has that uuid", () => {
  const sb = businessSandbox({
    bank_transactions: [
      { uuid: 'shared-id', business: 'b2', date: '2026-01-05', amount: 5, narration: 'b2 own line' },
      {
        uuid: 't_mine',
        source_uuid: 'shared-id',
        business: 'b1',
        date: '2026-01-05',
        amount: -7,
        narration: 'b1 line',
      },
    ],
    records: [
      {
        resource: 'expenses',
        uuid: 'exp-shared',
        business: 'b2',
        date: '2026-01-05',
        narration: 'b2 expense',
      },
      {
        resource: 'expenses',
        uuid: 'e_mine',
        source_uuid: 'exp-shared',
        business: 'b1',
        date: '2026-01-05',
        narration: 'b1 expense',
      },
    ],
  })

  it('GET, PATCH and DELETE by that source_uuid reach the own record; the other business keeps its own', async () => {
    expect(dataOf(anyRecord, await as1(sb, 'GET', '/bank-transactions/shared-id')).uuid).toBe('t_mine')
    const patched = await as1(sb, 'PATCH', '/expenses/exp-shared', { body: { narration: 'renamed' } })
    expect(dataOf(anyRecord, patched)).toMatchObject({ uuid: 'e_mine', narration: 'renamed' })
    expect((await as1(sb, 'DELETE', '/bank-transactions/shared-id')).status).toBe(200)
    const theirs = await call(sb, 'GET', '/bank-transactions/shared-id', { key: K2 })
    expect(dataOf(anyRecord, theirs)).toMatchObject({ uuid: 'shared-id', narration: 'b2 own line' })
    const theirExpense = await call(sb, 'GET', '/expenses/exp-shared', { key: K2 })
    expect(dataOf(anyRecord, theirExpense).narration).toBe('b2 expense')
  })
})

describe('list filters bank and schema are applied', () => {
  const sb = businessSandbox({
    bank_transactions: [
      {
        uuid: 'gt1',
        business: 'b1',
        date: '2026-01-05',
        amount: -100,
        narration: 'Flour',
        bank: 'acc-gtbank',
      },
      {
        uuid: 'gt2',
        business: 'b1',
        date: '2026-01-06',
        amount: 2500,
        narration: 'Sale',
        bank: 'acc-gtbank',
      },
      {
        uuid: 'zb1',
        business: 'b1',
        date: '2026-01-07',
        amount: -40,
        narration: 'Fuel',
        bank: 'acc-zenith',
      },
      { uuid: 'nb1', business: 'b1', date: '2026-01-08', amount: 10, narration: 'Cash' },
    ],
    accounts: [
      { uuid: 'acc-gtbank', business: 'b1', name: 'GTBank current', code: '1010', class: 'asset' },
      { uuid: 'acc-rent', business: 'b1', name: 'Rent', code: '6100', class: 'expense' },
      { uuid: 'acc-loan', business: 'b1', name: 'Bank loan', code: '2200', class: 'liability' },
    ],
  })

  it('bank: only the transactions of that bank account, with the total counting only them', async () => {
    const res = await as1(sb, 'GET', '/bank-transactions?bank=acc-gtbank&date_order=asc')
    expect(uuids(res)).toEqual(['gt1', 'gt2'])
    expect(metaOf(res).total).toBe(2)
    expect(uuids(await as1(sb, 'GET', '/bank-transactions?bank=ACC-ZENITH'))).toEqual(['zb1'])
    expect(uuids(await as1(sb, 'GET', '/bank-transactions?bank=nope'))).toEqual([])
    // Records that belong to no bank never match a bank filter.
    expect(uuids(await as1(sb, 'GET', '/invoices?bank=acc-gtbank'))).toEqual([])
  })

  it('schema: money_in / money_out on bank transactions, the class on accounts, the resource type elsewhere', async () => {
    const out = await as1(sb, 'GET', '/bank-transactions?schema=money_out&date_order=asc')
    expect(uuids(out)).toEqual(['gt1', 'zb1'])
    expect(uuids(await as1(sb, 'GET', '/bank-transactions?schema=money_in&date_order=asc'))).toEqual([
      'gt2',
      'nb1',
    ])
    expect(uuids(await as1(sb, 'GET', '/accounts?schema=liability'))).toEqual(['acc-loan'])
    expect(uuids(await as1(sb, 'GET', '/invoices?schema=invoice'))).toEqual(['i1'])
    expect(uuids(await as1(sb, 'GET', '/invoices?schema=bill'))).toEqual([])
    // Combined with the other filters.
    expect(uuids(await as1(sb, 'GET', '/bank-transactions?schema=money_out&bank=acc-gtbank'))).toEqual([
      'gt1',
    ])
  })
})

describe('PUT /expenses/{uuid} is not in the spec', () => {
  const sb = businessSandbox()

  it('answers 405 naming the methods it has, and changes nothing', async () => {
    const created = dataOf(
      anyRecord,
      await as1(sb, 'POST', '/expenses', { body: { prompt: 'Diesel NGN 5,000', process_type: 'direct' } }),
    )
    const res = await as1(sb, 'PUT', `/expenses/${created.uuid}`, {
      body: { narration: 'x', date: '2026-01-01' },
    })
    const f = failureOf(res, 405)
    expect(f.error_code).toBe(ERROR_CODES.methodNotAllowed)
    expect(f.message).toMatch(/PATCH/)
    expect(res.headers.get('allow')).toBe('GET, PATCH')
    expect(dataOf(anyRecord, await as1(sb, 'GET', `/expenses/${created.uuid}`)).narration).toBe(
      created.narration,
    )
    // PUT on bills is in the spec and still works.
    const bill = dataOf(
      anyRecord,
      await as1(sb, 'POST', '/bills', { body: { prompt: 'Bill NGN 9', process_type: 'direct' } }),
    )
    expect(
      (await as1(sb, 'PUT', `/bills/${bill.uuid}`, { body: { narration: 'ok', date: '2026-01-01' } })).status,
    ).toBe(200)
  })
})

describe('Part 7 rule 1: chart-of-accounts delete', () => {
  const sb = businessSandbox({
    accounts: [
      { uuid: 'acc-sales', business: 'b1', name: 'Sales', code: '4000', class: 'income', default: true },
      {
        uuid: 'acc-cash',
        business: 'b1',
        name: 'Cash in till',
        code: '1000',
        class: 'asset',
        cashbook: true,
      },
      { uuid: 'acc-fuel', business: 'b1', name: 'Fuel', code: '6200', class: 'expense' },
      { uuid: 'acc-rent', business: 'b1', name: 'Rent', code: '6100', class: 'expense' },
      {
        uuid: 'acc-misc',
        business: 'b1',
        name: 'Sundries',
        code: '6900',
        class: 'expense',
        source_uuid: 'legacy-69',
      },
      { uuid: 'acc-free', business: 'b1', name: 'Unused', code: '6999', class: 'expense' },
    ],
    records: [
      {
        resource: 'expenses',
        business: 'b1',
        date: '2026-01-05',
        narration: 'Diesel',
        account: 'acc-fuel',
      },
    ],
  })

  it('a default account → 400 saying so', async () => {
    const f = failureOf(await as1(sb, 'DELETE', '/accounts/acc-sales'), 400)
    expect(f.message).toMatch(/Sales.*default account/)
    expect(f.error_code).toBe(ERROR_CODES.accountNotDeletable)
  })

  it('an account under cashbook rules → 400 saying so', async () => {
    expect(failureOf(await as1(sb, 'DELETE', '/accounts/acc-cash'), 400).message).toMatch(/cashbook/)
  })

  it('an account in use by a record, or by a purchase order line (by name or code) → 400 saying so', async () => {
    expect(failureOf(await as1(sb, 'DELETE', '/accounts/acc-fuel'), 400).message).toMatch(
      /in use by 1 record/,
    )
    const po = {
      date: '2026-01-10',
      items: [{ item_name: 'Rent, January', quantity: 1, selling_price: 10, category: '6100' }],
    }
    expect((await as1(sb, 'POST', '/purchase-orders', { body: po })).status).toBe(200)
    expect(failureOf(await as1(sb, 'DELETE', '/accounts/acc-rent'), 400).message).toMatch(/in use/)
  })

  it('a free account is deleted (also by source_uuid); then 404; another business cannot delete it', async () => {
    expect((await call(sb, 'DELETE', '/accounts/acc-free', { key: K2 })).status).toBe(404)
    const res = await as1(sb, 'DELETE', '/accounts/acc-free')
    expect(res.status).toBe(200)
    expect(res.body).not.toHaveProperty('data')
    expect((await as1(sb, 'GET', '/accounts/acc-free')).status).toBe(404)
    expect((await as1(sb, 'DELETE', '/accounts/legacy-69')).status).toBe(200)
    expect((await as1(sb, 'DELETE', '/accounts/acc-free')).status).toBe(404)
    // The refused ones are all still there.
    expect(uuids(await as1(sb, 'GET', '/accounts?limit=100')).sort()).toEqual([
      'acc-cash',
      'acc-fuel',
      'acc-rent',
      'acc-sales',
    ])
  })
})

describe('2.6: AI credit usage', () => {
  const sb = businessSandbox({
    partners: [{ name: 'P', key: PARTNER, holding_credits: 2 }],
    businesses: [
      { uuid: 'b1', name: 'Bakery One', key: K1, credit_balance: 2, referred_by: PARTNER },
      {
        uuid: 'b2',
        name: 'Paid by partner',
        key: K2,
        credit_balance: 50,
        credit_from_referral_partner: true,
        referred_by: PARTNER,
      },
    ],
  })

  const balance = async (uuid: string) =>
    dataOf(
      billingStatusSchema,
      await call(sb, 'GET', `/referred-businesses/${uuid}/billing-status`, { key: PARTNER }),
    ).credit_balance
  const holding = () => [...sb.state.partners.values()][0]!.holding_credits

  it('each AI create costs AI_CREDITS_PER_CREATE of the business balance, whatever its attachments', async () => {
    const body = {
      prompt: 'Two receipts',
      process_type: 'direct',
      attachments: [
        { file: b64('Fuel total 10'), type: 'base64', name: 'a.txt' },
        { file: b64('Flour total 20'), type: 'base64', name: 'b.txt' },
      ],
    }
    expect((await as1(sb, 'POST', '/expenses', { body })).status).toBe(200)
    expect(await balance('b1')).toBe(2 - AI_CREDITS_PER_CREATE)
  })

  it('an idempotent replay is not charged again; a create that fails gives its credit back', async () => {
    const body = { prompt: 'Diesel NGN 5', process_type: 'direct' }
    await as1(sb, 'POST', '/bills', { body, idem: 'once' })
    const before = await balance('b1')
    expect((await as1(sb, 'POST', '/bills', { body, idem: 'once' })).status).toBe(200)
    expect(await balance('b1')).toBe(before)
    sb.state.businesses.get('b1')!.credit_balance = 5
    const failed = await as1(sb, 'POST', '/expenses', {
      body: { prompt: 'x [[sandbox:fail]]', process_type: 'direct' },
    })
    expect(failed.status).toBe(400)
    expect(await balance('b1')).toBe(5)
    const accepted = dataOf(
      asyncData,
      await as1(sb, 'POST', '/expenses', { body: { prompt: 'y [[sandbox:fail]]' } }),
    )
    expect(await balance('b1')).toBe(5 - AI_CREDITS_PER_CREATE)
    expect((await waitForJob(sb, accepted.job_reference)).job.status).toBe('failed')
    expect(await balance('b1')).toBe(5)
  })

  it('when credits run out the create fails with 402 insufficient_ai_credits, saying why; nothing is created', async () => {
    sb.state.businesses.get('b1')!.credit_balance = 0
    const count = sb.state.creates.length
    const res = await as1(sb, 'POST', '/expenses', { body: { prompt: 'Diesel NGN 5' } })
    const f = failureOf(res, AI_CREDITS_EXHAUSTED_STATUS)
    expect(f.error_code).toBe(ERROR_CODES.insufficientAiCredits)
    expect(f.message).toMatch(/insufficient AI credits: .* this business has 0 credits left/)
    expect(sb.state.creates.length).toBe(count)
  })

  it('a 402 is not stored against its Idempotency-Key: after a grant the same key goes through', async () => {
    sb.state.businesses.get('b1')!.credit_balance = 0
    const body = { prompt: 'Flour NGN 7', process_type: 'direct' }
    expect((await as1(sb, 'POST', '/expenses', { body, idem: 'row-42' })).status).toBe(402)
    sb.state.businesses.get('b1')!.credit_balance = 1
    const res = await as1(sb, 'POST', '/expenses', { body, idem: 'row-42' })
    expect(res.status).toBe(200)
    expect(res.headers.get('idempotent-replayed')).toBeNull()
  })

  it("credit_from_referral_partner: the partner's holding pays, the business balance is untouched", async () => {
    const h = holding()
    const res = await call(sb, 'POST', '/expenses', {
      key: K2,
      body: { prompt: 'Fuel NGN 3', process_type: 'direct' },
    })
    expect(res.status).toBe(200)
    expect(holding()).toBe(h - AI_CREDITS_PER_CREATE)
    expect(await balance('b2')).toBe(50)
    sb.state.partners.get(PARTNER)!.holding_credits = 0
    const f = failureOf(
      await call(sb, 'POST', '/expenses', { key: K2, body: { prompt: 'Fuel NGN 3' } }),
      AI_CREDITS_EXHAUSTED_STATUS,
    )
    expect(f.error_code).toBe(ERROR_CODES.insufficientAiCredits)
    expect(f.message).toMatch(/partner/)
    expect(await balance('b2')).toBe(50)
  })

  it('concurrent creates never spend more than the balance', async () => {
    sb.state.businesses.get('b1')!.credit_balance = 3
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        as1(sb, 'POST', '/journals', { body: { prompt: `Entry ${i} NGN 1` } }),
      ),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(3)
    expect(results.filter((r) => r.status === 402)).toHaveLength(5)
    expect(await balance('b1')).toBe(0)
  })
})

describe('Part 7 rule 4: the sixth add-seats failure can occur', () => {
  const sb = businessSandbox({
    partners: [
      {
        name: 'Lapsed',
        key: PARTNER,
        holding_credits: 100_000,
        subscription_expires_at: '2020-01-01T00:00:00Z',
      },
    ],
    businesses: [{ uuid: 'b1', name: 'Bakery One', key: K1, referred_by: PARTNER }],
  })

  it('a partner whose own subscription has ended → 403 partner_subscription_expired, nothing debited (add-seats and add-credits)', async () => {
    const seats = await call(sb, 'POST', '/referred-businesses/b1/add-seats', {
      key: PARTNER,
      body: { seats: 1, months: 1 },
    })
    const f = failureOf(seats, ADD_SEATS_FAILURE_STATUS.subscriptionExpired)
    expect(f.error_code).toBe(ERROR_CODES.subscriptionExpired)
    expect(f.message).toMatch(/2020-01-01/)
    const credits = await call(sb, 'POST', '/referred-businesses/b1/add-credits', {
      key: PARTNER,
      body: { credits: 5 },
    })
    expect(failureOf(credits, 403).error_code).toBe(ERROR_CODES.subscriptionExpired)
    expect(sb.state.partners.get(PARTNER)!.holding_credits).toBe(100_000)
    // Reading still works: the lapse only stops grants.
    expect((await call(sb, 'GET', '/referred-businesses', { key: PARTNER })).status).toBe(200)
  })
})
