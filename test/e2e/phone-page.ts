/**
 * The phone's side of the phone e2e tests: an iPhone in portrait for the second browser context, and
 * the desktop's "Add from phone" panel opened to its link.
 */
import type { Page } from 'playwright-core'
import { type E2E, onScreen } from './suite'

/** An iPhone 13/14 in portrait: 390 × 844 CSS pixels, touch. */
export const IPHONE = {
  viewport: { width: 390, height: 844 },
  device: {
    isMobile: true,
    hasTouch: true,
    deviceScaleFactor: 3,
    userAgent:
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  },
}

/** Opens the phone panel on the Capture screen; the link it shows. */
export async function openPanel(desktop: Page): Promise<string> {
  const panel = desktop.getByRole('region', { name: 'Add from phone' })
  await panel.getByRole('button', { name: 'Add from phone' }).click()
  await panel.getByRole('img', { name: 'QR code of the link for the phone' }).waitFor()
  return (await panel.locator('.phone__url').textContent())!
}

/**
 * Opens the app with the phone listener on loopback (and `opts`), on the Capture screen, and its
 * phone panel: the app, the desktop's page and the link the panel shows.
 */
export async function openWithPanel(t: E2E, opts: Parameters<E2E['open']>[0]) {
  const { app, page: desktop } = await t.open({ ...opts, phoneListen: '127.0.0.1' })
  await onScreen(desktop, 'Capture')
  return { app, desktop, link: await openPanel(desktop) }
}
