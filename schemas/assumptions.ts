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
  subscriptionExpired: 'partner_subscription_expired', // never sent: an expired grant starts a new first grant
  validation: 'validation_error', // 400 on any body or query that fails the schemas
  emailTaken: 'email_taken', // 409: register-business with an email another business already uses
  wrongKeyKind: 'wrong_key_type', // 403 on a partner route with a business key, and the reverse
  invalidKey: 'invalid_api_key', // 401
  developerApiNotAllowed: 'developer_api_not_allowed', // 403
  notFound: 'not_found', // 404
  rateLimited: 'rate_limited', // 429
  idempotencyMismatch: 'idempotency_key_reused', // 422: same key, different body
  serverError: 'server_error', // 500 (also injected faults)
} as const

/** HTTP statuses of the add-seats failures (not shown). */
export const ADD_SEATS_FAILURE_STATUS = {
  insufficientHolding: 400,
  ownPlusSubscription: 409,
  partnerPaidCredits: 409,
  businessNotReferred: 404,
  invalidSeatRequest: 400,
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
