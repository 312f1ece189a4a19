/**
 * Tolerant readers of API responses (design.md §1: strict writer, tolerant reader; issue #11).
 *
 * The client writes requests exactly as the spec says (./api.ts checks them). What it reads is
 * required to carry only what the spec names for it; every field that is our own guess (design.md
 * §3) is optional: found under our name or one of FIELD_ALIASES (./assumptions.ts), else null, and
 * shown as "—". Unknown fields are dropped. A response fails only where the spec leaves no doubt:
 * an identifier that is missing, or `data` of a list that is not a list.
 *
 * The emulator answers with the strict shapes of ./api.ts; these readers accept those and the
 * spec-minimal variant (`startSandbox({ variant: 'spec-minimal' })`) and any server in between.
 */
// The entry of the tolerant readers: each part lives in ./read/.
export { ident, isObject, num, pick, text } from './read/primitives'
export * from './read/records'
export * from './read/paging'
export * from './read/auth'
export * from './read/jobs'
export * from './read/partner'
export * from './read/summary'
