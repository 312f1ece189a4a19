/**
 * The main process's sentences a person reads in the renderer (issue 34): errors that cross the
 * bridge and reasons stored with history rows. Main sends them as `Coded` (contract/coded.ts:
 * `coded(MAIN_ERRORS.x, params)`); the renderer words them in the person's language
 * (src-renderer/lib/coded.ts), with these English texts as the defaults. Translations:
 * contract/i18n/<locale>/main.json. Parameters are names, paths, numbers: never a secret.
 */
import { defineMessages, type MessageDescriptor } from './coded'
import { FOLDER_ERRORS, FOLDER_STATES, FORM_ERRORS, JOB_STATES, MAIL_STATES } from './main-states'
// MAIN_ERRORS, in sections: the path to the server (offline…), keys and profiles (keyRefused…),
// folder rules (folderNotAbsolute…), files (fileVanished…), mail and phone (mailAccountNotFound…),
// the app (noProfile…).
import messages from './main-messages.messages.json' with { type: 'json' }

export const MAIN_ERRORS = defineMessages(messages.MAIN_ERRORS)

/** Every main message by id (for the renderer's defaults). */
export const MAIN_MESSAGE_BY_ID: ReadonlyMap<string, MessageDescriptor> = new Map(
  [MAIN_ERRORS, FOLDER_STATES, FOLDER_ERRORS, FORM_ERRORS, JOB_STATES, MAIL_STATES].flatMap((g) => Object.values<MessageDescriptor>(g)).map((m) => [m.id, m]),
)
