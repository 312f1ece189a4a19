/**
 * The purchase order screen's words (issue 34): its labels, and the order check's problems worded by
 * field and zod issue code, saying what to do (no API field names).
 */
import { type MessageDescriptor, defineMessages } from 'react-intl'
import { LIMITS } from '../../contract/assumptions'
import { getIntl } from '../lib/i18n'
import type { FieldIssue } from '../lib/useSubmit'
import messages from './purchase-order-words.messages.json' with { type: 'json' }

export const m = defineMessages(messages.m)

/** The form's problems in words that say what to do (issue 34), by field and zod issue code. */
const e = defineMessages(messages.e)

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
