/**
 * Issue 33: what a possible duplicate's row says, "Possible duplicate of <name>, sent on <date>
 * (same text)" (the catalogue's `duplicate.possible`, contract/possible-duplicate.ts), the name a
 * link that shows that other row in History; and the Discard action of a held row.
 */
import type { ReactNode } from 'react'
import { defineMessages } from 'react-intl'
import type { PossibleDuplicate } from '../../contract/possible-duplicate'
import { emptyHistoryFilter } from '../store/history'
import { useI18n } from '../lib/i18n'
import type { Upload } from '../lib/types'
import { useApp } from '../store'
import { useShallow } from 'zustand/react/shallow'
import messages from './PossibleDuplicate.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

/** The sentence of a row that looks like another receipt, its name a link to that row. */
export function PossibleDuplicateNote({ d, held }: { d: PossibleDuplicate; held: boolean }) {
  const intl = useI18n()
  const [setFilter, setScreen] = useApp(useShallow((s) => [s.setHistoryFilter, s.setScreen] as const))
  const show = () => {
    setFilter({ ...emptyHistoryFilter(), search: d.name, allProfiles: false })
    setScreen('history')
  }
  return (
    <span className="possible-duplicate">
      {intl.formatMessage(m.possible, {
        name: d.name,
        sent: d.sentAt != null ? 'yes' : 'no',
        sentAt: d.sentAt ?? 0,
        basis: d.basis,
        link: (chunks: ReactNode[]) => (
          <button
            type="button"
            className="linklike"
            onClick={show}
            aria-label={intl.formatMessage(m.show, { name: d.name })}
            data-upload={d.uploadId}
          >
            <bdi>{chunks}</bdi>
          </button>
        ),
      })}
      {held && d.sentAt == null ? ` ${intl.formatMessage(m.waiting)}` : null}
    </span>
  )
}

/** Discard, for a held row (Send anyway is the row's retry). */
export function DiscardButton({ u, className }: { u: Upload; className: string }) {
  const intl = useI18n()
  const discard = useApp((s) => s.discardUpload)
  if (u.status !== 'held') return null
  return (
    <button
      type="button"
      className={className}
      onClick={() => void discard(u.id)}
      aria-label={intl.formatMessage(m.discardLabel, { name: u.name })}
    >
      {intl.formatMessage(m.discard)}
    </button>
  )
}

/** The Discard menu item's words (History's row menu). */
export function discardWords(intl: ReturnType<typeof useI18n>): string {
  return intl.formatMessage(m.discard)
}
