import { type ReactNode, useId } from 'react'

/**
 * A titled part of a screen: a section named by its h2 (`aria-labelledby` points at the h2's id, its
 * own unless `titleId` is given).
 * With `actions`, the title and the actions share a head line; with `intro` too, the title and its
 * words stand on the left and the actions on the right (an offer: "Add from phone", the demo's
 * sample receipts).
 */
export function Section({
  titleId,
  title,
  className = 'section',
  actions,
  intro,
  busy,
  children,
}: {
  /** A fixed id for the title, where something outside names it (a test); else one of its own. */
  titleId?: string
  title: ReactNode
  /** `section` (a part of the screen) or `card` and its own classes. */
  className?: string
  actions?: ReactNode
  intro?: ReactNode
  /** Its content is loading (aria-busy). */
  busy?: boolean
  children?: ReactNode
}) {
  const ownId = useId()
  const id = titleId ?? ownId
  const h2 = (
    <h2 id={id} className="h3">
      {title}
    </h2>
  )
  return (
    <section className={className} aria-labelledby={id} aria-busy={busy}>
      {intro !== undefined ? (
        <div className="section__offer">
          <div>
            {h2}
            <p className="muted">{intro}</p>
          </div>
          {actions}
        </div>
      ) : actions !== undefined ? (
        <div className="section__head">
          {h2}
          {actions}
        </div>
      ) : (
        h2
      )}
      {children}
    </section>
  )
}
