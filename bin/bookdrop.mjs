#!/usr/bin/env -S node --max-semi-space-size=4 --invocation-count-for-turbofan=30000
// bookdrop <headless|web|sandbox> [options]: Bookdrop without a window, from bundled JavaScript
// (out/node), so no TypeScript is compiled at run time. In a checkout, the bundles are rebuilt first
// when a source is newer than the last build (a stat of each source file: a few milliseconds); an
// installed package ships them built. `npm run headless`, `npm run web` and `npm run sandbox` run this.
//
// --max-semi-space-size=4 (here and in package.json's "headless" and "web" scripts, which start this
// file with node; V8 reads it only at start): the engine's young generation is capped at 2 × 4 MB.
// Left to itself, V8 doubled it under a steady stream of receipts, from 2 × 14 to 2 × 28 MB, and
// kept it (issue 30's soak: peak 177 MB uncapped, 156 MB capped). About 4% more CPU on a burst of
// 300 receipts; 2 MB cost 10%. (--heap-growing-percent=30 was tried too: more CPU, no less growth.)
//
// --invocation-count-for-turbofan=30000 (V8's default is 3,000; in the same places): V8's top
// compiler (TurboFan) only for code that stays hot. With the default, a burst of 300 receipts had
// TurboFan compile 124 functions (path, URL, http and stream internals, mostly), 0.19 s of CPU on
// V8's threads, about 8% of the run, for code the burst then ran a few thousand times; with 30,000,
// 5 functions (4 ms), and the run costs about 6% less CPU (interleaved pairs; docs/bench.md). A watcher
// that runs for hours still reaches the count, and Maglev, V8's middle compiler, is untouched.
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const ROOT = join(import.meta.dirname, '..')
const OUT = join(ROOT, 'out', 'node')
const COMMANDS = { headless: 'headless.js', web: 'web-host.js', sandbox: 'sandbox.js' }
const SOURCES = ['src-main', 'src-preload', 'contract', 'schemas', 'sandbox', 'workers']
const USAGE = `usage: bookdrop <${Object.keys(COMMANDS).join('|')}> [options]   (bookdrop <command> --help)`

function mtime(path) {
  try {
    return statSync(path).mtimeMs
  } catch {
    return -1
  }
}

/**
 * The newest mtime of the bundles' sources, or -1 when there are none (an installed package). Kept
 * cold on purpose (no recursive readdir, no path.join per file): a loop hot enough for V8's
 * optimizing compiler costs the whole run several MB of RSS that stay resident (issue 14).
 */
function newestSource() {
  let newest = -1
  const walk = (dir) => {
    let entries
    try {
      entries = readdirSync(dir, { withFileTypes: true })
    } catch {
      return
    }
    for (const e of entries) {
      // Plain concatenation, not path.join: a few hundred joins wake the optimizing compiler too.
      if (e.isDirectory()) walk(`${dir}/${e.name}`)
      else if (e.isFile() && /\.(tsx?|json)$/.test(e.name)) newest = Math.max(newest, mtime(`${dir}/${e.name}`))
    }
  }
  for (const dir of SOURCES) walk(join(ROOT, dir))
  return Math.max(newest, newest >= 0 ? mtime(join(ROOT, 'package.json')) : -1)
}

const [command, ...rest] = process.argv.slice(2)
const file = COMMANDS[command]
if (!file) {
  console.error(command === undefined || command === '--help' || command === '-h' ? USAGE : `unknown command "${command}"\n${USAGE}`)
  process.exit(command === '--help' || command === '-h' ? 0 : 2)
}

const built = mtime(join(OUT, '.built'))
const newest = newestSource()
if (built < 0 || newest > built) {
  if (newest < 0) {
    console.error(`bookdrop: ${OUT} is missing and there are no sources to build it from: reinstall the package.`)
    process.exit(1)
  }
  const { buildNode } = await import('../scripts/build-node.mjs')
  await buildNode({ quiet: built >= 0 })
}

// No module.enableCompileCache(): the cached code comes with the bytecode of every function the run
// that wrote it had compiled, which the idle engine then holds without running (0.8 MB of its RSS),
// to save about 10 ms of CPU per start.
const entry = await import(pathToFileURL(join(OUT, file)).href)
const code = await (entry.run ?? entry.main)(rest)
if (typeof code === 'number') process.exit(code)
