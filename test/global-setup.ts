/**
 * Once per test run: out/ (main, preload, renderer) is built when it is missing or older than a
 * source, so the test files that boot the built bundle, the web host or the browser never each start
 * a build of their own at the same time, and never test a stale one.
 */
import { buildRenderer, rendererBuilt } from '../src-main/web-host'

export default function setup(): void {
  if (rendererBuilt()) return
  if (!buildRenderer()) throw new Error('electron-vite build failed: see the output above')
}
