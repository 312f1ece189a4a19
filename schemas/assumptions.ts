/**
 * Every choice Bookdrop makes where api-spec.md says "not shown", in one place.
 * README's "API assumptions" section lists the same choices; change both together.
 * The emulator and the client read these values, so one edit moves both.
 */

export const LIMITS = {
  /** Lists: default and maximum page size (Part 8 bounds the partner list at 1 to 100; we use it everywhere). */
  defaultPageSize: 20,
  maxPageSize: 100,
  /** Maximum attachments in one AI create request (not shown). */
  maxAttachments: 10,
  /** Maximum line items in one document (not shown). */
  maxItems: 500,
  /** Largest decoded attachment the emulator accepts (not shown): 30 MiB. */
  maxAttachmentBytes: 30 * 1024 * 1024,
  /** Largest request body the emulator accepts: base64 of the largest attachment, plus JSON. */
  maxBodyBytes: 48 * 1024 * 1024,
  /** URL attachments: fetch timeout (not shown); the largest body fetched is maxAttachmentBytes. */
  urlFetchTimeoutMs: 10_000,
  /** Seat and credit grant bounds (not shown). */
  maxSeatsPerGrant: 1000,
  maxMonthsPerGrant: 36,
  maxCreditsPerGrant: 10_000_000,
} as const

/** Part 3 / Part 8: 150 holding credits per seat per month. */
export const SEAT_CREDITS_PER_MONTH = 150
/** A month, for prorating later seat grants (design.md §3): 30 days. */
export const DAYS_PER_MONTH = 30

/** First grant: 150 × seats × months, rounded up. */
export function firstGrantCost(seats: number, months: number): number {
  return Math.ceil(SEAT_CREDITS_PER_MONTH * seats * months)
}

/** Later grant (design.md §3): ceil(150 × seats × remaining_days / 30); remaining days may be fractional. */
export function proratedGrantCost(seats: number, remainingMs: number): number {
  const remainingDays = Math.max(0, remainingMs) / 86_400_000
  return Math.ceil((SEAT_CREDITS_PER_MONTH * seats * remainingDays) / DAYS_PER_MONTH)
}

/**
 * AI credits given to a business with a seat grant (2.8 `transaction_credits_granted`, not shown):
 * none; seats buy the Plus plan, AI credits are granted with add-credits.
 */
export const TRANSACTION_CREDITS_PER_SEAT_GRANT = 0

/** Error codes where the spec names none (Part 7 rule 4 leaves five of the six add-seats failures open). */
export const ERROR_CODES = {
  insufficientHolding: 'insufficient_partner_credit_holding', // named by the spec
  ownPlusSubscription: 'business_has_own_subscription', // 409
  partnerPaidCredits: 'business_uses_partner_credit', // 409
  businessNotReferred: 'business_not_found', // 404: unknown uuid or referred by another partner
  invalidSeatRequest: 'invalid_seat_request', // 400: seats/months missing or out of range
  subscriptionExpired: 'partner_subscription_expired', // 403: the partner's own subscription has ended (add-seats, add-credits)
  validation: 'validation_error', // 400 on any body or query that fails the schemas
  emailTaken: 'email_taken', // 409: register-business with an email another business already uses
  wrongKeyKind: 'wrong_key_type', // 403 on a partner route with a business key, and the reverse
  invalidKey: 'invalid_api_key', // 401
  developerApiNotAllowed: 'developer_api_not_allowed', // 403
  notFound: 'not_found', // 404
  rateLimited: 'rate_limited', // 429
  idempotencyMismatch: 'idempotency_key_reused', // 422: same key, different body
  serverError: 'server_error', // 500 (also injected faults)
  insufficientAiCredits: 'insufficient_ai_credits', // 402: an AI create the credits (or the partner's holding) cannot pay for
  methodNotAllowed: 'method_not_allowed', // 405: a method the spec does not give a path (PUT /expenses/{uuid})
  accountNotDeletable: 'account_not_deletable', // 400: chart-of-accounts delete refused (Part 7 rule 1)
} as const

/** HTTP statuses of the six add-seats failures (Part 7 rule 4: not shown). */
export const ADD_SEATS_FAILURE_STATUS = {
  insufficientHolding: 400,
  ownPlusSubscription: 409,
  partnerPaidCredits: 409,
  businessNotReferred: 404,
  invalidSeatRequest: 400,
  subscriptionExpired: 403,
} as const

/** Default rate limit of the emulator (not shown): 600 requests per 60 s per key. */
export const DEFAULT_RATE_LIMIT = { limit: 600, window_seconds: 60 } as const

/** `X-RateLimit-Reset` values at or above this are epoch seconds; below it, seconds from now. */
export const EPOCH_THRESHOLD_SECONDS = 1e9

/** Headers that carry the key (Part 5). The client sends `X-API-Key`. */
export const KEY_HEADERS = ['x-api-key', 'api-key', 'sk'] as const

