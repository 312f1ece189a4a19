import { type ReactNode, useEffect, useRef } from 'react'

let firstScreen = true

/** A screen's frame: its title (focused when the screen is switched to) and actions. */
export function Screen({
  title,
  actions,
  children,
  intro,
}: {
  title: string
  actions?: ReactNode
  children: ReactNode
  intro?: ReactNode
}) {
  const h1 = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    // The first screen of the app keeps focus where the browser put it; later switches move focus
    // to the new screen's title so a screen reader says where we are.
    if (firstScreen) {
      firstScreen = false
      return
    }
    h1.current?.focus()
  }, [])
  return (
    <section className="screen" aria-labelledby="screen-title">
      <header className="screen__head">
        <div>
          <h1 id="screen-title" ref={h1} tabIndex={-1}>
            {title}
          </h1>
          {intro ? <p className="screen__intro">{intro}</p> : null}
        </div>
        {actions ? <div className="screen__actions">{actions}</div> : null}
      </header>
      {children}
    </section>
  )
}
