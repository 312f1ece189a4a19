/**
 * What every renderer test file sets up the same way: the renderer's bridge is the fake
 * (fake-bridge.ts), each test starts on a fresh fake and fresh stores, and nothing stays rendered
 * after it. Import this module before any renderer module (the renderer's modules are then
 * imported with `await import`, after the mock is in place).
 */
import { cleanup, render } from '@testing-library/react'
import { createElement } from 'react'
import { afterEach, beforeEach, vi } from 'vitest'
import { fake } from './fake-bridge'

vi.mock('../../src-renderer/lib/bridge', async () => ({ bookdrop: (await import('./fake-bridge')).fake.api }))

export const { useApp, resetStores } = await import('../../src-renderer/store')
export const { startApp } = await import('../../src-renderer/store/start')

/**
 * Before each test: a fresh fake bridge and fresh stores, then `then` (more state for the fake,
 * starting the app). After each: whatever was rendered is removed.
 */
export function freshEachTest(then?: () => void | Promise<void>): void {
  beforeEach(async () => {
    fake.reset()
    resetStores()
    await then?.()
  })
  afterEach(() => cleanup())
}

/** Starts the store as the app does, then renders the whole app. */
export async function bootApp(): Promise<void> {
  const { App } = await import('../../src-renderer/App')
  await startApp()
  render(createElement(App))
}
