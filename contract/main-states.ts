/**
 * Main's sentences about the live state of a watched folder and of a mail account, and the reasons
 * a job's row keeps (issue 34): sent as `Coded` (contract/coded.ts) next to their English text and
 * worded by the renderer (src-renderer/lib/coded.ts). Translations: contract/i18n/<locale>/main.json.
 */
import { defineMessages } from './coded'
import messages from './main-states.messages.json' with { type: 'json' }

export const FOLDER_STATES = defineMessages(messages.FOLDER_STATES)

/** The reasons a job's row keeps when the server's job is not followed to its end. */
export const JOB_STATES = defineMessages(messages.JOB_STATES)

/** A watched folder's rules that depend on the profile. */
export const FOLDER_ERRORS = defineMessages(messages.FOLDER_ERRORS)

/** A mail account's state (the Mail screen's account card): what went wrong and what to do. */
export const MAIL_STATES = defineMessages(messages.MAIL_STATES)

/**
 * What a form's field needs, when the request's schema refused it (`invalid_request`): worded by
 * the field's kind of problem, never with the request's field names (the form shows each under its
 * field). The English text stays the schema's own.
 */
export const FORM_ERRORS = defineMessages(messages.FORM_ERRORS)
