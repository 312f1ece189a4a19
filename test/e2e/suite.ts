/**
 * The vitest side of the end-to-end tests: one Chromium per file, a fresh browser context per test,
 * apps stopped after each test, a screenshot when a test fails, and no uncaught page error or CSP
 * violation allowed. Files skip themselves (with the reason in their title) only when Chromium is
 * missing outside CI.
 */
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect } from 'vitest'
import {
  type AppOptions,
  E2E_SKIP_REASON,
  RESULTS_DIR,
  type OpenedPage,
  type RunningApp,
  checkA11y,
  ensureRenderer,
  launchChromium,
  openPage,
  screenshot,
  slug,
  startApp,
} from './helpers'

/** Generous per-test limit: Chromium and the web host share two cores with everything else. */
export const E2E_TIMEOUT = 90_000

/** expect.poll with room for a busy machine (vitest's default gives up after 1 s). */
export function until<T>(fn: () => T | Promise<T>, timeout = 20_000) {
  return expect.poll(fn, { timeout, interval: 50 })
}

/** The row of a file in the capture screen's "This session" list. */
export function sessionRow(page: Page, name: string): Locator {
  return page.locator('.upload-list .upload-row').filter({ hasText: name })
}

/** Its status badge's words, or null while the row is not there. */
export async function rowStatus(page: Page, name: string): Promise<string | null> {
  const row = sessionRow(page, name)
  return (await row.count()) ? row.locator('.badge').first().textContent() : null
}

/** The app's screen navigation. */
export const nav = (page: Page) => page.getByRole('navigation', { name: 'Screens' })

/** Waits until the screen titled `title` shows (its h1). */
export async function onScreen(page: Page, title: string): Promise<void> {
  await until(() => page.getByRole('heading', { level: 1 }).textContent()).toBe(title)
}

/**
 * Clicks the navigation button matching `screen`, then waits for the screen titled `title`. On a
 * narrow window the navigation is folded behind its Menu button: that is opened first.
 */
export async function goTo(page: Page, screen: RegExp, title: string): Promise<void> {
  const menu = nav(page).getByRole('button', { name: 'Menu', exact: true })
  const item = nav(page).getByRole('button', { name: screen })
  await item.or(menu).first().waitFor() // the app has started: one of them shows
  if ((await menu.isVisible()) && (await menu.getAttribute('aria-expanded')) !== 'true') await menu.click()
  await item.click()
  await onScreen(page, title)
}

export interface E2E {
  /** The page of the current test (a fresh browser context). */
  readonly page: Page
  readonly browser: Browser
  /** Starts the web host (and our emulator if fixtures are given); stopped after the test. */
  app(opts?: AppOptions): Promise<RunningApp>
  /** Starts the web host as `app` does and opens it in the test's page. */
  open(opts?: AppOptions): Promise<{ app: RunningApp; page: Page }>
  /** Opens the app as `open` does, then waits for the screen titled `title` (it starts on Capture). */
  openAt(title: string, opts?: AppOptions): Promise<{ app: RunningApp; page: Page }>
  /** Opens another fresh context (e.g. dark colour scheme); closed after the test. */
  openPage(opts?: Parameters<typeof openPage>[1]): Promise<Page>
  /** axe on the current screen: no serious or critical violation. */
  a11y(where: string, page?: Page): Promise<void>
  /** test-results/<test name>[--<suffix>].png */
  shot(suffix?: string, page?: Page): Promise<string>
}

export function describeE2E(title: string, body: (t: E2E) => void): void {
  if (E2E_SKIP_REASON) {
    console.warn(`e2e: skipping "${title}": ${E2E_SKIP_REASON}`)
    describe.skip(`${title} (skipped: ${E2E_SKIP_REASON})`, () => body({} as E2E))
    return
  }
  describe(title, () => {
    let browser: Browser | null = null
    let testName = ''
    let opened: OpenedPage[] = []
    let apps: RunningApp[] = []

    const t: E2E = {
      get page() {
        const p = opened[0]?.page
        if (!p) throw new Error('no page: the browser context was not opened')
        return p
      },
      get browser() {
        if (!browser) throw new Error('Chromium is not running')
        return browser
      },
      async app(opts) {
        const a = await startApp(opts)
        apps.push(a)
        return a
      },
      async open(opts) {
        const app = await t.app(opts)
        await t.page.goto(app.host.url)
        return { app, page: t.page }
      },
      async openAt(title, opts) {
        const opened = await t.open(opts)
        await onScreen(opened.page, title)
        return opened
      },
      async openPage(opts) {
        const o = await openPage(t.browser, opts)
        opened.push(o)
        return o.page
      },
      async a11y(where, page) {
        await checkA11y(page ?? t.page, where)
      },
      shot(suffix, page) {
        return screenshot(page ?? t.page, suffix ? `${testName}--${suffix}` : testName)
      },
    }

    beforeAll(async () => {
      await ensureRenderer()
      browser = await launchChromium()
    }, 180_000)

    afterAll(async () => {
      await browser?.close()
    })

    beforeEach(async (ctx) => {
      testName = ctx.task.name
      // A failure screenshot of an earlier run must not pass for this run's.
      for (const f of await readdir(RESULTS_DIR).catch(() => [] as string[])) {
        if (f.startsWith(`${slug(`${testName}--failure`)}`)) await rm(join(RESULTS_DIR, f), { force: true })
      }
      opened = [await openPage(t.browser)]
    })

    afterEach(async (ctx) => {
      const failed = ctx.task.result?.state === 'fail'
      const problems = opened.flatMap((o) => o.problems)
      try {
        if (failed) {
          for (const [i, o] of opened.entries()) {
            await screenshot(o.page, `${testName}--failure${i ? `-${i}` : ''}`).catch(() => undefined)
            if (o.consoleErrors.length)
              console.error(`console errors (page ${i}):\n  ${o.consoleErrors.join('\n  ')}`)
          }
        }
      } finally {
        for (const o of opened) await o.context.close().catch(() => undefined)
        opened = []
        for (const a of apps) await a.stop()
        apps = []
      }
      // Asserted after cleaning up, so a page error never leaks a running host into the next test.
      expect(problems, 'uncaught page errors or CSP violations').toEqual([])
    }, 60_000)

    body(t)
  })
}
