/**
 * Which paths below a watched folder count: inside the root, not under an ignored name (any
 * segment), not in an excluded folder. Case is folded where the file system ignores it, and macOS
 * paths are keyed by their NFC form so NFD and NFC spellings of one name meet.
 */
import type { Stats } from 'node:fs'
import path from 'node:path'
import { isIgnoredName } from './ignore'

const CASE_INSENSITIVE_FS = process.platform === 'win32' || process.platform === 'darwin'

function foldCase(p: string): string {
  return CASE_INSENSITIVE_FS ? p.toLowerCase() : p
}

/** macOS file systems ignore Unicode normalisation; key paths by NFC there so NFD/NFC events match. */
export function keyOf(p: string): string {
  if (process.platform !== 'darwin') return p
  const n = p.normalize('NFC')
  return n === p ? p : n
}

/** Tells a folder from another one later created at the same path. */
export function rootIdentity(st: Stats): string {
  return `${st.dev}:${st.ino}:${st.birthtimeMs}`
}

export class FolderPaths {
  private prefix: string
  private excludeDirs: readonly string[]
  /** The folder as watched: its real path (every link resolved), see setRoot. */
  root: string

  constructor(
    /** The folder as configured (may be, or lie below, a link). */
    private readonly configured: string,
    private readonly excludes: readonly string[],
  ) {
    this.root = configured
    this.prefix = ''
    this.excludeDirs = []
    this.setRoot(configured)
  }

  /**
   * The folder is watched at its real path `real`: paths below it are what the watcher sees, and an
   * excluded folder given below the configured path is excluded below the real one too.
   */
  setRoot(real: string): void {
    this.root = real
    this.prefix = real.endsWith(path.sep) ? real : real + path.sep
    const conf = this.configured.endsWith(path.sep) ? this.configured : this.configured + path.sep
    const dirs = new Set<string>()
    for (const d of this.excludes.map((x) => path.resolve(x))) {
      dirs.add(foldCase(d))
      if (d.startsWith(conf)) dirs.add(foldCase(path.join(real, d.slice(conf.length))))
    }
    this.excludeDirs = [...dirs]
  }

  isInside(abs: string): boolean {
    return abs.startsWith(this.prefix)
  }

  isExcluded(abs: string): boolean {
    if (this.excludeDirs.length === 0) return false
    const p = foldCase(abs)
    return this.excludeDirs.some((d) => p === d || p.startsWith(d + path.sep))
  }

  /** Ignored below the root: a path with an ignored name in any segment, or inside an excluded dir. */
  isIgnored(abs: string): boolean {
    if (abs === this.root || !abs.startsWith(this.prefix)) return false
    for (const part of abs.slice(this.prefix.length).split(path.sep)) if (isIgnoredName(part)) return true
    return this.isExcluded(abs)
  }
}
