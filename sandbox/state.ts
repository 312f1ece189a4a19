/**
 * The emulator's in-memory world: partners, businesses, records, jobs, idempotency replays,
 * the log of every create (for tests proving "exactly once"), and its clock.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { type Job, type PurchaseOrderRecord } from '../schemas'
import { AI_TARGETS, type AiTarget } from '../schemas/routes'
import { type Faults, type FaultsInput, faultsSchema, initialFaultSeed, seededRandom } from './faults'
import { type AccountClass, type ParsedFixtures, fixturesSchema } from './fixtures'

/** `default`: our full shapes (design.md §3). `spec-minimal`: only what api-spec.md names (#11). */
export const SANDBOX_VARIANTS = ['default', 'spec-minimal'] as const
export type SandboxVariant = (typeof SANDBOX_VARIANTS)[number]

// ---------------------------------------------------------------------------------------------
// Fixtures (every field but the keys optional)
// ---------------------------------------------------------------------------------------------

export {
  ACCOUNT_CLASSES,
  DEFAULT_FIXTURE_CREDITS,
  fixturesSchema,
  type AccountClass,
  type Fixtures,
  type ParsedFixtures,
} from './fixtures'

// ---------------------------------------------------------------------------------------------
// Entities
// ---------------------------------------------------------------------------------------------

export interface Partner {
  id: string
  name: string
  key: string
  holding_credits: number
  /** Epoch ms when the partner's own subscription ends; null: it does not. */
  subscription_expires_at: number | null
}

export interface SeatGrant {
  seats: number
  expires_at: number // epoch ms
  subscription_reference: string
}

export interface Business {
  uuid: string
  name: string
  email: string
  key: string
  public_key: string
  currency: string
  country: string
  timezone: string
  developer_api: boolean
  /** The business's own Plus subscription (not partner-granted). */
  plus_subscription: boolean
  credit_from_referral_partner: boolean
  referred_by: string | null // partner id
  credit_balance: number
  grant: SeatGrant | null
  created_at: number
}

/** A record built by an AI create or seeded; the shape of every single read of those resources. */
export interface StoredRecord {
  uuid: string
  source_uuid: string | null
  business: string
  resource_type: string
  date: string
  narration: string
  amount: number
  currency: string
  contact: string | null
  memo: string | null
  attachment_name: string | null
  status: string
  created_at: number
  updated_at: number
  /** Invoices only. */
  due_date?: string
  amount_paid?: number
  record_items?: {
    item_name: string
    quantity: number
    selling_price: number
    tax: number | null
    amount: number
  }[]
  payments?: { uuid: string; date: string; amount: number; method: string | null }[]
  /** Bank transactions: the bank account they belong to (the `bank` filter). */
  bank?: string | null
  /** The ledger account (uuid, name or code) the record is posted to: that account is in use. */
  account?: string | null
  /** Accounts only: chart-of-accounts facts (Part 7 rule 1). */
  chart?: { code: string | null; class: AccountClass; default: boolean; cashbook: boolean }
}

export interface StoredPurchaseOrder extends PurchaseOrderRecord {
  business: string
}

export interface StoredJob extends Job {
  business: string
  resource_uuids: string[]
}

export interface CreateLogEntry {
  route: string
  business: string | null
  partner: string | null
  idempotency_key: string | null
  resource_type: string
  uuid: string
  attachments: { name: string | null; sha256: string; bytes: number }[]
  at: string
}

export interface StoredResponse {
  status: number
  body: string
  headers: Record<string, string>
  bodyHash: string
}

// ---------------------------------------------------------------------------------------------
// Faults (faults.ts)
// ---------------------------------------------------------------------------------------------

export { type Faults, type FaultsInput, faultsSchema, initialFaultSeed, seededRandom } from './faults'

// ---------------------------------------------------------------------------------------------
// The world
// ---------------------------------------------------------------------------------------------

/** The resources the emulator keeps records of: every AI create target (2.5), in its order. */
export const RECORD_RESOURCES: readonly AiTarget[] = AI_TARGETS
export type RecordResource = AiTarget

/** `resource_type` of each resource's records (singular). */
export const RECORD_RESOURCE_TYPES: Record<RecordResource, string> = {
  expenses: 'expense',
  bills: 'bill',
  journals: 'journal',
  invoices: 'invoice',
  income: 'income',
  contacts: 'contact',
  accounts: 'account',
  'bank-transactions': 'bank_transaction',
}

