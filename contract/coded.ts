/**
 * Building a `Coded` sentence (contract/message.ts) from a catalogue message: the id, the
 * parameters, and the English text formatted from the message's `defaultMessage` with ICU
 * MessageFormat (the same syntax the renderer's react-intl formats the translations with). Main
 * uses it for errors, reasons stored with history rows, the tray and notifications; headless
 * output prints the `text` (English, from the same catalogue).
 */
import { IntlMessageFormat } from 'intl-messageformat'
import type { Coded } from './message'

/** A catalogue message, as `defineMessages` writes it. */
export interface MessageDescriptor {
  id: string
  defaultMessage: string
}

export type CodedParams = NonNullable<Coded['params']>

/**
 * `defineMessages` for modules outside React (contract, main): the identity, as the renderer's
 * react-intl one, so that a module's table (read from its `<module>.messages.json`) is written the
 * same way everywhere and typed as messages.
 */
export function defineMessages<K extends string>(
  messages: Record<K, MessageDescriptor>,
): Record<K, MessageDescriptor> {
  return messages
}

const cache = new Map<string, IntlMessageFormat>()

/** Formats an ICU message in `locale`; a broken pattern or missing argument gives `fallback`. */
export function formatIcu(pattern: string, locale: string, params: CodedParams = {}, fallback = pattern): string {
  const key = `${locale}\u0000${pattern}`
  try {
    let f = cache.get(key)
    if (!f) {
      f = new IntlMessageFormat(pattern, locale)
      if (cache.size > 500) cache.clear()
      cache.set(key, f)
    }
    const out = f.format(params as Record<string, string | number | boolean | null>)
    return typeof out === 'string' ? out : String(out)
  } catch {
    return fallback
  }
}

/** The sentence `message` with `params`: its id, the parameters, and its English text. */
export function coded(message: MessageDescriptor, params?: CodedParams): Coded {
  const text = formatIcu(message.defaultMessage, 'en', params ?? {})
  return params && Object.keys(params).length > 0 ? { code: message.id, params: { ...params }, text } : { code: message.id, text }
}

/** True for a value shaped like a Coded (an untrusted JSON value read back from storage or the bridge). */
export function isCoded(v: unknown): v is Coded {
  if (!v || typeof v !== 'object') return false
  const c = v as Record<string, unknown>
  if (typeof c.code !== 'string' || typeof c.text !== 'string') return false
  if (c.params === undefined) return true
  if (!c.params || typeof c.params !== 'object' || Array.isArray(c.params)) return false
  return Object.values(c.params).every((p) => p === null || ['string', 'number', 'boolean'].includes(typeof p))
}

/** A Coded with `scrub` applied to its English text and every string parameter (secrets, the data folder). */
export function scrubCoded(c: Coded, scrub: (s: string) => string): Coded {
  const out: Coded = { code: c.code, text: scrub(c.text) }
  if (c.params) {
    out.params = Object.fromEntries(
      Object.entries(c.params).map(([k, v]) => [k, typeof v === 'string' ? scrub(v) : v]),
    )
  }
  return out
}
