/**
 * The main process's sentences a person reads in the renderer (issue 34): errors that cross the
 * bridge and reasons stored with history rows. Main sends them as `Coded` (contract/coded.ts:
 * `coded(MAIN_ERRORS.x, params)`); the renderer words them in the person's language
 * (src-renderer/lib/coded.ts), with these English texts as the defaults. Translations:
 * contract/i18n/<locale>/main.json. Parameters are names, paths, numbers: never a secret.
 */
import { defineMessages, type MessageDescriptor } from './coded'
import { FOLDER_ERRORS, FOLDER_STATES, FORM_ERRORS, JOB_STATES, MAIL_STATES } from './main-states'

export const MAIN_ERRORS = defineMessages({
  // ---- the path to the server ---------------------------------------------------------------
  offline: {
    id: 'errors.offline',
    defaultMessage: 'This computer is offline. Bookdrop sends the files when the network is back.',
  },
  unreachable: {
    id: 'errors.unreachable',
    defaultMessage:
      'The server cannot be reached right now ({detail}). Check the network and the server address; Bookdrop tries again by itself.',
  },
  timeout: {
    id: 'errors.timeout',
    defaultMessage: 'The server did not answer in time. Bookdrop tries again by itself.',
  },
  notApi: {
    id: 'errors.not_api',
    defaultMessage:
      'Something other than the server answered (a Wi-Fi login page, a proxy or a wrong server address). Check the network and the server address.',
  },
  redirect: {
    id: 'errors.redirect',
    defaultMessage:
      'The server tried to send Bookdrop to another address, which Bookdrop never follows so that the key stays safe. Check the server address.',
  },
  serverFailing: {
    id: 'errors.server_failing',
    defaultMessage: 'The server is having a problem (HTTP {status}). Bookdrop tries again by itself.',
  },
  certificate: {
    id: 'errors.certificate',
    defaultMessage:
      "The server's certificate is not trusted on this computer. Check the server address, or add your organisation's certificate in Settings.",
  },
  proxyAuth: {
    id: 'errors.proxy_auth',
    defaultMessage: 'The proxy asks for a user name and password. Add them to the proxy setting.',
  },
  proxy: {
    id: 'errors.proxy',
    defaultMessage: 'The proxy could not connect to the server. Check the proxy setting.',
  },
  rateLimited: {
    id: 'errors.rate_limited',
    defaultMessage:
      'Too many requests for now. Bookdrop waits and tries again in {seconds, plural, one {# second} other {# seconds}}.',
  },
  rateLimitedNow: {
    id: 'errors.rate_limited_now',
    defaultMessage: 'Too many requests for now. Bookdrop waits and tries again by itself.',
  },
  serverSaid: { id: 'errors.server_said', defaultMessage: 'The server said: {message}' },
  serverRefused: { id: 'errors.server_refused', defaultMessage: 'The server refused the request (HTTP {status}).' },
  badResponse: {
    id: 'errors.bad_response',
    defaultMessage: 'The server answered with something Bookdrop cannot read. Try again later.',
  },
  requestTooLarge: {
    id: 'errors.request_too_large',
    defaultMessage: 'This file is too large for the server. Make it smaller (for example, scan at a lower resolution) and add it again.',
  },
  // ---- keys and profiles ------------------------------------------------------------------
  keyRefused: {
    id: 'errors.key_refused',
    defaultMessage: "The server no longer accepts this profile's key. Paste a new key in Settings.",
  },
  keyRejected: {
    id: 'errors.key_rejected',
    defaultMessage:
      '{what, select, token {The server refused the bearer token} other {The server refused the key}}: {server} Check that you copied all of it, or create a new one. Nothing was saved.',
  },
  keyWrongKind: {
    id: 'errors.key_wrong_kind',
    defaultMessage: "This profile's key is not the right kind of key for this. Use a business key for a business, a partner key for a partner.",
  },
  keyIsBusiness: {
    id: 'errors.key_is_business',
    defaultMessage:
      'This is a business key, but this is a partner profile: paste your partner secret key ({prefix}…), or choose the business kind of profile for this key.',
  },
  keyIsPartner: {
    id: 'errors.key_is_partner',
    defaultMessage:
      "This is a partner key, but this is a {kind, select, oauth {sign-in (OAuth)} other {business}} profile: paste the business's secret key ({prefix}…), or choose the partner kind of profile for this key.",
  },
  keyIsPublic: {
    id: 'errors.key_is_public',
    defaultMessage: 'This is a public key, which is not a secret and cannot be used here: paste the secret key ({prefix}…).',
  },
  keyMissing: {
    id: 'errors.key_missing',
    defaultMessage: '{what, select, token {Paste the bearer token.} other {Paste the key.}}',
  },
  keyMalformed: {
    id: 'errors.key_malformed',
    defaultMessage:
      '{what, select, token {The bearer token} other {The key}} contains spaces, line breaks or other characters keys never have: paste it again as one word.',
  },
  keyCheckUnreachable: {
    id: 'errors.key_check_unreachable',
    defaultMessage:
      'The key could not be checked: {address} cannot be reached. Nothing was saved. Check the connection and the environment, then try again.',
  },
  keyCheckFailed: {
    id: 'errors.key_check_failed',
    defaultMessage: 'The server could not check the key right now (HTTP {status}). Nothing was saved. Try again in a moment.',
  },
  // ---- folder rules -------------------------------------------------------------------------
  folderNotAbsolute: {
    id: 'errors.folder_not_absolute',
    defaultMessage: 'Give the full path of the folder, for example /home/me/Receipts.',
  },
  folderNotFound: { id: 'errors.folder_not_found', defaultMessage: '{path} does not exist (or cannot be read).' },
  folderNotDirectory: { id: 'errors.folder_not_directory', defaultMessage: '{path} is a file, not a folder: choose a folder.' },
  folderRoot: {
    id: 'errors.folder_filesystem_root',
    defaultMessage: '{path} is the root of a drive: choose a folder on it instead.',
  },
  folderSystem: {
    id: 'errors.folder_system_directory',
    defaultMessage: '{path} is a system folder: Bookdrop watches only folders of your own, such as Documents/Receipts.',
  },
  folderAccount: {
    id: 'errors.folder_account_settings',
    defaultMessage:
      "{path} holds your account's settings (programs start from there): Bookdrop watches only folders of your own documents.",
  },
  folderHome: {
    id: 'errors.folder_home_directory',
    defaultMessage:
      '{path} is your whole home folder: choose a folder inside it (for example Receipts), so Bookdrop does not send every file you own.',
  },
  folderInsideData: {
    id: 'errors.folder_inside_data',
    defaultMessage: "{path} is inside Bookdrop's own data folder: choose another folder.",
  },
  folderAroundData: {
    id: 'errors.folder_around_data',
    defaultMessage: "{path} holds Bookdrop's own data folder: choose another folder, or watch it without its subfolders.",
  },
  destinationIsFolder: {
    id: 'errors.folder_destination_is_folder',
    defaultMessage:
      'Files cannot be moved into the folder they came from: choose a folder inside it (such as Uploaded) or another folder.',
  },
  destinationOutside: {
    id: 'errors.folder_destination_outside',
    defaultMessage: '{path} is outside the watched folder: pick it with Choose…, or use a folder inside {folder}.',
  },
  unknownKinds: {
    id: 'errors.folder_unknown_kind',
    defaultMessage: 'Bookdrop does not send {kinds} files: choose the kinds from its list ({accepted}).',
  },
  folderNotWatched: { id: 'errors.folder_not_watched', defaultMessage: 'That folder is no longer watched.' },
  // ---- files -------------------------------------------------------------------------------
  fileVanished: {
    id: 'errors.file_vanished',
    defaultMessage: 'The file was moved or deleted before it could be sent.',
  },
  fileUnreadable: {
    id: 'errors.file_unreadable',
    defaultMessage:
      'Bookdrop cannot read this file. Check that its disk is connected and that no other program holds it, then retry.',
  },
  fileNoPermission: {
    id: 'errors.file_no_permission',
    defaultMessage: 'Bookdrop is not allowed to read this file. Check its permissions, then retry.',
  },
  fileTooLarge: {
    id: 'errors.file_too_large',
    defaultMessage: 'The file is {size}, over the {limit} limit. Compress it or raise the limit in Settings, then retry.',
  },
  fileEmpty: { id: 'errors.file_empty', defaultMessage: 'The file is empty (0 bytes). Save it again, then retry.' },
  fileUnsupported: {
    id: 'errors.file_unsupported_kind',
    defaultMessage:
      'Bookdrop does not send {kind} files here. Accepted: {accepted}. Rename or convert the file, or choose "Send anyway".',
  },
  fileOutsideFolder: {
    id: 'errors.file_outside_folder',
    defaultMessage:
      'A link to a file outside the watched folder: not sent. Bookdrop reads only files inside the folder: copy the file in, or drop it on the window.',
  },
  fileChanged: {
    id: 'errors.file_changed',
    defaultMessage: 'The file changed on disk before it was sent; the new version is queued.',
  },
  gaveUp: {
    id: 'errors.gave_up',
    defaultMessage: 'Gave up after {attempts, plural, one {# attempt} other {# attempts}}. Press Retry to try again.',
  },
  jobFailed: {
    id: 'errors.job_failed',
    defaultMessage: 'The server could not create a record from this file.',
  },
  uploadNotFound: {
    id: 'errors.upload_not_found',
    defaultMessage: 'This file is not in the history any more.',
  },
  // ---- mail and phone ------------------------------------------------------------------------
  mailAccountNotFound: {
    id: 'errors.mail_account_not_found',
    defaultMessage: 'That mail account is no longer there.',
  },
  mailRuleNotFound: { id: 'errors.mail_rule_not_found', defaultMessage: 'That mail rule is no longer there.' },
  mailPasswordRequired: {
    id: 'errors.mail_password_required',
    defaultMessage: 'Give the password (or the app password) of this mail account.',
  },
  phoneClosed: {
    id: 'errors.phone_closed',
    defaultMessage: 'The phone panel is closed: choose "Add from phone" first.',
  },
  phoneNotWaiting: {
    id: 'errors.phone_not_waiting',
    defaultMessage: 'That phone no longer waits for an answer (it was refused, ended or timed out).',
  },
  phoneNotFound: { id: 'errors.phone_not_found', defaultMessage: 'That phone is no longer paired.' },
  // ---- the app --------------------------------------------------------------------------------
  noProfile: {
    id: 'errors.no_active_profile',
    defaultMessage: 'No profile is selected: add a key in Settings, or try the demo.',
  },
  profileGone: {
    id: 'errors.profile_gone',
    defaultMessage: 'The selected profile is gone: choose another one in Settings.',
  },
  partnerProfileHere: {
    id: 'errors.partner_profile_here',
    defaultMessage:
      '"{name}" is a partner profile. Uploads, purchase orders, invoices, expenses, bills and bank transactions belong to a business: switch to a business profile.',
  },
  businessProfileHere: {
    id: 'errors.business_profile_here',
    defaultMessage:
      '"{name}" is a business profile. Registering businesses, seats and credits need a partner profile: switch to a partner profile.',
  },
  internal: {
    id: 'errors.internal',
    defaultMessage: 'Something went wrong in Bookdrop. Try again; if it happens again, restart Bookdrop.',
  },
})

/** Every main message by id (for the renderer's defaults). */
export const MAIN_MESSAGE_BY_ID: ReadonlyMap<string, MessageDescriptor> = new Map(
  [MAIN_ERRORS, FOLDER_STATES, FOLDER_ERRORS, FORM_ERRORS, JOB_STATES, MAIL_STATES].flatMap((g) => Object.values<MessageDescriptor>(g)).map((m) => [m.id, m]),
)
