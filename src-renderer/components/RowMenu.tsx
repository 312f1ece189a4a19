/**
 * A row's secondary actions behind one button, so a row never needs more width than its primary
 * action and this: a menu button (aria-haspopup="menu") whose menu opens in a layer above the page
 * (a portal, so no table cell or scrolling list clips it), placed under the button and kept inside
 * the window. Keyboard: Enter, Space or ArrowDown open it on the first item; ArrowUp/ArrowDown,
 * Home/End move; Escape closes it and returns to the button; Tab closes it.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'

export interface RowMenuItem {
  label: string
  onSelect: () => void
  danger?: boolean
  disabled?: boolean
}

const MENU_WIDTH = 200

export function RowMenu({ label, items }: { label: string; items: RowMenuItem[] }) {
  const [open, setOpen] = useState(false)
  const [at, setAt] = useState<{ top: number; left: number } | null>(null)
  const button = useRef<HTMLButtonElement>(null)
  const menu = useRef<HTMLDivElement>(null)

  useLayoutEffect(() => {
    if (!open || !button.current) return
    const r = button.current.getBoundingClientRect()
    const left = Math.max(8, Math.min(r.right - MENU_WIDTH, window.innerWidth - MENU_WIDTH - 8))
    const height = menu.current?.offsetHeight ?? 0
    const below = r.bottom + 4
    const top = below + height > window.innerHeight - 8 ? Math.max(8, r.top - height - 4) : below
    setAt({ top, left })
  }, [open])

  useEffect(() => {
    if (!open) return
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]:not([disabled])')?.focus()
    const outside = (e: Event) => {
      const t = e.target as Node
      if (!menu.current?.contains(t) && !button.current?.contains(t)) setOpen(false)
    }
    const close = () => setOpen(false)
    document.addEventListener('mousedown', outside)
    window.addEventListener('resize', close)
    window.addEventListener('scroll', close, true)
    return () => {
      document.removeEventListener('mousedown', outside)
      window.removeEventListener('resize', close)
      window.removeEventListener('scroll', close, true)
    }
  }, [open])

  const move = (delta: number | 'first' | 'last') => {
    const all = [...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not([disabled])') ?? [])]
    if (!all.length) return
    const i = all.indexOf(document.activeElement as HTMLElement)
    const next =
      delta === 'first' ? 0 : delta === 'last' ? all.length - 1 : (i + delta + all.length) % all.length
    all[next]?.focus()
  }

  const onMenuKey = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown') move(1)
    else if (e.key === 'ArrowUp') move(-1)
    else if (e.key === 'Home') move('first')
    else if (e.key === 'End') move('last')
    else if (e.key === 'Escape') {
      setOpen(false)
      button.current?.focus()
    } else if (e.key === 'Tab') {
      setOpen(false)
      return
    } else return
    e.preventDefault()
    e.stopPropagation()
  }

  return (
    <>
      <button
        ref={button}
        type="button"
        className="btn btn--small btn--ghost rowmenu__button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={label}
        title={label}
        onClick={() => setOpen((o) => !o)}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' && !open) {
            e.preventDefault()
            setOpen(true)
          }
        }}
      >
        <span aria-hidden="true">⋯</span>
      </button>
      {open
        ? createPortal(
            <div
              ref={menu}
              role="menu"
              aria-label={label}
              className="rowmenu__menu"
              style={{ top: at?.top ?? -9999, left: at?.left ?? -9999, width: MENU_WIDTH }}
              onKeyDown={onMenuKey}
            >
              {items.map((item) => (
                <button
                  key={item.label}
                  type="button"
                  role="menuitem"
                  tabIndex={-1}
                  disabled={item.disabled}
                  className={`rowmenu__item${item.danger ? ' rowmenu__item--danger' : ''}`}
                  onClick={() => {
                    setOpen(false)
                    button.current?.focus()
                    item.onSelect()
                  }}
                >
                  {item.label}
                </button>
              ))}
            </div>,
            document.body,
          )
        : null}
    </>
  )
}

/**
 * Text that may be too long for its cell: cut with an ellipsis, the whole of it on hover (title),
 * for screen readers (the text itself is whole) and on focus: it is focusable when `focusable`, or
 * whenever it is actually cut (useCutFocus), and then shows in full. Its direction follows its own
 * text (dir="auto"), so an Arabic or Hebrew name is cut at its end, never at its beginning.
 */
export function Truncate({ text, focusable = false }: { text: string; focusable?: boolean }) {
  const el = useRef<HTMLSpanElement | null>(null)
  const observe = useCutFocus<HTMLSpanElement>(!focusable)
  const ref = useCallback(
    (node: HTMLSpanElement | null) => {
      el.current = node
      return observe(node)
    },
    [observe],
  )
  // The box may keep its size while the text changes (a row updated in place, a list reloaded with
  // fuller rows): no resize to observe, so look again whenever the text does.
  useLayoutEffect(() => {
    if (!focusable && el.current) markCut(el.current)
  }, [text, focusable])
  return (
    <span ref={ref} className="truncate" title={text} dir="auto" tabIndex={focusable ? 0 : undefined}>
      {text}
    </span>
  )
}

let cutObserver: ResizeObserver | null = null

/** Makes an element a tab stop while its text is cut (scrollWidth beyond its box), and only then. */
function markCut(el: Element): void {
  const h = el as HTMLElement
  // Focused, it shows whole (and so is not cut): it stays a tab stop until it loses focus.
  if (document.activeElement === h) return
  const cut = h.scrollWidth > h.clientWidth + 1
  if (cut && !h.hasAttribute('tabindex')) h.tabIndex = 0
  else if (!cut && h.getAttribute('tabindex') === '0') h.removeAttribute('tabindex')
}

/**
 * One ResizeObserver for every cut-able text: when an element's box changes, it becomes focusable
 * if its text no longer fits (so a keyboard can reach it and read it whole), and stops being a tab
 * stop when it fits again. `enabled` false: the caller manages focus itself.
 */
export function useCutFocus<T extends HTMLElement>(enabled = true): React.RefCallback<T> {
  return useCallback(
    (el: T | null) => {
      if (!enabled || !el || typeof ResizeObserver === 'undefined') return
      cutObserver ??= new ResizeObserver((entries) => {
        for (const e of entries) markCut(e.target)
      })
      cutObserver.observe(el)
      return () => cutObserver?.unobserve(el)
    },
    [enabled],
  )
}
