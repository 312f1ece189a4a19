/**
 * Main's sentences about the live state of a watched folder and of a mail account, and the reasons
 * a job's row keeps (issue 34): sent as `Coded` (contract/coded.ts) next to their English text and
 * worded by the renderer (src-renderer/lib/coded.ts). Translations: contract/i18n/<locale>/main.json.
 */
import { defineMessages } from './coded'

export const FOLDER_STATES = defineMessages({
  notFound: {
    id: 'folders.state.not_found',
    defaultMessage: 'Folder not found: {path} (removed or unmounted). Bookdrop will pick it up again when it comes back.',
  },
  notAFolder: {
    id: 'folders.state.not_a_folder',
    defaultMessage: '{path} is no longer a folder. Bookdrop will pick it up again when a folder is back at this path.',
  },
  denied: {
    id: 'folders.state.denied',
    defaultMessage:
      "Permission denied ({code}): Bookdrop can't read the folder {path}. Give your user access to it; Bookdrop will pick it up again.",
  },
  unavailable: {
    id: 'folders.state.unavailable',
    defaultMessage: 'Folder unavailable: {path} ({code}). Bookdrop will pick it up again when it comes back.',
  },
  subfoldersDenied: {
    id: 'folders.state.subfolders_denied',
    defaultMessage:
      "Permission denied ({code}) reading {path}{more, plural, =0 {} one { and # other folder} other { and # other folders}}: files there can't be seen until you give access. The rest of the folder is watched.",
  },
  subfoldersUnreadable: {
    id: 'folders.state.subfolders_unreadable',
    defaultMessage:
      "Bookdrop can't read {path}{more, plural, =0 {} one { and # other folder} other { and # other folders}} ({code}): files there can't be seen for now. The rest of the folder is watched.",
  },
  switchedToPolling: {
    id: 'folders.state.switched_to_polling',
    defaultMessage:
      '{code, select, EMFILE {Too many open files (EMFILE): switched to polling.} ENFILE {The system ran out of file handles (ENFILE): switched to polling.} ENOSPC {The system limit on watched files was reached (ENOSPC): switched to polling.} other {The file watcher failed ({code}): switched to polling.}}',
  },
  pollingConfigured: {
    id: 'folders.state.polling_configured',
    defaultMessage: 'Checking for changes every {every} (polling, as set for this folder).',
  },
  watcherProblem: {
    id: 'folders.state.watcher_problem',
    defaultMessage:
      'The file watcher reported a problem ({code}): {detail}. Bookdrop keeps checking the folder with periodic rescans.',
  },
})

/** The reasons a job's row keeps when the server's job is not followed to its end. */
export const JOB_STATES = defineMessages({
  cancelledByYou: { id: 'errors.cancelled_by_you', defaultMessage: 'Cancelled by you.' },
  discardedByYou: { id: 'errors.discarded_by_you', defaultMessage: 'Discarded by you: not sent.' },
  changedAfterUpload: {
    id: 'errors.changed_after_upload',
    defaultMessage: 'Uploaded; the file changed since, so it was left in place.',
  },
  timedOut: {
    id: 'errors.job_timeout',
    defaultMessage:
      'The server had not finished job {job} after {unit, select, hours {{hours, plural, one {# hour} other {# hours}}} other {{seconds} seconds}} (Settings, "Give up on a job after"), so Bookdrop stopped waiting. The record may still appear on the server; Retry follows the job again.',
  },
  notReported: {
    id: 'errors.completion_not_reported',
    defaultMessage:
      'Sent; the server did not report completion. ({why, select, unknown_status {job {job} never gave a status Bookdrop knows} not_followed {job {job} could not be followed: {detail}} no_job {its answer named no job and no record} other {{detail}}})',
  },
})

/** A watched folder's rules that depend on the profile. */
export const FOLDER_ERRORS = defineMessages({
  partnerProfile: {
    id: 'errors.folder_partner_profile',
    defaultMessage: '"{name}" is a partner profile: a watched folder uploads to a business profile.',
  },
})