export const KEY_PREFIX = {
  businessSecret: 'svc_sk_',
  businessPublic: 'svc_pk_',
  partnerSecret: 'svc_partner_sk_',
} as const

export type KeyKind = 'business' | 'partner' | 'public' | 'unknown'

/** What a key claims to be from its prefix; the server decides what it really is. */
export function keyKind(key: string): KeyKind {
  if (key.startsWith(KEY_PREFIX.partnerSecret)) return 'partner'
  if (key.startsWith(KEY_PREFIX.businessSecret)) return 'business'
  if (key.startsWith(KEY_PREFIX.businessPublic)) return 'public'
  return 'unknown'
}

/** The message of the 403 for a business without Developer API access (Part 5 rule 6; text not shown). */
export const DEVELOPER_API_403_MESSAGE =
  'This business cannot use the Developer API: it needs an active Plus subscription with Developer API access. ' +
  'Ask the business owner to upgrade in the application (Settings, Subscription), or ask your referral partner to grant a Plus seat.'

/** Part 5 rule 4: the message on a partner route called with a business key. */
export const PARTNER_ROUTE_BUSINESS_KEY_MESSAGE =
  'This is a partner route: use your distributor partner secret key (svc_partner_sk_...), not a business key.'

export const BUSINESS_ROUTE_PARTNER_KEY_MESSAGE =
  "This is a business route: use the business's secret key (svc_sk_...). A partner key only works on the partner routes."

export const PUBLIC_KEY_MESSAGE =
  'A public key (svc_pk_...) is not a secret: send the secret key (svc_sk_...) in X-API-Key.'

/**
 * Base URLs per environment. The spec names them only as `{base_url}` and `{sandbox_base_url}` (not
 * shown); these are placeholders until the provider publishes them, changed here in one edit.
 * Each base already ends in the version prefix (Part 9).
 */
export const ENVIRONMENT_BASE_URLS = {
  production: 'https://api.bookkeeping.example/v1',
  sandbox: 'https://sandbox.api.bookkeeping.example/v1',
} as const
export type Environment = keyof typeof ENVIRONMENT_BASE_URLS | 'custom'

/** The HTTP status for a valid key of the wrong kind for a route (partner vs business; not shown). */
export const WRONG_KEY_KIND_STATUS = 403

/**
 * AI credits one AI create costs (2.6 says usage is charged, the amount is not shown): 1 credit per
 * create request, whatever its attachments. The emulator charges it; the app's overview counts it.
 */
export const AI_CREDITS_PER_CREATE = 1

/**
 * An AI create nobody can pay for (2.6: usage is charged; the failure is not shown): HTTP 402 with
 * `error_code: insufficient_ai_credits`. The client knows it by either. The upload queue then holds
 * the profile (state `out_of_credits`) with the server's reason and CREDITS_FIX, until resumed.
 */
export const AI_CREDITS_EXHAUSTED_STATUS = 402

/** What a person can do when a business has no AI credits left. */
export const CREDITS_FIX =
  'Ask your referral partner for an AI credit grant, or buy AI credits in the application; then resume uploads.'

// ---------------------------------------------------------------------------------------------
// Tolerant reader (design.md §1, issue #11): what the client also recognises in a response
// ---------------------------------------------------------------------------------------------

/**
 * Other names the client recognises for a field the spec does not name (or whose shape it does not
 * show), first match wins; our own name comes first. A field found under none of them is empty
 * (null, shown as "—"), never a failure. Unknown fields are ignored. → schemas/read.ts
 */
