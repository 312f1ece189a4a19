/** The business registration form's words (issue 34): labels, the password rules and its problems. */
import { defineMessages } from 'react-intl'
import type { PASSWORD_RULES } from '../../../contract/api'
import { getIntl } from '../../lib/i18n'

export const m = defineMessages({
  title: { id: 'partner.register.title', defaultMessage: 'Register a business' },
  intro: {
    id: 'partner.register.intro',
    defaultMessage: 'Create a business account for a client. It is listed under your referred businesses.',
  },
  refused: { id: 'partner.register.refused', defaultMessage: 'The business was not registered: {reason}' },
  invalid: { id: 'partner.register.invalid', defaultMessage: 'Some fields need attention.' },
  rules: { id: 'partner.register.rules', defaultMessage: 'Password rules' },
  ruleDone: { id: 'partner.register.rule.done', defaultMessage: ': done' },
  ruleMissing: { id: 'partner.register.rule.missing', defaultMessage: ': missing' },
  ruleLength: { id: 'partner.register.rule.length', defaultMessage: 'at least 8 characters' },
  ruleLetter: { id: 'partner.register.rule.letter', defaultMessage: 'a letter' },
  ruleNumber: { id: 'partner.register.rule.number', defaultMessage: 'a number' },
  ruleSpecial: { id: 'partner.register.rule.special', defaultMessage: 'a special character (such as ! @ # $ %)' },
  businessName: { id: 'partner.register.businessName', defaultMessage: 'Business name' },
  email: { id: 'partner.register.email', defaultMessage: 'Owner’s email' },
  firstname: { id: 'partner.register.firstname', defaultMessage: 'Owner’s first name' },
  lastname: { id: 'partner.register.lastname', defaultMessage: 'Owner’s last name' },
  password: { id: 'partner.register.password', defaultMessage: 'Password' },
  show: { id: 'partner.register.password.show', defaultMessage: 'Show' },
  hide: { id: 'partner.register.password.hide', defaultMessage: 'Hide' },
  country: { id: 'partner.register.country', defaultMessage: 'Country' },
  countryHint: { id: 'partner.register.country.hint', defaultMessage: 'Two-letter code, e.g. NG.' },
  currency: { id: 'partner.register.currency', defaultMessage: 'Currency' },
  currencyHint: { id: 'partner.register.currency.hint', defaultMessage: 'Three-letter code, e.g. NGN.' },
  timezone: { id: 'partner.register.timezone', defaultMessage: 'Time zone' },
  access: { id: 'partner.register.access', defaultMessage: 'Your access to the business' },
  accessAdmin: {
    id: 'partner.register.access.admin',
    defaultMessage: 'Admin: you manage the business fully, and receive its API keys now (to save as a profile).',
  },
  accessEditor: { id: 'partner.register.access.editor', defaultMessage: 'Editor: you can record and change entries.' },
  accessViewer: { id: 'partner.register.access.viewer', defaultMessage: 'Viewer: you can only look.' },
  partnerPays: {
    id: 'partner.register.partnerPays',
    defaultMessage: 'Pay for this business’s AI use from my partner credit',
  },
  partnerPaysHint: {
    id: 'partner.register.partnerPays.hint',
    defaultMessage:
      "The business's AI credit use is charged to your partner credit, and you manage that credit. Such a business cannot receive partner seats later.",
  },
  registering: { id: 'partner.register.registering', defaultMessage: 'Registering…' },
  register: { id: 'partner.register.submit', defaultMessage: 'Register business' },
  errEmail: {
    id: 'partner.register.error.email',
    defaultMessage: 'Write the owner’s email address, such as name@example.com.',
  },
  errFirstname: { id: 'partner.register.error.firstname', defaultMessage: 'Give the owner’s first name.' },
  errLastname: { id: 'partner.register.error.lastname', defaultMessage: 'Give the owner’s last name.' },
  errBusinessName: { id: 'partner.register.error.businessName', defaultMessage: 'Give the business a name.' },
  errPasswordMissing: { id: 'partner.register.error.passwordMissing', defaultMessage: 'Choose a password.' },
  errPassword: { id: 'partner.register.error.password', defaultMessage: 'The password needs {missing}.' },
  errCountry: {
    id: 'partner.register.error.country',
    defaultMessage: 'Write the two-letter country code, such as NG or US.',
  },
  errCurrency: {
    id: 'partner.register.error.currency',
    defaultMessage: 'Write the three-letter currency code, such as NGN or USD.',
  },
  errTimezone: { id: 'partner.register.error.timezone', defaultMessage: 'Choose the business’s time zone.' },
  errAccess: { id: 'partner.register.error.access', defaultMessage: 'Choose your access to the business.' },
  profileNameMissing: { id: 'partner.register.profileName.missing', defaultMessage: 'Give the profile a name.' },
  registered: { id: 'partner.register.done', defaultMessage: '{name} is registered' },
  businessId: { id: 'partner.register.businessId', defaultMessage: 'Business ID' },
  publicKey: { id: 'partner.register.publicKey', defaultMessage: 'Public key' },
  secretKey: { id: 'partner.register.secretKey', defaultMessage: 'Secret key' },
  keyHeld: {
    id: 'partner.register.keyHeld',
    defaultMessage:
      'The secret key is held by Bookdrop until you save it: it goes to the system keychain and is never shown in full.',
  },
  profileName: { id: 'partner.register.profileName', defaultMessage: 'Profile name' },
  saving: { id: 'partner.register.saving', defaultMessage: 'Saving…' },
  saveProfile: { id: 'partner.register.saveProfile', defaultMessage: 'Save as a profile' },
  discard: { id: 'partner.register.discard', defaultMessage: 'Discard the keys' },
  discarded: {
    id: 'partner.register.discarded',
    defaultMessage: 'The keys were discarded: nothing was saved. The owner can create new keys in the application.',
  },
  saved: { id: 'partner.register.saved', defaultMessage: 'Saved as a profile.' },
  switchTo: { id: 'partner.register.switchTo', defaultMessage: 'Switch to {name}' },
  noKeys: {
    id: 'partner.register.noKeys',
    defaultMessage: 'Without admin access no keys are returned; the owner creates them in the application.',
  },
  another: { id: 'partner.register.another', defaultMessage: 'Register another business' },
})

const RULES = {
  length: m.ruleLength,
  letter: m.ruleLetter,
  number: m.ruleNumber,
  special: m.ruleSpecial,
} as const

/** A password rule in the person's language. */
export function rule(id: (typeof PASSWORD_RULES)[number]['id']): string {
  return getIntl().formatMessage(RULES[id])
}
