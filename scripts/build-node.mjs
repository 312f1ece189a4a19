#!/usr/bin/env node
// Bundles the plain-Node entry points (the headless mode, the web host and the emulator's CLI) into
// out/node/, next to electron-vite's out/main: they then start without a TypeScript loader. Part of
// `npm run build`; bin/bookdrop.mjs also runs it when a source changed since the last build.
// Dependencies stay in node_modules, except the pure-JavaScript ones the engine loads on every start
// (BUNDLED): a package loaded as dozens of ES modules from node_modules costs the process several MB
// more than the same code bundled (measured for zod: 13.5 MB against 9.4 MB of RSS; for
// intl-messageformat, whose bare `import "@formatjs/ecma402-abstract"` loaded 80 modules and
// decimal.js at every start, 3 MB and 50 ms of CPU: bundled, that import goes, as the package's
// `sideEffects: false` allows). Native ones (libsql, keytar) must stay external, and so do the
// emulator's and the web host's (loaded on demand).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { build } from 'esbuild'

export const ROOT = join(import.meta.dirname, '..')
export const OUT = join(ROOT, 'out', 'node')
/** Written last: its mtime is when the bundles were built from the sources. */
export const STAMP = join(OUT, '.built')

/** Bundled into out/node instead of loaded from node_modules (see above). */
export const BUNDLED = ['zod', 'chokidar', 'readdirp', 'intl-messageformat']

/**
 * zod's error messages in English only. `z` is imported as a namespace, which keeps every export of
 * zod's classic API, its ~50 locales among them (400 KB of the engine's startup code); Bookdrop
 * never shows zod's own wording (form errors are the catalogue's: contract/main-states.ts), and zod
 * configures English itself. Its locale index is replaced by one that exports `en` alone.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (a) =>
      /[\\/]zod[\\/]/.test(a.importer) ? { path: 'zod-locales', namespace: 'zod-english-only' } : undefined,
    )
    b.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, () => ({
      contents: `export { default as en } from 'zod/v4/locales/en.js'`,
      resolveDir: ROOT,
    }))
  },
}

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

/** esbuild's options for out/node (the idle-imports test builds with them in memory). */
export function nodeBuildOptions() {
  return {
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
    // Whitespace and syntax only: names stay as written, so stack traces still name the functions
    // (and the linked source maps give the lines). Less source text for V8 to hold and parse.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'warning',
    plugins: [zodEnglishOnly],
  }
}

export async function buildNode({ quiet = false } = {}) {
  const started = performance.now()
  await build(nodeBuildOptions())
  writeFileSync(STAMP, `${new Date().toISOString()}\n`)
  if (!quiet) console.error(`built out/node (headless, web-host, sandbox, workers) in ${Math.round(performance.now() - started)} ms`)
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  await buildNode()
}