export const FIELD_ALIASES = {
  /** auth/validate: at the top of `data`, or inside `data.business` (where uuid and id count too). */
  businessUuid: ['business_uuid', 'business_id', 'businessUuid'],
  businessUuidNested: ['uuid', 'id', 'business_uuid', 'business_id'],
  businessName: ['name', 'business_name', 'businessName', 'company_name', 'trading_name'],
  currency: ['currency', 'currency_code', 'base_currency'],
  country: ['country', 'country_code'],
  /** Invoice `record_items` elements (2.9: fields not shown). */
  itemName: ['item_name', 'name', 'description', 'title', 'item'],
  quantity: ['quantity', 'qty', 'units'],
  unitPrice: ['selling_price', 'price', 'unit_price', 'rate', 'unit_cost'],
  taxRate: ['tax', 'tax_rate', 'tax_percent'],
  lineAmount: ['amount', 'line_total', 'total', 'subtotal'],
  /** Invoice `payments` elements (2.9: fields not shown). */
  paymentId: ['uuid', 'id', 'reference'],
  paymentDate: ['date', 'payment_date', 'paid_on', 'paid_at'],
  paymentAmount: ['amount', 'value', 'amount_paid'],
  paymentMethod: ['method', 'payment_method', 'channel', 'mode'],
  /** Async AI create data (2.5 names job_reference) and the job answer (not shown). */
  jobReference: ['job_reference', 'jobReference', 'job_id'],
  /** Inside a `job` object of the create answer. */
  jobReferenceNested: ['job_reference', 'reference', 'id', 'uuid'],
  jobStatus: ['status', 'state', 'job_status'],
  jobMessage: ['message', 'error', 'reason', 'failure_reason'],
  jobRecordUuid: ['resource_uuid', 'record_uuid', 'resourceUuid'],
  jobRecordUuids: ['resource_uuids', 'record_uuids', 'resourceUuids'],
  /** A direct AI create may wrap the created resource (shape not shown). */
  directRecord: ['record', 'resource', 'result', 'data'],
  /** List `meta` (2.1: optional; the keys page, limit, total). */
  pageNumber: ['page', 'current_page'],
  pageLimit: ['limit', 'per_page', 'page_size'],
  pageTotal: ['total', 'total_count', 'count'],
  /** add-credits answer (not shown). */
  creditsGranted: ['credits_granted', 'credits', 'granted'],
  holdingBalance: ['partner_holding_balance', 'holding_balance', 'partner_balance'],
  creditBalance: ['credit_balance', 'balance', 'business_credit_balance'],
  /**
   * A record read by uuid for Review (issue 32; fields not shown by 2.10): who it is from, its
   * date and its total. The emulator sends `contact`, `date`, `amount` (an invoice `total_amount`).
   */
  recordVendor: ['contact', 'vendor', 'supplier', 'customer', 'contact_name', 'vendor_name'],
  recordDate: ['date', 'transaction_date', 'issue_date', 'created_at'],
  recordTotal: ['total_amount', 'amount', 'total', 'grand_total'],
} as const satisfies Record<string, readonly string[]>

/**
 * Job statuses the client understands (the job answer is not shown), lower-cased; our own four map
 * to themselves. Any other value is `unknown`: the job is polled on for UNKNOWN_JOB_STATUS_POLLS
 * polls, then the row says the file was sent and the server did not report completion.
 */
export const JOB_STATUS_ALIASES = {
  queued: 'queued',
  pending: 'queued',
  waiting: 'queued',
  accepted: 'queued',
  processing: 'processing',
  running: 'processing',
  in_progress: 'processing',
  started: 'processing',
  completed: 'completed',
  complete: 'completed',
  done: 'completed',
  succeeded: 'completed',
  success: 'completed',
  finished: 'completed',
  failed: 'failed',
  failure: 'failed',
  error: 'failed',
  errored: 'failed',
  rejected: 'failed',
  cancelled: 'failed',
  canceled: 'failed',
} as const satisfies Record<string, 'queued' | 'processing' | 'completed' | 'failed'>

/** Polls of a job whose status the client does not recognise before it stops following it. */
export const UNKNOWN_JOB_STATUS_POLLS = 10

/**
 * What an upload row says when the API accepted a file but its completion cannot be followed: the
 * API's own answer named no job reference, its job route answers 404 (past the grace) or
 * 405/410/501 in its JSON envelope, or its status is one the client never recognises. The row is
 * `completed` with no record uuid and this note. An answer that is not the API's (a web page, a
 * redirect, a foreign JSON) never ends a row this way (issue 22): the row waits.
 */
export const COMPLETION_NOT_REPORTED = 'Sent; the server did not report completion.'
export const COMPLETION_NOT_REPORTED_CODE = 'completion_not_reported'

/**
 * Reading the record an upload made (issue 32). Part 4 documents `GET /invoices/{uuid}` only; the
 * reads of other kinds are not shown. Bookdrop's one choice: every kind is read the same way, at
 * `GET /{resource}/{uuid}` where `{resource}` is the path its AI create posts to (the kind the job
 * names → this table; a kind not listed is not read, and shows without vendor, date or total).
 * A 404 there means the record is gone ("deleted on the server").
 */
export const RECORD_READ_RESOURCES: Readonly<Record<string, string>> = {
  expense: 'expenses',
  bill: 'bills',
  invoice: 'invoices',
  journal: 'journals',
  income: 'income',
  contact: 'contacts',
  account: 'accounts',
  bank_transaction: 'bank-transactions',
  purchase_order: 'purchase-orders',
}

/**
 * What Review's Save sends (issue 32) with `PATCH /expenses/{uuid}` or `PATCH /bills/{uuid}`: the
 * body's field names are not shown (2.10); Bookdrop sends the names the emulator accepts
 * (schemas/api/records.ts `recordPatchSchema`): Vendor → `contact`, Date → `date` (YYYY-MM-DD),
 * Total → `amount` (a number), Currency → `currency` (ISO 4217), Narration → `narration`.
 * Only the fields a person changed are sent. The answer names at least uuid and narration (2.10):
 * Bookdrop then reads the record again (`GET`, above) so what it keeps is the server's.
 */
export const RECORD_EDIT_FIELDS = {
  vendor: 'contact',
  date: 'date',
  total: 'amount',
  currency: 'currency',
  narration: 'narration',
} as const
