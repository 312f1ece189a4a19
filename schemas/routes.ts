/**
 * The AI create routes, the bank upload's file kinds and the file-kind rule: plain constants without
 * zod, so the engine's idle path (watcher, intake, folder settings) can use them without loading the
 * API schemas (issue 14: the headless engine idle). schemas/api.ts re-exports them.
 */

// prettier-ignore
export const BANK_UPLOAD_KINDS = ['pdf', 'csv', 'xlsx', 'xls', 'jpg', 'jpeg', 'png', 'webp', 'gif', 'bmp'] as const

/** The file kind of an attachment name, by extension, lower case ("" when it has none). */
export function fileKind(name: string | undefined): string {
  if (!name) return ''
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
}

/** Routes that take an AI create body (2.5), keyed by the resource they create. */
export const AI_CREATE_ROUTES = {
  expenses: '/expenses',
  bills: '/bills',
  journals: '/journals',
  invoices: '/invoices',
  income: '/income',
  contacts: '/contacts',
  accounts: '/accounts',
  'bank-transactions': '/bank-transactions/upload',
} as const
export type AiTarget = keyof typeof AI_CREATE_ROUTES
export const AI_TARGETS = Object.keys(AI_CREATE_ROUTES) as AiTarget[]
