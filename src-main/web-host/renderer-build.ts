/**
 * The built renderer the web host serves (out/renderer): whether it is there and not older than a
 * source, and building it with electron-vite when it is not.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { packageRoot } from '../core/paths'

const ROOT = packageRoot(import.meta.dirname)
export const DEFAULT_RENDERER_DIR = join(ROOT, 'out', 'renderer')

/** What electron-vite builds out/ from (a checkout has them; an installed package does not). */
const BUILD_SOURCES = ['src-main', 'src-preload', 'src-renderer', 'contract', 'schemas', 'sandbox', 'workers']

function mtimeOf(path: string): number {
  try {
    return statSync(path).mtimeMs
  } catch {
    return -1
  }
}

/** The newest mtime of a source file out/ is built from; -1 when there are none. */
function newestBuildSource(): number {
  let newest = -1
  for (const dir of BUILD_SOURCES) {
    let entries
    try {
      entries = readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    } catch {
      continue
    }
    for (const e of entries) {
      if (e.isFile() && /\.(tsx?|css|html|json)$/.test(e.name)) newest = Math.max(newest, mtimeOf(join(e.parentPath, e.name)))
    }
  }
  return newest
}

/**
 * True when the built renderer is there, and (in a checkout, for the default out/renderer) no
 * source is newer than it: a pulled change is never served from a stale build.
 */
export function rendererBuilt(dir = DEFAULT_RENDERER_DIR): boolean {
  const built = mtimeOf(join(dir, 'index.html'))
  if (built < 0) return false
  return dir !== DEFAULT_RENDERER_DIR || newestBuildSource() <= built
}

/**
 * Builds out/ with electron-vite when the renderer is missing (its output goes to stderr, so stdout
 * keeps only the ready line). Returns false when it could not.
 */
export function buildRenderer(): boolean {
  const bin = join(
    ROOT,
    'node_modules',
    '.bin',
    process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite',
  )
  if (!existsSync(bin)) return false
  const r = spawnSync(bin, ['build'], {
    cwd: ROOT,
    stdio: ['ignore', 2, 2],
    shell: process.platform === 'win32',
  })
  return r.status === 0 && rendererBuilt()
}