/** Status of a freshly created (or seeded) record (not shown by the spec: our choice). */
export const INITIAL_STATUS: Record<RecordResource, string> = {
  expenses: 'posted',
  bills: 'unpaid',
  journals: 'posted',
  invoices: 'unpaid',
  income: 'posted',
  contacts: 'active',
  accounts: 'active',
  'bank-transactions': 'posted',
}

export class SandboxState {
  partners = new Map<string, Partner>() // by key
  businesses = new Map<string, Business>() // by uuid
  businessByKey = new Map<string, Business>()
  businessByPublicKey = new Map<string, Business>()
  oauthTokens = new Map<string, { app_key: string; business: string }>()
  records = new Map<RecordResource, Map<string, StoredRecord>>()
  purchaseOrders = new Map<string, StoredPurchaseOrder>()
  jobs = new Map<string, StoredJob>()
  idempotency = new Map<string, StoredResponse | Promise<StoredResponse | null>>()
  creates: CreateLogEntry[] = []
  documentCounters = new Map<string, number>() // business → last PO number
  rateLimit: { limit: number; window_seconds: number }
  jobDelayMs: number
  faults: Faults = faultsSchema.parse({})
  /** Random numbers for fault decisions, from `faults.seed`. */
  faultRandom: () => number = Math.random
  /** /v1 requests being handled right now (latency included): tests check a kill lands mid-request. */
  inFlight = 0
  /** Every /v1 request seen. */
  requests = 0
  /** How the emulator shapes its answers (sandbox/variants.ts). */
  variant: SandboxVariant = 'default'
  /** Added to the real clock: tests move time forward to see prorating and expiry. */
  clockOffsetMs = 0

  /**
   * Sets the faults in force. A `seed` in `input` (or none yet) starts the random sequence of the
   * rate faults from it, so the same seed replays the same decisions.
   */
  setFaults(input: FaultsInput, base: Faults | null = this.faults): Faults {
    const next = faultsSchema.parse({ ...(base ?? {}), ...input })
    const seed = input.seed ?? base?.seed ?? initialFaultSeed()
    if (input.seed !== undefined || base?.seed === undefined) this.faultRandom = seededRandom(seed)
    this.faults = { ...next, seed }
    return this.faults
  }

  constructor(fixtures: ParsedFixtures) {
    this.setFaults({}, null)
    for (const r of RECORD_RESOURCES) this.records.set(r, new Map())
    this.rateLimit = fixtures.rate_limit
    this.jobDelayMs = fixtures.job_delay_ms
    for (const p of fixtures.partners) {
      this.partners.set(p.key, {
        id: `partner_${randomUUID()}`,
        name: p.name,
        key: p.key,
        holding_credits: p.holding_credits,
        subscription_expires_at:
          p.subscription_expires_at === null ? null : Date.parse(p.subscription_expires_at),
      })
    }
    for (const b of fixtures.businesses) {
      const partner = b.referred_by ? this.partnerByKeyOrId(b.referred_by) : undefined
      this.addBusiness({
        uuid: b.uuid ?? randomUUID(),
        name: b.name,
        email: b.email ?? `${b.name.toLowerCase().replace(/[^a-z0-9]+/g, '.')}@example.com`,
        key: b.key,
        public_key: b.public_key ?? `svc_pk_${randomBytes(12).toString('hex')}`,
        currency: b.currency,
        country: b.country,
        timezone: b.timezone,
        developer_api: b.developer_api,
        plus_subscription: b.plus_subscription,
        credit_from_referral_partner: b.credit_from_referral_partner,
        referred_by: partner?.id ?? null,
        credit_balance: b.credit_balance,
        grant: null,
        created_at: this.now(),
      })
    }
    for (const t of fixtures.oauth_tokens)
      this.oauthTokens.set(t.token, { app_key: t.app_key, business: t.business })
    for (const inv of fixtures.invoices)
      this.putRecord(
        'invoices',
        this.fixtureRecord(inv, {
          resource_type: 'invoice',
          date: inv.date,
          due_date: inv.due_date ?? inv.date,
          narration: inv.narration,
          amount: inv.total_amount,
          amount_paid: inv.amount_paid,
          ...(inv.currency === undefined ? {} : { currency: inv.currency }),
          status:
            inv.amount_paid >= inv.total_amount ? 'paid' : inv.amount_paid > 0 ? 'partially_paid' : 'unpaid',
          record_items: [
            {
              item_name: inv.narration || 'Item',
              quantity: 1,
              selling_price: inv.total_amount,
              tax: null,
              amount: inv.total_amount,
            },
          ],
          payments:
            inv.amount_paid > 0
              ? [{ uuid: randomUUID(), date: inv.date, amount: inv.amount_paid, method: 'bank_transfer' }]
              : [],
        }),
      )
    for (const tx of fixtures.bank_transactions)
      this.putRecord(
        'bank-transactions',
        this.fixtureRecord(tx, {
          resource_type: 'bank_transaction',
          date: tx.date,
          narration: tx.narration,
          amount: tx.amount,
          status: 'posted',
          bank: tx.bank,
          account: tx.account,
        }),
      )
    for (const r of fixtures.records)
      this.putRecord(
        r.resource,
        this.fixtureRecord(r, {
          resource_type: RECORD_RESOURCE_TYPES[r.resource],
          date: r.date,
          narration: r.narration,
          amount: r.amount,
          contact: r.contact,
          status: INITIAL_STATUS[r.resource],
          account: r.account,
        }),
      )
    for (const a of fixtures.accounts) {
      const t = this.now()
      this.putRecord(
        'accounts',
        this.fixtureRecord(
          a,
          {
            resource_type: 'account',
            date: new Date(t).toISOString().slice(0, 10),
            narration: a.name,
            amount: 0,
            status: 'active',
            chart: { code: a.code, class: a.class, default: a.default, cashbook: a.cashbook },
          },
          t,
        ),
      )
    }
  }

