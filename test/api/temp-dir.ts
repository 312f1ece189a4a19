import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'

/**
 * A temp folder made before the calling file's (or describe block's) tests and removed after them;
 * `tmp.join(...names)` is a path inside it.
 */
export function useTempDir(prefix: string): { readonly path: string; join(...names: string[]): string } {
  let path = ''
  beforeAll(() => {
    path = mkdtempSync(join(tmpdir(), prefix))
  })
  afterAll(() => {
    rmSync(path, { recursive: true, force: true })
  })
  return {
    get path() {
      return path
    },
    join: (...names) => join(path, ...names),
  }
}
