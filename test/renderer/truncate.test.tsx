// @vitest-environment jsdom
/**
 * Cut text can be reached with the keyboard (issue 26): a Truncate whose text no longer fits becomes
 * a tab stop. Its box may keep its size while its text changes (a row updated in place, a list
 * reloaded with fuller rows), so no resize is ever observed: the change of text must be enough.
 * (jsdom lays nothing out: the text's width is given per element below.)
 */
import { render } from '@testing-library/react'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const { Truncate } = await import('../../src-renderer/components/RowMenu')

const BOX = 120
let restore: () => void
beforeAll(() => {
  const proto = HTMLElement.prototype
  const before = {
    scroll: Object.getOwnPropertyDescriptor(proto, 'scrollWidth'),
    client: Object.getOwnPropertyDescriptor(proto, 'clientWidth'),
  }
  // 8 px per character in a box of BOX px.
  Object.defineProperty(proto, 'scrollWidth', {
    configurable: true,
    get: function (this: HTMLElement) {
      return (this.textContent ?? '').length * 8
    },
  })
  Object.defineProperty(proto, 'clientWidth', { configurable: true, get: () => BOX })
  restore = () => {
    for (const [k, d] of [
      ['scrollWidth', before.scroll],
      ['clientWidth', before.client],
    ] as const) {
      if (d) Object.defineProperty(proto, k, d)
      else delete (proto as unknown as Record<string, unknown>)[k]
    }
  }
})
afterAll(() => restore())

describe('Truncate', () => {
  it('becomes a tab stop when its text grows past its box, and stops being one when it fits again', () => {
    const { container, rerender } = render(<Truncate text="—" />)
    const span = () => container.querySelector<HTMLElement>('.truncate')!
    expect(span().hasAttribute('tabindex')).toBe(false)
    rerender(
      <Truncate text="Northern Flour Mills and Agro-Allied Industries Plc (Kano distribution centre)" />,
    )
    expect(span().tabIndex).toBe(0)
    expect(span().title).toMatch(/Kano distribution centre/)
    rerender(<Truncate text="Short" />)
    expect(span().hasAttribute('tabindex')).toBe(false)
  })
})