/** A mail account's state (the Mail screen's account card): what went wrong and what to do. */
export const MAIL_STATES = defineMessages({
  auth: {
    id: 'mail.state.auth',
    defaultMessage:
      'mail account "{label}": the server refused the user name or password for {user}. Check them; Gmail and Microsoft 365 need an app password (see README), then save it again.',
  },
  certificate: {
    id: 'mail.state.certificate',
    defaultMessage:
      "mail account \"{label}\": the certificate of {where} is not trusted ({code}). Check the server's name; a company server may need its certificate authority installed on this computer.",
  },
  tls: {
    id: 'mail.state.tls',
    defaultMessage:
      'mail account "{label}": a secure connection to {where} could not be made. Check the port and security (TLS is usually port 993, STARTTLS port 143).',
  },
  noMailbox: {
    id: 'mail.state.no_mailbox',
    defaultMessage:
      'mail account "{label}": there is no mailbox "{mailbox}" on the server. Check its name (levels separated by /), or choose another in the rule.',
  },
  unreachable: {
    id: 'mail.state.unreachable',
    defaultMessage:
      'mail account "{label}": the server {where} cannot be reached ({code}). Check the server name and port and your connection; Bookdrop keeps trying.',
  },
  protocol: {
    id: 'mail.state.protocol',
    defaultMessage:
      'mail account "{label}": the server answered in a way Bookdrop did not expect ({detail}); it tries again.',
  },
  noPassword: {
    id: 'mail.state.no_password',
    defaultMessage:
      'mail account "{label}": no password is saved for {user}. Save it in the Mail screen (it goes to the OS keychain), or set BOOKDROP_MAIL_PASSWORD for the headless mode.',
  },
  plainRemote: {
    id: 'mail.state.plain_remote',
    defaultMessage:
      'mail account "{label}": IMAP without TLS is allowed only on this computer: choose TLS or STARTTLS.',
  },
  storage: {
    id: 'mail.state.storage',
    defaultMessage: 'mail account "{label}": storage failed ({detail}); mail is read again once it works.',
  },
  demoNotRunning: {
    id: 'mail.state.demo_not_running',
    defaultMessage: 'mail account "{label}": the demo inbox is not running.',
  },
  demoNoMailbox: {
    id: 'mail.state.demo_no_mailbox',
    defaultMessage: 'mail account "{label}": there is no mailbox "{mailbox}" in the demo inbox. Use INBOX.',
  },
  downloadLost: {
    id: 'mail.state.download_lost',
    defaultMessage:
      'mail account "{label}": the connection was lost while downloading ({code}); Bookdrop tries again.',
  },
})

/**
 * What a form's field needs, when the request's schema refused it (`invalid_request`): worded by
 * the field's kind of problem, never with the request's field names (the form shows each under its
 * field). The English text stays the schema's own.
 */
export const FORM_ERRORS = defineMessages({
  fields: {
    id: 'errors.form_fields',
    defaultMessage:
      '{count, plural, one {One field needs a change} other {# fields need a change}}: each says what to do.',
  },
  required: { id: 'errors.form_required', defaultMessage: 'Fill in this field.' },
  tooLong: {
    id: 'errors.form_too_long',
    defaultMessage: 'This is too long: use at most {maximum, plural, one {# character} other {# characters}}.',
  },
  tooShort: {
    id: 'errors.form_too_short',
    defaultMessage: 'This is too short: use at least {minimum, plural, one {# character} other {# characters}}.',
  },
  numberTooSmall: { id: 'errors.form_number_too_small', defaultMessage: 'Give a number of at least {minimum}.' },
  numberTooLarge: { id: 'errors.form_number_too_large', defaultMessage: 'Give a number of at most {maximum}.' },
  notNumber: { id: 'errors.form_not_number', defaultMessage: 'Give a number.' },
  wholeNumber: { id: 'errors.form_whole_number', defaultMessage: 'Give a whole number.' },
  format: { id: 'errors.form_format', defaultMessage: 'This is not written the way it should be: check it.' },
  choose: { id: 'errors.form_choose', defaultMessage: 'Choose one of the options.' },
  tooFew: {
    id: 'errors.form_too_few',
    defaultMessage: 'Choose at least {minimum, plural, one {# item} other {# items}}.',
  },
  tooMany: {
    id: 'errors.form_too_many',
    defaultMessage: 'Choose at most {maximum, plural, one {# item} other {# items}}.',
  },
  userControl: {
    id: 'errors.form_user_control',
    defaultMessage: 'The user name contains a control character (such as a line break): type it again.',
  },
  plainRemote: {
    id: 'errors.form_plain_remote',
    defaultMessage: 'A connection without TLS is allowed only to this computer (127.0.0.1): choose TLS or STARTTLS.',
  },
  moveToSame: {
    id: 'errors.form_move_to_same',
    defaultMessage: 'Mails cannot be moved to the mailbox they are read from: choose another mailbox.',
  },
  kindsNeeded: {
    id: 'errors.form_kinds_needed',
    defaultMessage: 'Choose at least one kind of file this target accepts.',
  },
  archiveNeeded: {
    id: 'errors.form_archive_needed',
    defaultMessage: 'Choose an archive folder (a full path) to move uploaded files to.',
  },
})