  /**
   * A record loaded from fixtures: its uuid (made up when missing), owner and source_uuid, the
   * business's currency, no contact, memo or attachment, created and updated at `t`; then `fields`.
   */
  private fixtureRecord(
    f: { uuid?: string; source_uuid: string | null; business: string },
    fields: Pick<StoredRecord, 'resource_type' | 'date' | 'narration' | 'amount' | 'status'> &
      Partial<StoredRecord>,
    t = this.now(),
  ): StoredRecord {
    return {
      uuid: f.uuid ?? randomUUID(),
      source_uuid: f.source_uuid,
      business: f.business,
      currency: this.businesses.get(f.business)?.currency ?? 'NGN',
      contact: null,
      memo: null,
      attachment_name: null,
      created_at: t,
      updated_at: t,
      ...fields,
    }
  }

  now(): number {
    return Date.now() + this.clockOffsetMs
  }

  /** Who pays a business's AI creates (2.6): its referral partner when so registered, else itself. */
  creditPayer(b: Business): { kind: 'business'; business: Business } | { kind: 'partner'; partner: Partner } {
    if (b.credit_from_referral_partner && b.referred_by) {
      const partner = this.partnerByKeyOrId(b.referred_by)
      if (partner) return { kind: 'partner', partner }
    }
    return { kind: 'business', business: b }
  }

  partnerByKeyOrId(ref: string): Partner | undefined {
    const byKey = this.partners.get(ref)
    if (byKey) return byKey
    for (const p of this.partners.values()) if (p.id === ref || p.name === ref) return p
    return undefined
  }

  addBusiness(b: Business): void {
    this.businesses.set(b.uuid, b)
    this.businessByKey.set(b.key, b)
    this.businessByPublicKey.set(b.public_key, b)
  }

  putRecord(resource: RecordResource, rec: StoredRecord): void {
    this.records.get(resource)!.set(rec.uuid, rec)
  }

  /**
   * A record of this business by uuid or source_uuid (2.11). Another business's record is not
   * found, and does not hide this business's own record whose source_uuid equals its uuid.
   */
  findRecord(resource: RecordResource, business: string, id: string): StoredRecord | undefined {
    const map = this.records.get(resource)!
    const direct = map.get(id)
    if (direct && direct.business === business) return direct
    for (const r of map.values()) if (r.source_uuid === id && r.business === business) return r
    return undefined
  }

  findPurchaseOrder(business: string, id: string): StoredPurchaseOrder | undefined {
    const direct = this.purchaseOrders.get(id)
    if (direct) return direct.business === business ? direct : undefined
    return undefined
  }

  nextDocumentNumber(business: string): string {
    const n = (this.documentCounters.get(business) ?? 0) + 1
    this.documentCounters.set(business, n)
    return `PO-${String(n).padStart(5, '0')}`
  }

  logCreate(entry: Omit<CreateLogEntry, 'at'>): void {
    this.creates.push({ ...entry, at: new Date(this.now()).toISOString() })
  }
}

export function parseFixtures(input: unknown): ParsedFixtures {
  return fixturesSchema.parse(input ?? {})
}

/** ISO 8601 UTC with microseconds and Z (2.7): 2026-01-05T10:20:30.123000Z */
export function microTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z')
}

export function isoSeconds(ms: number): string {
  return new Date(ms).toISOString()
}
