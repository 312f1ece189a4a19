/**
 * The one source of truth for every payload of the bookkeeping API (api-spec.md Parts 2 to 8).
 *
 * Used by the typed client (requests are checked before they leave the machine), by the emulator
 * (requests are checked on arrival, responses are built from these types) and by the renderer's
 * forms (the same messages the server would give). Never write a payload shape twice.
 *
 * Where the spec says "not shown", the choice is made in ./assumptions.ts and listed in README.
 */
// The entry of the payload schemas: each part lives in ./api/, one module a part of the spec.
export { calendarDate, countryCode, currencyCode, isCalendarDate, isIanaTimeZone, roundMoney } from './api/primitives'
export * from './api/envelopes'
export * from './api/documents'
export * from './api/ai-create'
export * from './api/records'
export * from './api/jobs'
export * from './api/paging'
export * from './api/auth'
export * from './api/partner'
export * from './api/messages'
export { AI_CREATE_ROUTES, AI_TARGETS, BANK_UPLOAD_KINDS, fileKind } from './routes'
export type { AiTarget } from './routes'
