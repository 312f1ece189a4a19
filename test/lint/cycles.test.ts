/**
 * No import cycles in the product's code (issue 30): a cycle means two modules are one room in
 * two files, and a module that reaches back into the one that imports it (even by `import type` or
 * a dynamic `import()`) is what made the last round's house hard to live in. Every import counts:
 * static, type-only, re-exports and dynamic imports, resolved as TypeScript resolves them. The one
 * allowed cycle is the renderer's zustand slices and their shared store type (the slices pattern).
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const DIRS = ['src-main', 'src-renderer', 'src-preload', 'sandbox', 'schemas', 'contract', 'workers']

/** The slices pattern: each slice imports the store's type, the store imports every slice. */
const ALLOWED = (cycle: string[]) => cycle.every((f) => f.startsWith('src-renderer/store/'))

function sources(dir: string): string[] {
  const out: string[] = []
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`
    if (e.isDirectory()) out.push(...sources(rel))
    else if (/\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(rel)
  }
  return out
}

/** Each source file's imports within the repository (relative paths, `/`-separated). */
function importGraph(): Map<string, Set<string>> {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile)
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options
  const host = ts.createCompilerHost(options)
  const graph = new Map<string, Set<string>>()
  for (const file of DIRS.flatMap(sources)) {
    const info = ts.preProcessFile(readFileSync(join(ROOT, file), 'utf8'), true, true)
    const deps = new Set<string>()
    for (const im of info.importedFiles) {
      const r = ts.resolveModuleName(im.fileName, join(ROOT, file), options, host).resolvedModule
      if (!r || r.isExternalLibraryImport) continue
      const rel = relative(ROOT, r.resolvedFileName).split(sep).join('/')
      if (!rel.startsWith('..') && !rel.endsWith('.d.ts')) deps.add(rel)
    }
    graph.set(file, deps)
  }
  return graph
}

/** Strongly connected components of more than one module (or a module importing itself): Tarjan. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const found: string[][] = []
  const visit = (v: string): void => {
    index.set(v, next)
    low.set(v, next)
    next++
    stack.push(v)
    onStack.add(v)
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = []
      let w: string
      do {
        w = stack.pop()!
        onStack.delete(w)
        scc.push(w)
      } while (w !== v)
      if (scc.length > 1 || graph.get(v)?.has(v)) found.push(scc.sort())
    }
  }
  for (const v of graph.keys()) if (!index.has(v)) visit(v)
  return found
}

describe('import cycles', () => {
  it('finds a cycle when there is one (the check itself)', () => {
    const g = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['c.ts'])],
      ['c.ts', new Set(['a.ts'])],
      ['d.ts', new Set(['a.ts'])],
    ])
    expect(cycles(g)).toEqual([['a.ts', 'b.ts', 'c.ts']])
  })

  it('there are none in the product, but for the zustand slices and their store type', () => {
    const graph = importGraph()
    expect(graph.size).toBeGreaterThan(200)
    const found = cycles(graph).filter((c) => !ALLOWED(c))
    expect(found.map((c) => c.join(' ↔ '))).toEqual([])
  }, 60_000)

  it('sees type-only and dynamic imports', () => {
    const graph = importGraph()
    // `import type { Upload } from './uploads'` in store/csv.ts
    expect(graph.get('src-main/core/store/csv.ts')?.has('src-main/core/store/uploads.ts')).toBe(true)
    // `await import('../phone/service')` in the phone room, loaded on first use
    expect(graph.get('src-main/core/app/phone.ts')?.has('src-main/core/phone/service.ts')).toBe(true)
  }, 60_000)
})
