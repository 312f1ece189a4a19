/**
 * `npm run headless` / `web` / `sandbox` (bin/bookdrop.mjs) and the web host rebuild their bundles
 * when a source is newer than the build. Each keeps a list of the folders it looks at; a folder the
 * bundles are built from but missing from a list means an edit there runs the stale build. (The
 * contract's move to a top-level folder once did exactly that.) The bundles' source maps say which
 * folders they are built from.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')

/** Top-level folders of the project that the bundles in out/node were built from. */
function bundledFolders(): string[] {
  const folders = new Set<string>()
  for (const dir of [join(ROOT, 'out', 'node'), join(ROOT, 'out', 'node', 'chunks')]) {
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.js.map')) continue
      const map = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { sources: string[] }
      for (const source of map.sources) {
        if (source.includes('node_modules')) continue
        const top = source.replace(/^(\.\.\/)+/, '').split('/')
        if (top.length > 1) folders.add(top[0] as string)
      }
    }
  }
  return [...folders].sort()
}

/** The string list assigned to `name` in a source file. */
function listIn(file: string, name: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8')
  const m = new RegExp(`const ${name} = \\[([^\\]]*)\\]`).exec(text)
  if (!m) throw new Error(`${name} not found in ${file}`)
  return [...(m[1] as string).matchAll(/'([^']+)'/g)].map((x) => x[1] as string)
}

describe('rebuild-when-stale lists', () => {
  const folders = bundledFolders()

  it('finds the folders the bundles are built from', () => {
    expect(folders).toEqual(expect.arrayContaining(['contract', 'sandbox', 'schemas', 'src-main']))
  })

  it('bin/bookdrop.mjs looks at every one of them', () => {
    expect(listIn('bin/bookdrop.mjs', 'SOURCES')).toEqual(expect.arrayContaining(folders))
  })

  it("the web host's renderer build looks at every one of them and at the renderer", () => {
    expect(listIn('src-main/web-host/renderer-build.ts', 'BUILD_SOURCES')).toEqual(
      expect.arrayContaining([...folders, 'src-renderer', 'src-preload']),
    )
  })
})
