import { Dialog } from '../../../components/Dialog'
import { formatNumber } from '../../../lib/format'

/** The parts both grant dialogs show: the partner's holding around a grant, and what a grant did. */

/** A grant's quote rows: the partner's holding before it, and after it (or how much is short). */
export function HoldingRows({ holding, after }: { holding: number | null; after: number | null }) {
  return (
    <>
      <div className="quote__row">
        <span>Holding before</span>
        <span>{holding === null ? 'not known yet' : `${formatNumber(holding)} credits`}</span>
      </div>
      <div className="quote__row">
        <span>Holding after</span>
        <span className={after !== null && after < 0 ? 'text-bad' : undefined}>
          {after === null
            ? '—'
            : after < 0
              ? `${formatNumber(-after)} credits short`
              : `${formatNumber(after)} credits`}
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
  return (
    <Dialog
      key="result"
      title={title}
      onClose={onClose}
      footer={
        <button type="button" className="btn btn--primary" onClick={onClose} data-autofocus>
          Done
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
