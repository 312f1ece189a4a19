/**
 * The documents the client writes field by field: line items (2.3) and purchase orders (2.2), with
 * their aliases, and the amounts of a line and of a document.
 */
import { z } from 'zod'
import { LIMITS } from '../assumptions'
import { calendarDate, currencyCode, nonEmpty, percentage, roundMoney } from './primitives'

// ---------------------------------------------------------------------------------------------
// 2.3 Line item (aliases: name → item_name, price → selling_price)
// ---------------------------------------------------------------------------------------------

export const DISCOUNT_TYPES = ['percent', 'amount', 'fixed'] as const

/** Copies an alias into its canonical field when the canonical one is absent; drops the alias. */
function foldAliases(aliases: Record<string, string>) {
  return (input: unknown): unknown => {
    if (!input || typeof input !== 'object' || Array.isArray(input)) return input
    const out: Record<string, unknown> = { ...(input as Record<string, unknown>) }
    for (const [alias, canonical] of Object.entries(aliases)) {
      if (out[canonical] === undefined && out[alias] !== undefined) out[canonical] = out[alias]
      delete out[alias]
    }
    return out
  }
}

const lineItemCore = z
  .object({
    item_name: nonEmpty('item_name (alias: name)'),
    quantity: z
      .number({ error: 'quantity must be a number' })
      .positive({ error: 'quantity must be greater than 0' }),
    selling_price: z
      .number({ error: 'selling_price (alias: price) must be a number' })
      .min(0, { error: 'selling_price (alias: price) must be 0 or more' }),
    category: z.string().optional(),
    description: z.string().optional(),
    tax: percentage('tax').optional(),
    tax_uuid: z.string().optional(),
    withholding_tax: percentage('withholding_tax').optional(),
    withholding_tax_uuid: z.string().optional(),
    discount: z
      .number({ error: 'discount must be a number' })
      .min(0, { error: 'discount must be 0 or more' })
      .optional(),
    discount_type: z
      .enum(DISCOUNT_TYPES, { error: 'discount_type must be one of percent, amount, fixed' })
      .optional(),
    is_inventory: z.boolean({ error: 'is_inventory must be true or false' }).optional(),
    uuid: z.string().optional(),
  })
  .superRefine((item, ctx) => {
    if (item.discount !== undefined && item.discount > 0 && item.discount_type === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['discount_type'],
        message: 'discount_type is required with a discount: percent, amount or fixed',
      })
    }
    if (item.discount_type === 'percent' && (item.discount ?? 0) > 100) {
      ctx.addIssue({ code: 'custom', path: ['discount'], message: 'a percent discount must be 100 or less' })
    }
    if (item.is_inventory === true && !item.uuid) {
      ctx.addIssue({
        code: 'custom',
        path: ['uuid'],
        message: 'uuid of the inventory item is required when is_inventory is true',
      })
    }
  })

export const lineItemSchema = z.preprocess(
  foldAliases({ name: 'item_name', price: 'selling_price' }),
  lineItemCore,
)
export type LineItem = z.infer<typeof lineItemCore>
/** What a caller may write: canonical names or their aliases. */
export type LineItemInput = Omit<LineItem, 'item_name' | 'selling_price'> &
  ({ item_name: string } | { name: string }) &
  ({ selling_price: number } | { price: number })

/** Amounts of one line: gross = quantity × price; less discount; plus tax; withholding shown apart. */
export function lineAmounts(item: LineItem): { gross: number; discount: number; tax: number; net: number } {
  const gross = item.quantity * item.selling_price
  const d = item.discount ?? 0
  const discount = item.discount_type === 'percent' ? (gross * d) / 100 : Math.min(d, gross)
  const taxable = gross - discount
  const tax = (taxable * (item.tax ?? 0)) / 100
  return { gross, discount, tax, net: taxable + tax }
}

export function documentAmount(items: LineItem[]): number {
  return roundMoney(items.reduce((sum, it) => sum + lineAmounts(it).net, 0))
}

// ---------------------------------------------------------------------------------------------
// 2.2 Purchase order (alias: vendor → customer)
// ---------------------------------------------------------------------------------------------

const dimension = (what: string) =>
  z
    .string({ error: `${what} must be text or null` })
    .nullable()
    .optional()

const purchaseOrderCore = z
  .object({
    date: calendarDate,
    delivery_date: calendarDate.optional(),
    currency: currencyCode.optional(),
    document_number: nonEmpty('document_number').optional(),
    narration: z.string().optional(),
    memo: z.string().optional(),
    customer: nonEmpty('customer (alias: vendor)').optional(),
    exchange_rate: z
      .number({ error: 'exchange_rate must be a number' })
      .positive({ error: 'exchange_rate must be greater than 0' })
      .optional(),
    status: z
      .enum(['draft'], { error: 'status can only be draft when a purchase order is created' })
      .optional(),
    branch_uuid: dimension('branch_uuid'),
    department_uuid: dimension('department_uuid'),
    project_uuid: dimension('project_uuid'),
    items: z
      .array(lineItemSchema, { error: 'items is required: a list of at least one line item' })
      .min(1, { error: 'items must have at least 1 line item' })
      .max(LIMITS.maxItems, { error: `items can have at most ${LIMITS.maxItems} line items` }),
  })
  .superRefine((po, ctx) => {
    if (po.delivery_date && po.delivery_date < po.date) {
      ctx.addIssue({
        code: 'custom',
        path: ['delivery_date'],
        message: 'delivery_date must be on or after date',
      })
    }
  })

export const purchaseOrderSchema = z.preprocess(foldAliases({ vendor: 'customer' }), purchaseOrderCore)
export type PurchaseOrder = z.infer<typeof purchaseOrderCore>
export type PurchaseOrderInput = Omit<PurchaseOrder, 'items' | 'customer'> & {
  customer?: string
  vendor?: string
  items: LineItemInput[]
}

export const purchaseOrderData = z.object({
  uuid: z.string(),
  transaction_type: z.literal('purchase_order'),
  status: z.string(),
  document_number: z.string(),
  narration: z.string(),
  amount: z.number(),
  currency: z.string(),
})
export type PurchaseOrderData = z.infer<typeof purchaseOrderData>

/** What the emulator and single reads return for a purchase order (2.2 data plus its lines). */
export const purchaseOrderRecord = purchaseOrderData.extend({
  date: z.string(),
  delivery_date: z.string().nullable(),
  customer: z.string().nullable(),
  memo: z.string().nullable(),
  exchange_rate: z.number(),
  branch_uuid: z.string().nullable(),
  department_uuid: z.string().nullable(),
  project_uuid: z.string().nullable(),
  items: z.array(lineItemCore),
  created_at: z.string(),
})
export type PurchaseOrderRecord = z.infer<typeof purchaseOrderRecord>
