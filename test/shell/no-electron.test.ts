// core/** and the emulator run in plain Node (tests, headless, web host): they must never import
// Electron. eslint's no-restricted-imports says so too; this test proves it on the files themselves.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')

function sources(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules') continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sources(path))
    else if (/\.(c|m)?[jt]sx?$/.test(entry.name)) out.push(path)
  }
  return out
}

// import … from 'electron', import 'electron', export … from 'electron', import('electron'),
// require('electron'), and subpaths such as 'electron/main'.
const ELECTRON_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)(['"`])electron(?:\/[^'"`]*)?\1/

describe('plain-Node code never imports electron', () => {
  for (const dir of ['src-main/core', 'sandbox', 'schemas', 'workers']) {
    it(`${dir}/**`, () => {
      const files = sources(join(root, dir))
      expect(files.length).toBeGreaterThan(0)
      const offenders = files.filter((f) => ELECTRON_IMPORT.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f))
      expect(offenders).toEqual([])
    })
  }

  it('the pattern catches every form of import', () => {
    for (const line of [
      "import { app } from 'electron'",
      'import electron from "electron"',
      "import 'electron'",
      "export { shell } from 'electron'",
      "const e = await import('electron')",
      "const { app } = require('electron')",
      "import { app } from 'electron/main'",
      'import type { App } from "electron"',
    ]) {
      expect(ELECTRON_IMPORT.test(line), line).toBe(true)
    }
    for (const line of ["import x from 'electron-vite'", "// the electron shell", "import y from './electron'"]) {
      expect(ELECTRON_IMPORT.test(line), line).toBe(false)
    }
  })
})
