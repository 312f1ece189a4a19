/** The query of a list read: page, limit, order and filters (Part 8 and design.md §3). */
import { z } from 'zod'
import { LIMITS } from '../assumptions'

/** Query-string integers arrive as text; accept "3" and 3, refuse "3.5", "", "x". */
const queryInt = (what: string, min: number, max: number, dflt: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v),
    z
      .number({ error: `${what} must be a whole number from ${min} to ${max}` })
      .int({ error: `${what} must be a whole number from ${min} to ${max}` })
      .min(min, { error: `${what} must be ${min} or more` })
      .max(max, { error: `${what} must be ${max} or less` })
      .default(dflt),
  )

export const listQuerySchema = z.object({
  page: queryInt('page', 1, Number.MAX_SAFE_INTEGER, 1),
  limit: queryInt('limit', 1, LIMITS.maxPageSize, LIMITS.defaultPageSize),
  date_order: z.enum(['asc', 'desc'], { error: 'date_order must be asc or desc' }).default('desc'),
  search: z.string().optional(),
  status: z.string().optional(),
  /** Bank transactions of one bank account (uuid); rows of no bank never match. */
  bank: z.string().optional(),
  /** Rows of one schema: money_in or money_out, an account class, or a resource type. */
  schema: z.string().optional(),
})
export type ListQuery = z.input<typeof listQuerySchema>

export const referredListQuerySchema = z.object({
  page: queryInt('page', 1, Number.MAX_SAFE_INTEGER, 1),
  limit: queryInt('limit', 1, LIMITS.maxPageSize, LIMITS.defaultPageSize),
})
export type ReferredListQuery = z.input<typeof referredListQuerySchema>
