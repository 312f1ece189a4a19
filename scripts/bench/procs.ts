/**
 * The bench's view of processes it started, from /proc (Linux): the tree below a process, and each
 * one's resident set and command line; and the node flags a bench that starts the built headless
 * itself gives it, so it runs as `npm run headless` does.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** The processes below `pid`, by reading /proc (Linux). */
export function descendants(pid: number): number[] {
  const parent = new Map<number, number>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = []
  const walk = (p: number) => {
    for (const [child, pp] of parent) {
      if (pp !== p) continue
      out.push(child)
      walk(child)
    }
  }
  walk(pid)
  return out
}

/** Resident set of `pid`, bytes (NaN once it is gone). */
export function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Number(m[1]) * 1024 : NaN
  } catch {
    return NaN
  }
}

export function cmdlineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ')
  } catch {
    return ''
  }
}

/** Where the RSS is: malloc's main heap ([heap]), other anonymous memory (V8's pages, thread arenas), files. */
export function rssParts(pid: number): { heap: number; anon: number; file: number } {
  const parts = { heap: 0, anon: 0, file: 0 }
  try {
    let name = ''
    for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
      const m = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line)
      if (m) name = m[1]!
      else if (line.startsWith('Rss:')) {
        const kb = Number(/(\d+)/.exec(line)![1]) * 1024
        if (name === '[heap]') parts.heap += kb
        else if (name === '' || name.startsWith('[')) parts.anon += kb
        else parts.file += kb
      }
    }
  } catch {
    // gone
  }
  return parts
}

/**
 * The node flags `npm run headless` starts the engine with (package.json's "headless" script:
 * `node <flags> bin/bookdrop.mjs headless`), for a bench that starts the built headless.js itself
 * and should run it as a person's `npm run headless` does.
 */
export function headlessNodeFlags(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }
  const words = (pkg.scripts?.headless ?? '').split(/\s+/)
  const end = words.indexOf('bin/bookdrop.mjs')
  return words.slice(words[0] === 'node' ? 1 : 0, end < 0 ? 0 : end).filter((w) => w.startsWith('--'))
}
