/**
 * Main's sentences in the person's language (issue 34). Main sends errors and the reasons stored
 * with history rows as a `Coded` (a catalogue id, parameters, and the English text); this words
 * one with the renderer's one formatter (lib/i18n.ts), the English of contract/main-messages.ts
 * as the default. A code this build does not know shows main's English text, as does a row stored
 * before codes were (its text is all there is).
 */
import type { BridgeError, Coded } from '../../contract'
import { MAIN_MESSAGE_BY_ID } from '../../contract/main-messages'
import { isolate } from './format'
import { getIntl } from './i18n'

/** The sentence in the language in use now. */
export function wordCoded(c: Coded): string {
  const known = MAIN_MESSAGE_BY_ID.get(c.code)
  if (!known) return c.text
  try {
    // The ids and English wordings are main's (contract/main-messages.messages.json): a
    // formatter under another name, so the extractor does not take this call for a message.
    const word: (d: { id: string; defaultMessage: string }, v: Record<string, string | number | boolean | null>) => string =
      getIntl().formatMessage
    // Names, paths and the server's own words keep their direction inside right-to-left text.
    const params = Object.fromEntries(
      Object.entries(c.params ?? {}).map(([k, v]) => [k, typeof v === 'string' ? isolate(v) : v]),
    )
    return word({ id: known.id, defaultMessage: known.defaultMessage }, params)
  } catch {
    return c.text
  }
}

/** A stored sentence: worded when it has a code, else its text as stored (rows from before). */
export function codedOrText(c: Coded | null | undefined, text: string | null | undefined): string {
  return c ? wordCoded(c) : (text ?? '')
}

/**
 * A bridge error with its message (and fields) worded in the language in use; `coded.text` keeps
 * the English. The bridge applies this to every failed call, so every screen that shows
 * `error.message` shows it in the person's language.
 */
export function wordError(e: BridgeError): BridgeError {
  if (!e.coded && !e.codedFields) return e
  const out: BridgeError = { ...e }
  if (e.coded) out.message = wordCoded(e.coded)
  if (e.codedFields) {
    out.fields = { ...e.fields }
    for (const [k, c] of Object.entries(e.codedFields)) out.fields[k] = wordCoded(c)
  }
  return out
}
