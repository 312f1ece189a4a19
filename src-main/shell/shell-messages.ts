/**
 * The desktop shell's own sentences (issue 34): the tray menu, its tooltip and the notifications,
 * formatted in the person's language by `Say` (shell/language.ts). Translations:
 * contract/i18n/<locale>/main.json, with main's errors.
 */
import { defineMessages } from '../../contract/coded'

export const TRAY = defineMessages({
  notConnected: { id: 'tray.not_connected', defaultMessage: 'Not connected' },
  keyAttention: { id: 'tray.key_attention', defaultMessage: 'The API key needs attention' },
  subscription: { id: 'tray.subscription_inactive', defaultMessage: 'The Developer API subscription is not active' },
  noCredits: { id: 'tray.out_of_credits', defaultMessage: 'AI credits have run out' },
  offline: { id: 'tray.offline', defaultMessage: 'Offline' },
  unreachable: { id: 'tray.unreachable', defaultMessage: 'Cannot reach the server' },
  notApi: { id: 'tray.not_api', defaultMessage: 'Something other than the API answers' },
  waiting: {
    id: 'tray.waiting',
    defaultMessage: '{why}; {count, plural, one {# file} other {# files}} waiting, nothing is lost',
  },
  attention: {
    id: 'tray.attention',
    defaultMessage: '{count, plural, one {# file needs} other {# files need}} attention',
  },
  paused: { id: 'tray.paused', defaultMessage: 'Paused' },
  pausedWaiting: { id: 'tray.paused_waiting', defaultMessage: 'Paused, {count, plural, one {# file} other {# files}} waiting' },
  uploading: { id: 'tray.uploading', defaultMessage: 'Uploading {count, plural, one {# file} other {# files}}' },
  uploadingLimited: {
    id: 'tray.uploading_rate_limited',
    defaultMessage: 'Uploading {count, plural, one {# file} other {# files}} (waiting for the rate limit)',
  },
  allSent: { id: 'tray.all_sent', defaultMessage: 'All files sent' },
  tooltip: { id: 'tray.tooltip', defaultMessage: 'Bookdrop — {status}' },
  open: { id: 'tray.open', defaultMessage: 'Open Bookdrop' },
  pause: { id: 'tray.pause', defaultMessage: 'Pause uploads' },
  resume: { id: 'tray.resume', defaultMessage: 'Resume uploads' },
  quit: { id: 'tray.quit', defaultMessage: 'Quit Bookdrop' },
})

export const NOTIFY = defineMessages({
  recorded: {
    id: 'notify.recorded',
    defaultMessage: '{count, plural, one {# receipt recorded} other {# receipts recorded}}',
  },
  recordedNamed: {
    id: 'notify.recorded_named',
    defaultMessage: '{count, plural, one {# receipt recorded} other {# receipts recorded}}: {name}',
  },
  attention: {
    id: 'notify.attention',
    defaultMessage: '{count, plural, one {# file needs} other {# files need}} attention',
  },
  attentionNamed: {
    id: 'notify.attention_named',
    defaultMessage: '{count, plural, one {# file needs} other {# files need}} attention: {name}',
  },
  both: {
    id: 'notify.recorded_and_attention',
    defaultMessage:
      '{recorded, plural, one {# receipt recorded} other {# receipts recorded}}; {attention, plural, one {# file needs} other {# files need}} attention',
  },
})
