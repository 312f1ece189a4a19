#!/usr/bin/env node
// Bundles the plain-Node entry points (the headless mode, the web host and the emulator's CLI) into
// out/node/, next to electron-vite's out/main: they then start without a TypeScript loader. Part of
// `npm run build`; bin/bookdrop.mjs also runs it when a source changed since the last build.
// Dependencies stay in node_modules, except the pure-JavaScript ones the engine loads on every start
// (BUNDLED): a package loaded as dozens of ES modules from node_modules costs the process several MB
// more than the same code bundled (measured for zod: 13.5 MB against 9.4 MB of RSS). Native ones
// (libsql, keytar) must stay external, and so do the emulator's and the web host's (loaded on demand).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'

export const ROOT = join(import.meta.dirname, '..')
export const OUT = join(ROOT, 'out', 'node')
/** Written last: its mtime is when the bundles were built from the sources. */
export const STAMP = join(OUT, '.built')

/** Bundled into out/node instead of loaded from node_modules (see above). */
export const BUNDLED = ['zod', 'chokidar', 'readdirp']

/** Every other package the project depends on, and its subpaths. */
function externals() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'))
  const names = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies })
  return names.filter((n) => !BUNDLED.includes(n)).flatMap((n) => [n, `${n}/*`])
}

/** The worker entries (workers/entries.json: name → source), built as workers/<name>.js. */
export function workerEntries() {
  const entries = JSON.parse(readFileSync(join(ROOT, 'workers', 'entries.json'), 'utf8'))
  return Object.fromEntries(Object.entries(entries).map(([name, source]) => [`workers/${name}`, source]))
}

export async function buildNode({ quiet = false } = {}) {
  const started = performance.now()
  await build({
    absWorkingDir: ROOT,
    entryPoints: {
      headless: 'src-main/headless.ts',
      'web-host': 'src-main/web-host.ts',
      sandbox: 'sandbox/cli.ts',
      ...workerEntries(),
    },
    outdir: OUT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    external: externals(),
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    legalComments: 'none',
    logLevel: 'warning',
  })
  writeFileSync(STAMP, `${new Date().toISOString()}\n`)
  if (!quiet) console.error(`built out/node (headless, web-host, sandbox, workers) in ${Math.round(performance.now() - started)} ms`)
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  await buildNode()
}
