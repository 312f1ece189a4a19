#!/usr/bin/env node
// Bundles the plain-Node entry points (the headless mode, the web host and the emulator's CLI) into
// out/node/, next to electron-vite's out/main: they then start without a TypeScript loader. Part of
// `npm run build`; bin/bookdrop.mjs also runs it when a source changed since the last build.
// Dependencies stay in node_modules (packages: 'external'): native ones (libsql, keytar) must, and an
// installed package has them there anyway.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'

export const ROOT = join(import.meta.dirname, '..')
export const OUT = join(ROOT, 'out', 'node')
/** Written last: its mtime is when the bundles were built from the sources. */
export const STAMP = join(OUT, '.built')

export async function buildNode({ quiet = false } = {}) {
  const started = performance.now()
  await build({
    absWorkingDir: ROOT,
    entryPoints: {
      headless: 'src-main/headless.ts',
      'web-host': 'src-main/web-host.ts',
      sandbox: 'sandbox/cli.ts',
    },
    outdir: OUT,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    packages: 'external',
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    legalComments: 'none',
    logLevel: 'warning',
  })
  writeFileSync(STAMP, `${new Date().toISOString()}\n`)
  if (!quiet) console.error(`built out/node (headless, web-host, sandbox) in ${Math.round(performance.now() - started)} ms`)
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  await buildNode()
}
