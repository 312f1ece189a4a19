/**
 * Issue 33 on the Overview: how many possible duplicates wait for a person (held: never sent until
 * Send anyway or Discard), leading to History filtered to them.
 */
import { defineMessages } from 'react-intl'
import { useShallow } from 'zustand/react/shallow'
import { useI18n } from '../../lib/i18n'
import { useApp } from '../../store'
import { emptyHistoryFilter } from '../../store/history'
import messages from './HeldCount.messages.json' with { type: 'json' }

const m = defineMessages(messages.m)

export function HeldCount() {
  const intl = useI18n()
  const held = useApp((s) => s.session?.counts.held ?? 0)
  const [setFilter, setScreen] = useApp(useShallow((s) => [s.setHistoryFilter, s.setScreen] as const))
  if (held <= 0) return null
  return (
    <p className="note note--warn" role="status">
      {intl.formatMessage(m.waiting, { count: held })}{' '}
      <button
        type="button"
        className="linklike"
        onClick={() => {
          setFilter({ ...emptyHistoryFilter(), statuses: ['held'] })
          setScreen('history')
        }}
      >
        {intl.formatMessage(m.review)}
      </button>
    </p>
  )
}
