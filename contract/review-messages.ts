/**
 * The main process's Review sentences (issue 32) as ICU messages: each `Coded` that
 * src-main/core/review/flags.ts sends carries one of these ids, its parameters, and its English
 * `text`. The renderer formats a Coded with `intl.formatMessage({ id: c.code, defaultMessage:
 * REVIEW_MAIN_MESSAGES[c.code] }, c.params)`; translations are in contract/i18n/<locale>/review-main.json.
 * (`duplicate.possible` belongs to contract/possible-duplicate.ts.) No zod: any side may import it.
 */
export const REVIEW_MAIN_MESSAGES = {
  'review.flag.no_total': 'No total',
  'review.flag.no_vendor': 'No vendor',
  'review.flag.future_date': 'Date in the future',
  'review.flag.other_currency': "Currency {currency} is not the business's {businessCurrency}",
  'review.readonly.kind':
    'This is {kind, select, expense {an expense} bill {a bill} invoice {an invoice} purchase_order {a purchase order} journal {a journal} income {an income record} contact {a contact} account {an account} bank_transaction {a bank transaction} other {a record of kind {kind}}}: Bookdrop can change only expenses and bills. Change it in your bookkeeping.',
  'review.readonly.deleted': 'This record was deleted on the server: there is nothing left to change.',
  'review.readonly.unread':
    'Bookdrop has not read this record from the server yet: it can be changed once it has been read.',
  'review.read.pending': 'Not read from the server yet ({why}). Bookdrop tries again when it is shown.',
  'review.save.offline':
    'Not saved: the server cannot be reached. Your changes are still in the form; save again once you are online.',
  'review.save.narration_empty': 'The narration cannot be empty: write what the record is for.',
  'review.not_found': 'Bookdrop has no such record: it may belong to another profile, or its history was cleared.',
} as const satisfies Record<string, string>

export type ReviewMainMessageId = keyof typeof REVIEW_MAIN_MESSAGES
