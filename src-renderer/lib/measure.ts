/**
 * Column widths sized to what they hold (issue 26): money and dates are never cut, so a table gives
 * each such column the width of its widest value (measured in the page's own font), and the other
 * columns share what is left. Measured with a canvas; where there is none (the renderer's unit
 * tests run in jsdom), estimated from the number of characters.
 */

let ctx: CanvasRenderingContext2D | null | undefined
let family: string | null = null

function context(): CanvasRenderingContext2D | null {
  if (ctx !== undefined) return ctx
  ctx = null
  if (typeof document === 'undefined' || /jsdom/i.test(navigator.userAgent)) return ctx
  try {
    ctx = document.createElement('canvas').getContext('2d')
  } catch {
    ctx = null
  }
  return ctx
}

function fontFamily(): string {
  if (family === null) {
    family =
      (typeof document !== 'undefined' && document.body ? getComputedStyle(document.body).fontFamily : '') ||
      'system-ui, sans-serif'
  }
  return family
}

/** The width in CSS px of `text` at `sizePx` and `weight` in the page's font. */
export function textWidth(text: string, sizePx = 13, weight: 400 | 600 | 700 = 400): number {
  const c = context()
  if (!c) return text.length * sizePx * 0.62
  c.font = `${weight} ${sizePx}px ${fontFamily()}`
  return c.measureText(text).width
}

/** Horizontal padding of a table cell (10 px each side, tables.css) and a margin for rounding. */
const CELL_PADDING = 20
const SLACK = 6

/**
 * The width (CSS length) of a column holding `values` under the header `label`: its widest value
 * at 13 px, or the header at 12 px semibold, plus the cell's padding.
 */
export function columnWidth(label: string, values: Iterable<string>, min = 0): string {
  let w = Math.max(min, textWidth(label, 12, 600))
  for (const v of values) w = Math.max(w, textWidth(v))
  return `${Math.ceil(w + CELL_PADDING + SLACK)}px`
}
