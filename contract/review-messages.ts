/**
 * The main process's Review sentences (issue 32) as ICU messages: each `Coded` that
 * src-main/core/review/flags.ts sends carries one of these ids, its parameters, and its English
 * `text`. The renderer formats a Coded with `intl.formatMessage({ id: c.code, defaultMessage:
 * REVIEW_MAIN_MESSAGES[c.code] }, c.params)`; translations are in contract/i18n/<locale>/review-main.json.
 * (`duplicate.possible` belongs to contract/possible-duplicate.ts.) Their English is in
 * review-messages.messages.json, beside this module, which the catalogue's extractor reads.
 */
import { defineMessages } from './coded'
import messages from './review-messages.messages.json' with { type: 'json' }
export const REVIEW_MESSAGES = defineMessages(messages.REVIEW_MESSAGES)

/** The same messages by id (what a `Coded` carries as its code), with their English wording. */
export const REVIEW_MAIN_MESSAGES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(REVIEW_MESSAGES).map((d) => [d.id, d.defaultMessage]),
)
