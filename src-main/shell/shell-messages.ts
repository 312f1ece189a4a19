/**
 * The desktop shell's own sentences (issue 34): the tray menu, its tooltip and the notifications,
 * formatted in the person's language by `Say` (shell/language.ts). Translations:
 * contract/i18n/<locale>/main.json, with main's errors.
 */
import { defineMessages } from '../../contract/coded'
import messages from './shell-messages.messages.json' with { type: 'json' }

export const TRAY = defineMessages(messages.TRAY)

export const NOTIFY = defineMessages(messages.NOTIFY)
