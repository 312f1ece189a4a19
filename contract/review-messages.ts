/**
 * The main process's Review sentences (issue 32) as ICU messages: each `Coded` that
 * src-main/core/review/flags.ts sends carries one of these ids, its parameters, and its English
 * `text`. The renderer formats a Coded with `intl.formatMessage({ id: c.code, defaultMessage:
 * REVIEW_MAIN_MESSAGES[c.code] }, c.params)`; translations are in contract/i18n/<locale>/review-main.json.
 * (`duplicate.possible` belongs to contract/possible-duplicate.ts.) Written with `defineMessages` so
 * that the catalogue's extractor finds them.
 */
import { defineMessages } from './coded'
export const REVIEW_MESSAGES = defineMessages({
  flag_no_total: {
    id: 'review.flag.no_total',
    defaultMessage: 'No total',
  },
  flag_no_vendor: {
    id: 'review.flag.no_vendor',
    defaultMessage: 'No vendor',
  },
  flag_future_date: {
    id: 'review.flag.future_date',
    defaultMessage: 'Date in the future',
  },
  flag_other_currency: {
    id: 'review.flag.other_currency',
    defaultMessage: "Currency {currency} is not the business's {businessCurrency}",
  },
  readonly_kind: {
    id: 'review.readonly.kind',
    defaultMessage:
      'This is {kind, select, expense {an expense} bill {a bill} invoice {an invoice} purchase_order {a purchase order} journal {a journal} income {an income record} contact {a contact} account {an account} bank_transaction {a bank transaction} other {a record of kind {kind}}}: Bookdrop can change only expenses and bills. Change it in your bookkeeping.',
  },
  readonly_deleted: {
    id: 'review.readonly.deleted',
    defaultMessage: 'This record was deleted on the server: there is nothing left to change.',
  },
  readonly_unread: {
    id: 'review.readonly.unread',
    defaultMessage:
      'Bookdrop has not read this record from the server yet: it can be changed once it has been read.',
  },
  read_pending: {
    id: 'review.read.pending',
    defaultMessage: 'Not read from the server yet ({why}). Bookdrop tries again when it is shown.',
  },
  save_offline: {
    id: 'review.save.offline',
    defaultMessage:
      'Not saved: the server cannot be reached. Your changes are still in the form; save again once you are online.',
  },
  save_narration_empty: {
    id: 'review.save.narration_empty',
    defaultMessage: 'The narration cannot be empty: write what the record is for.',
  },
  not_found: {
    id: 'review.not_found',
    defaultMessage:
      'Bookdrop has no such record: it may belong to another profile, or its history was cleared.',
  },
})

/** The same messages by id (what a `Coded` carries as its code), with their English wording. */
export const REVIEW_MAIN_MESSAGES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(REVIEW_MESSAGES).map((d) => [d.id, d.defaultMessage]),
)
