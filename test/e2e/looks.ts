/**
 * Screens at several window sizes and in both themes (layout.test.ts, overview.test.ts): one page
 * per size and theme, each screen gone to and waited for in turn, then checked by the caller.
 */
import type { Page } from 'playwright-core'
import { type E2E, goTo } from './suite'

export type Size = { width: number; height: number }
export type ScreenSpec = { nav: RegExp; title: string; ready?: (p: Page) => Promise<unknown> }
export const THEMES = ['light', 'dark'] as const

/**
 * For each size and theme, a page at `url`; on it each screen, then `check(page, screen, where)`
 * with `where` = "<width>x<height>-<theme>".
 */
export async function eachLook(
  t: E2E,
  url: string,
  screens: readonly ScreenSpec[],
  sizes: readonly Size[],
  check: (page: Page, screen: ScreenSpec, where: string) => Promise<void>,
): Promise<void> {
  for (const size of sizes) {
    for (const theme of THEMES) {
      const page = await t.openPage({ viewport: size, colorScheme: theme })
      await page.goto(url)
      const where = `${size.width}x${size.height}-${theme}`
      for (const s of screens) {
        await goTo(page, s.nav, s.title)
        await s.ready?.(page)
        await check(page, s, where)
      }
    }
  }
}
