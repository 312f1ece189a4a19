/// <reference types="vite/client" />
/**
 * The phone page's words (issue 34), in the phone's own language: the first of the browser's
 * preferred languages (navigator.languages) that Bookdrop has, English otherwise. Only that
 * language's catalogue is fetched (contract/i18n/<locale>/phone.json, a small chunk of its own), so
 * the page stays a few kilobytes. The static texts of index.html carry `data-m` (text) or
 * `data-m-placeholder` with the key of their message here, and are worded once the catalogue is in.
 */
import { type IntlShape, createIntl, createIntlCache, defineMessages } from '@formatjs/intl'

/** The languages of the phone page besides English (the source): each has a phone.json. */
const CATALOGUES = import.meta.glob<Record<string, string>>('../../contract/i18n/*/phone.json', {
  import: 'default',
})
const LOCALES = ['de', 'fr', 'es', 'pt-BR', 'ar', 'id'] as const

export const m = defineMessages({
  title: { id: 'phone.page.title', defaultMessage: 'Send receipts to Bookdrop' },
  connecting: { id: 'phone.page.connecting', defaultMessage: 'Connecting to the computer…' },
  camera: { id: 'phone.page.camera', defaultMessage: 'Take or choose photos' },
  cameraHint: { id: 'phone.page.camera.hint', defaultMessage: 'Receipts, bills, or PDFs' },
  sendAs: { id: 'phone.page.sendAs', defaultMessage: 'Send as' },
  note: { id: 'phone.page.note', defaultMessage: 'Note (optional)' },
  notePlaceholder: { id: 'phone.page.note.placeholder', defaultMessage: 'e.g. Lunch with a client' },
  oneDoc: { id: 'phone.page.oneDoc', defaultMessage: 'One document: several pages' },
  noPage: { id: 'phone.page.doc.none', defaultMessage: 'No page yet: take a photo of each page.' },
  pagesReady: {
    id: 'phone.page.doc.ready',
    defaultMessage:
      '{count, plural, one {# page ready (at most {max, number}).} other {# pages ready (at most {max, number}).}}',
  },
  docSend: { id: 'phone.page.doc.send', defaultMessage: 'Send as one document' },
  docClear: { id: 'phone.page.doc.clear', defaultMessage: 'Clear the pages' },
  photos: { id: 'phone.page.photos', defaultMessage: 'Photos' },
  targetExpenses: { id: 'phone.page.target.expenses', defaultMessage: 'Expenses (receipts)' },
  targetBills: { id: 'phone.page.target.bills', defaultMessage: 'Bills' },
  targetInvoices: { id: 'phone.page.target.invoices', defaultMessage: 'Invoices' },
  targetIncome: { id: 'phone.page.target.income', defaultMessage: 'Income' },
  answered: { id: 'phone.page.answered', defaultMessage: 'The computer answered {status, number, ::group-off}.' },
  codeLabel: { id: 'phone.page.code', defaultMessage: 'Pairing code {digits}' },
  checkCode: {
    id: 'phone.page.checkCode',
    defaultMessage: 'Check that the computer shows the code {code}, then choose Allow there.',
  },
  paired: { id: 'phone.page.paired', defaultMessage: 'Paired. Take a photo of each receipt.' },
  pairedTo: {
    id: 'phone.page.pairedTo',
    defaultMessage: 'Paired: photos go to {business}. Take a photo of each receipt.',
  },
  unreachable: {
    id: 'phone.page.unreachable',
    defaultMessage: 'The computer cannot be reached: check that this phone is on the same Wi-Fi.',
  },
  unreachableScan: {
    id: 'phone.page.unreachable.scan',
    defaultMessage:
      'The computer cannot be reached: check that this phone is on the same Wi-Fi, then scan the code again.',
  },
  waiting: { id: 'phone.page.photo.waiting', defaultMessage: 'Waiting…' },
  sending: { id: 'phone.page.photo.sending', defaultMessage: 'Sending…' },
  sendingName: { id: 'phone.page.photo.sendingName', defaultMessage: 'Sending {name}' },
  outcome: { id: 'phone.page.photo.outcome', defaultMessage: '{what}. {detail}' },
  sent: { id: 'phone.page.photo.sent', defaultMessage: 'Sent' },
  duplicate: { id: 'phone.page.photo.duplicate', defaultMessage: 'Duplicate' },
  skipped: { id: 'phone.page.photo.skipped', defaultMessage: 'Skipped' },
  received: { id: 'phone.page.photo.received', defaultMessage: 'Received' },
  failed: { id: 'phone.page.photo.failed', defaultMessage: 'Not sent' },
  retrying: {
    id: 'phone.page.photo.retrying',
    defaultMessage: 'The connection dropped: trying again in {seconds, number} s…',
  },
  lost: {
    id: 'phone.page.photo.lost',
    defaultMessage: 'The computer could not be reached. Check the Wi-Fi, then tap to try again.',
  },
  tryAgain: { id: 'phone.page.photo.tryAgain', defaultMessage: 'Try again' },
  tooLarge: {
    id: 'phone.page.photo.tooLarge',
    defaultMessage: 'Over {mb, number} MB; take it again at a lower resolution.',
  },
  tooManyPages: {
    id: 'phone.page.photo.tooManyPages',
    defaultMessage: 'A document has at most {max, number} pages.',
  },
  pageOf: {
    id: 'phone.page.photo.page',
    defaultMessage: 'Page {n, number} of the document: not sent yet.',
  },
})

/** The first of the phone's preferred languages that the page has (a region falls back to its language). */
export function pickLocale(preferred: readonly string[]): string {
  for (const tag of preferred) {
    const lower = tag.toLowerCase()
    const exact = LOCALES.find((l) => l.toLowerCase() === lower)
    if (exact) return exact
    if (lower === 'en' || lower.startsWith('en-')) return 'en'
    const base = lower.split('-')[0]
    const same = LOCALES.find((l) => l.toLowerCase().split('-')[0] === base)
    if (same) return same
  }
  return 'en'
}

const cache = createIntlCache()
let intl: IntlShape = createIntl({ locale: 'en', messages: {}, onError: () => undefined }, cache)

/** The page's formatter (English until `loadWords` has run). */
export function words(): IntlShape {
  return intl
}

/**
 * Picks the phone's language, fetches its catalogue (English needs none), and words the page's
 * static texts, its `<html lang>` and direction. A catalogue that cannot be fetched leaves English.
 */
export async function loadWords(): Promise<void> {
  const locale = pickLocale(navigator.languages?.length ? navigator.languages : [navigator.language])
  let messages: Record<string, string> = {}
  const load = CATALOGUES[`../../contract/i18n/${locale}/phone.json`]
  if (load) {
    try {
      messages = await load()
    } catch {
      messages = {}
    }
  }
  const used = Object.keys(messages).length ? locale : 'en'
  intl = createIntl({ locale: used, defaultLocale: 'en', messages, onError: () => undefined }, cache)
  document.documentElement.lang = used
  document.documentElement.dir = used === 'ar' ? 'rtl' : 'ltr'
  const all = m as Record<string, (typeof m)[keyof typeof m]>
  for (const el of document.querySelectorAll<HTMLElement>('[data-m]')) {
    const d = all[el.dataset.m ?? '']
    if (d) el.textContent = intl.formatMessage(d)
  }
  for (const el of document.querySelectorAll<HTMLElement>('[data-m-placeholder]')) {
    const d = all[el.dataset.mPlaceholder ?? '']
    if (d) el.setAttribute('placeholder', intl.formatMessage(d))
  }
  document.title = intl.formatMessage(m.title)
}
