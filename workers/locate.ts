/**
 * Where a worker entry's built script is. Entries are listed once, in entries.json (name → source);
 * `npm run build` bundles each into out/node/workers/<name>.js (scripts/build-node.mjs) and
 * out/main/workers/<name>.js (electron.vite.config.ts). The code asking may itself run from its
 * source (tests: test/global-setup.ts builds out/node first), from out/node (headless, web host,
 * emulator CLI) or from out/main (the desktop app), so the script is looked for next to it.
 */
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import entries from './entries.json'

export type WorkerEntry = keyof typeof entries

const found = new Map<string, string>()

export function workerScript(name: string): string {
  const hit = found.get(name)
  if (hit) return hit
  if (!Object.hasOwn(entries, name)) throw new Error(`unknown worker entry "${name}" (workers/entries.json)`)
  const here = import.meta.url
  const candidates = [
    // out/node/<entry>.js or out/main/index.js
    new URL(`./workers/${name}.js`, here),
    // out/node/chunks/<chunk>.js
    new URL(`../workers/${name}.js`, here),
    // the source, workers/locate.ts: the build of the plain-Node entry points
    new URL(`../out/node/workers/${name}.js`, here),
  ].map((u) => fileURLToPath(u))
  const path = candidates.find((p) => existsSync(p))
  if (!path) throw new Error(`The document reader "${name}" is not built (looked for ${candidates[0]}): run npm run build.`)
  found.set(name, path)
  return path
}
