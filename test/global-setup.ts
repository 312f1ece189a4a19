/**
 * Once per test run, before any test file: out/ (main, preload, renderer) is built when it is
 * missing or older than a source, and so are the bundled Node entry points (out/node) that the
 * tests start as processes (headless, web host). So no two test files ever build at the same time,
 * and none tests a stale build.
 */
import { buildRenderer, rendererBuilt } from '../src-main/web-host'

export default async function setup(): Promise<void> {
  if (!rendererBuilt() && !buildRenderer()) throw new Error('electron-vite build failed: see the output above')
  // @ts-expect-error -- a plain ES module script without types (scripts/build-node.mjs)
  const { buildNode } = (await import('../scripts/build-node.mjs')) as { buildNode(o: { quiet: boolean }): Promise<void> }
  await buildNode({ quiet: true })
}
