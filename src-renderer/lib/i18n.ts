/**
 * The interface's language (issue 34): one ICU MessageFormat formatter (react-intl), the same for
 * React (`useIntl`, `<FormattedMessage>`, through `<I18nProvider>`) and for code outside React
 * (stores, toasts, announcements: `getIntl().formatMessage(...)`).
 *
 * Every visible string is a message with an id and its English `defaultMessage`, written where it is
 * used (`defineMessages` or `formatMessage({ id, defaultMessage })`); the catalogues are extracted
 * from the code by @formatjs/cli. Until a language's catalogue is loaded the English default shows.
 */
import { createElement, type ReactNode, useSyncExternalStore } from 'react'
import { createIntl, createIntlCache, type IntlShape, RawIntlProvider } from 'react-intl'

const cache = createIntlCache()

function make(locale: string, messages: Record<string, string>): IntlShape {
  return createIntl(
    {
      locale,
      defaultLocale: 'en',
      messages,
      // A message missing from a catalogue shows its English default; the pseudo-locale test is what
      // catches strings that never reached the catalogue.
      onError: () => undefined,
    },
    cache,
  )
}

let current: IntlShape = make('en', {})
const listeners = new Set<() => void>()

/** The formatter in use now: for code outside React (stores, toasts, live announcements). */
export function getIntl(): IntlShape {
  return current
}

/** Switches every string at once (no reload): components re-render through the provider. */
export function setIntl(locale: string, messages: Record<string, string>): void {
  current = make(locale, messages)
  for (const l of listeners) l()
}

function subscribe(l: () => void): () => void {
  listeners.add(l)
  return () => listeners.delete(l)
}

/** The app's root provider: re-renders the tree when the language changes. */
export function I18nProvider({ children }: { children: ReactNode }) {
  const intl = useSyncExternalStore(subscribe, getIntl, getIntl)
  return createElement(RawIntlProvider, { value: intl }, children)
}

/**
 * The formatter for a component: re-renders it when the language changes. Works without the
 * provider (component tests render screens alone), so screens use this rather than react-intl's
 * `useIntl`. Write messages with `defineMessages` at the top of the module and format them with
 * `intl.formatMessage(m.key, values)` so the extractor finds every one.
 */
export function useI18n(): IntlShape {
  return useSyncExternalStore(subscribe, getIntl, getIntl)
}
