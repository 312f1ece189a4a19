/**
 * How Review names things: a record's kind ("Expense"), where its receipt came from ("Folder"), a
 * flag or a reason main sent coded (contract/message.ts); a record's one-line summary is
 * lib/record-line.ts (History and Capture show it too).
 */
import { type IntlShape, defineMessages } from 'react-intl'
import type { Coded } from '../../../contract/message'
import { MESSAGE_ID as DUPLICATE_MESSAGE_ID } from '../../../contract/possible-duplicate'
import type { RecordKind, ReviewSource } from '../../../contract/review'
import { isolate } from '../../lib/format'
import messages from './words.messages.json' with { type: 'json' }

const kinds = defineMessages(messages.kinds)

const sources = defineMessages(messages.sources)

/** "Expense", "Bill"…; a kind the server named that we do not know, as it named it. */
export function kindWord(intl: IntlShape, kind: RecordKind): string {
  const d = (kinds as Record<string, (typeof kinds)['expense']>)[kind]
  return d ? intl.formatMessage(d) : kind.replace(/_/g, ' ')
}

export function sourceWord(intl: IntlShape, source: ReviewSource): string {
  return intl.formatMessage(sources[source])
}

/**
 * A coded sentence in the reader's language: the catalogue's wording when it has the id, else the
 * English `text` main sent (never an id or raw parameters).
 */
export function codedText(intl: IntlShape, c: Coded): string {
  if (!Object.prototype.hasOwnProperty.call(intl.messages, c.code)) return c.text
  try {
    // The id comes from main (a catalogue id of its own sentences), not from this module.
    const coded = { id: c.code }
    const params = (c.params ?? {}) as Record<string, string | number | boolean | null>
    if (c.code !== DUPLICATE_MESSAGE_ID) return intl.formatMessage(coded, params)
    // "Possible duplicate of <name>, sent on <date> (…)": main sends the name, the date (epoch ms)
    // and the basis; the catalogue's sentence also asks whether there is a date, and marks the name
    // (a link in History; here the whole flag is the link), and words the date in the locale.
    return intl.formatMessage(coded, {
      ...params,
      sent: typeof params.sentAt === 'number' ? 'yes' : 'no',
      sentAt: typeof params.sentAt === 'number' ? params.sentAt : 0,
      link: (chunks: string[]) => isolate(chunks.join('')),
    }) as string
  } catch {
    return c.text
  }
}

export { recordLine, totalText } from '../../lib/record-line'
