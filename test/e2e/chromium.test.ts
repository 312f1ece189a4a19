/**
 * The test browser itself (test/e2e/helpers.ts, launchChromium): a new context, which every test and
 * every cold load of the bench opens, must not start Chromium's own address-bar popup, a WebUI page
 * in a renderer of its own that took ~0.7 s of CPU while the timed page loaded (docs/bench.md).
 */
import { expect, it } from 'vitest'
import { CHROMIUM_ARGS } from './helpers'
import { E2E_TIMEOUT, describeE2E } from './suite'

describeE2E('the test browser', (t) => {
  it(
    "opens a context with no page of Chromium's own UI beside the test's, and keeps Playwright's disabled features",
    async () => {
      await t.page.goto('data:text/html,<p>Bookdrop</p>')
      // Chromium loads that popup shortly after the window opens: give it the time it took.
      await t.page.waitForTimeout(1_500)
      const cdp = await t.browser.newBrowserCDPSession()
      try {
        const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] }
        expect(targetInfos.filter((x) => x.url.startsWith('chrome://')).map((x) => x.url)).toEqual([])
        expect(targetInfos.some((x) => x.type === 'page' && x.url.startsWith('data:text/html'))).toBe(true)
      } finally {
        await cdp.detach()
      }
      // One --disable-features switch (Chromium keeps only the last), carrying Playwright's list.
      const switches = CHROMIUM_ARGS.filter((a) => a.startsWith('--disable-features='))
      expect(switches).toHaveLength(1)
      expect(switches[0]!.split('=')[1]!.split(',')).toEqual(
        expect.arrayContaining(['PaintHolding', 'AvoidUnnecessaryBeforeUnloadCheckSync', 'WebUIOmniboxPopup']),
      )
    },
    E2E_TIMEOUT,
  )
})
