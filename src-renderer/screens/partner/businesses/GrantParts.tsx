import { defineMessages } from 'react-intl'
import { Dialog } from '../../../components/Dialog'
import { useI18n } from '../../../lib/i18n'
import messages from './GrantParts.messages.json' with { type: 'json' }

export const g = defineMessages(messages.g)

/** The parts both grant dialogs show: the partner's holding around a grant, and what a grant did. */

/** A grant's quote rows: the partner's holding before it, and after it (or how much is short). */
export function HoldingRows({ holding, after }: { holding: number | null; after: number | null }) {
  const intl = useI18n()
  return (
    <>
      <div className="quote__row">
        <span>{intl.formatMessage(g.before)}</span>
        <span>
          {holding === null ? intl.formatMessage(g.unknown) : intl.formatMessage(g.credits, { count: holding })}
        </span>
      </div>
      <div className="quote__row">
        <span>{intl.formatMessage(g.after)}</span>
        <span className={after !== null && after < 0 ? 'text-bad' : undefined}>
          {after === null
            ? '—'
            : after < 0
              ? intl.formatMessage(g.short, { count: -after })
              : intl.formatMessage(g.credits, { count: after })}
        </span>
      </div>
    </>
  )
}

/** What a grant did, read back from the server's answer (announced to screen readers). */
export function GrantResultDialog({
  title,
  facts,
  onClose,
}: {
  title: string
  facts: [string, React.ReactNode][]
  onClose: () => void
}) {
  const intl = useI18n()
  return (
    <Dialog
      key="result"
      title={title}
      onClose={onClose}
      footer={
        <button type="button" className="btn btn--primary" onClick={onClose} data-autofocus>
          {intl.formatMessage(g.done)}
        </button>
      }
    >
      <div role="status">
        <dl className="facts">
          {facts.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </Dialog>
  )
}
