/**
 * The purchase order screen's words (issue 34): its labels, and the order check's problems worded by
 * field and zod issue code, saying what to do (no API field names).
 */
import { type MessageDescriptor, defineMessages } from 'react-intl'
import { LIMITS } from '../../contract/assumptions'
import { getIntl } from '../lib/i18n'
import type { FieldIssue } from '../lib/useSubmit'

export const m = defineMessages({
  title: { id: 'orders.title', defaultMessage: 'Purchase orders' },
  new: { id: 'orders.new', defaultMessage: 'New purchase order' },
  created: { id: 'orders.created', defaultMessage: 'Purchase order {number} created' },
  all: { id: 'orders.list.title', defaultMessage: 'All purchase orders' },
  empty: { id: 'orders.empty', defaultMessage: 'No purchase orders yet.' },
  refused: { id: 'orders.refused', defaultMessage: 'The server refused the order: {reason}' },
  invalid: {
    id: 'orders.invalid',
    defaultMessage: 'Some fields need attention before the order can be sent.',
  },
  date: { id: 'orders.field.date', defaultMessage: 'Date' },
  deliveryDate: { id: 'orders.field.deliveryDate', defaultMessage: 'Delivery date' },
  vendor: { id: 'orders.field.vendor', defaultMessage: 'Vendor' },
  currency: { id: 'orders.field.currency', defaultMessage: 'Currency' },
  currencyHint: {
    id: 'orders.field.currency.hint',
    defaultMessage: 'Three-letter code, e.g. NGN. Empty: the business’s currency.',
  },
  narration: { id: 'orders.field.narration', defaultMessage: 'Narration' },
  memo: { id: 'orders.field.memo', defaultMessage: 'Memo' },
  branch: { id: 'orders.field.branch', defaultMessage: 'Branch ID' },
  department: { id: 'orders.field.department', defaultMessage: 'Department ID' },
  project: { id: 'orders.field.project', defaultMessage: 'Project ID' },
  lines: { id: 'orders.lines', defaultMessage: 'Line items' },
  addLine: { id: 'orders.lines.add', defaultMessage: '+ Add line' },
  total: { id: 'orders.total', defaultMessage: 'Total' },
  withholdingNote: {
    id: 'orders.total.withholding',
    defaultMessage: 'Withholding tax is recorded on each line and shown apart; it is not taken off this total.',
  },
  creating: { id: 'orders.creating', defaultMessage: 'Creating…' },
  create: { id: 'orders.create', defaultMessage: 'Create purchase order' },
  line: { id: 'orders.line', defaultMessage: 'Line {n, number}' },
  removeLine: { id: 'orders.line.remove.label', defaultMessage: 'Remove line {n, number}' },
  remove: { id: 'orders.line.remove', defaultMessage: 'Remove' },
  itemName: { id: 'orders.item.name', defaultMessage: 'Item name' },
  quantity: { id: 'orders.item.quantity', defaultMessage: 'Quantity' },
  price: { id: 'orders.item.price', defaultMessage: 'Price' },
  tax: { id: 'orders.item.tax', defaultMessage: 'Tax %' },
  withholding: { id: 'orders.item.withholding', defaultMessage: 'Withholding tax %' },
  discount: { id: 'orders.item.discount', defaultMessage: 'Discount' },
  discountType: { id: 'orders.item.discountType', defaultMessage: 'Discount type' },
  none: { id: 'orders.item.discountType.none', defaultMessage: 'None' },
  percent: { id: 'orders.item.discountType.percent', defaultMessage: 'Percent' },
  amount: { id: 'orders.item.discountType.amount', defaultMessage: 'Amount' },
  fixed: { id: 'orders.item.discountType.fixed', defaultMessage: 'Fixed' },
  category: { id: 'orders.item.category', defaultMessage: 'Category' },
  description: { id: 'orders.item.description', defaultMessage: 'Description' },
  inventory: { id: 'orders.item.inventory', defaultMessage: 'Inventory item' },
  inventoryId: { id: 'orders.item.inventoryId', defaultMessage: 'Inventory item ID' },
})

/** The form's problems in words that say what to do (issue 34), by field and zod issue code. */
const e = defineMessages({
  itemName: { id: 'orders.error.itemName', defaultMessage: 'Each item needs a name.' },
  quantity: { id: 'orders.error.quantity', defaultMessage: 'Each item needs a quantity, as a number.' },
  quantityPositive: { id: 'orders.error.quantityPositive', defaultMessage: 'The quantity must be more than 0.' },
  price: { id: 'orders.error.price', defaultMessage: 'Each item needs a price, as a number.' },
  priceNegative: { id: 'orders.error.priceNegative', defaultMessage: 'The price cannot be below 0.' },
  percentage: {
    id: 'orders.error.percentage',
    defaultMessage: 'Write a percentage from 0 to 100: 7.5 means 7.5 %.',
  },
  discount: { id: 'orders.error.discount', defaultMessage: 'Write the discount as a number of 0 or more.' },
  discountPercent: { id: 'orders.error.discountPercent', defaultMessage: 'A percent discount can be at most 100.' },
  discountType: { id: 'orders.error.discountType', defaultMessage: 'Choose the discount’s type.' },
  inventoryId: { id: 'orders.error.inventoryId', defaultMessage: 'Give the inventory item’s ID.' },
  date: { id: 'orders.error.date', defaultMessage: 'Choose the order’s date.' },
  deliveryDate: { id: 'orders.error.deliveryDate', defaultMessage: 'Choose a real delivery date, or leave it empty.' },
  deliveryBefore: {
    id: 'orders.error.deliveryBefore',
    defaultMessage: 'The delivery date cannot be before the order’s date.',
  },
  currency: {
    id: 'orders.error.currency',
    defaultMessage: 'Write a three-letter currency code such as NGN or USD, or leave it empty.',
  },
  vendor: { id: 'orders.error.vendor', defaultMessage: 'Give the vendor’s name, or leave it empty.' },
  noItems: { id: 'orders.error.noItems', defaultMessage: 'Add at least one item.' },
  tooManyItems: {
    id: 'orders.error.tooManyItems',
    defaultMessage: 'An order can have at most {max, number} items.',
  },
})

/** Each field's problem, by zod's issue code where one field has several ('' for any other code). */
const FIELD_ERRORS: Partial<Record<string, Partial<Record<string, MessageDescriptor>>>> = {
  item_name: { '': e.itemName },
  quantity: { too_small: e.quantityPositive, '': e.quantity },
  selling_price: { too_small: e.priceNegative, '': e.price },
  tax: { '': e.percentage },
  withholding_tax: { '': e.percentage },
  discount: { custom: e.discountPercent, '': e.discount },
  discount_type: { '': e.discountType },
  uuid: { '': e.inventoryId },
  date: { '': e.date },
  delivery_date: { custom: e.deliveryBefore, '': e.deliveryDate },
  currency: { '': e.currency },
  customer: { '': e.vendor },
  items: { too_big: e.tooManyItems, '': e.noItems },
}

/** A problem of the order's check, in words. */
export function orderIssue({ field, code }: FieldIssue): string | undefined {
  const byCode = FIELD_ERRORS[field]
  const d = byCode?.[code] ?? byCode?.['']
  return d ? getIntl().formatMessage(d, { max: LIMITS.maxItems }) : undefined
}
