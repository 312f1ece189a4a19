/**
 * Calls started before the rest of the renderer's code is evaluated (start-early.ts, which main.tsx
 * imports first; nothing here imports React): the ~70 ms the browser then spends evaluating React
 * and the app overlap the answers' way back.
 *
 * Each early answer is taken at most once, by the same call with the same request (callEarlyOr);
 * one nobody takes (another profile is active now, the filter differs) is dropped after a while.
 */
import { bookdrop } from './bridge'
import type { Req, Res, Result } from './types'
import type { CallName } from '../../contract/names'

const LAST_PROFILE_KEY = 'bookdrop.lastProfile'
const FORGET_AFTER_MS = 15_000

const early = new Map<string, Promise<Result<unknown>>>()
const keyOf = (name: CallName, req: unknown): string => `${name} ${JSON.stringify(req)}`

type CallFn<K extends CallName> = (req: Req<K>) => Promise<Result<Res<K>>>

/**
 * `bookdrop[name](req)`, unless the very same call was started early: then its answer, once. An
 * early call that failed is made again (it may have been asked before there was anything to answer
 * for, e.g. Review's list before the first profile was added).
 */
export function callEarlyOr<K extends CallName>(name: K, req: Req<K>): Promise<Result<Res<K>>> {
  const key = keyOf(name, req)
  const p = early.get(key)
  const call = () => (bookdrop[name] as CallFn<K>)(req)
  if (p) {
    early.delete(key)
    return (p as Promise<Result<Res<K>>>).then((r) => (r.ok ? r : call()), call)
  }
  return call()
}

/** Remembers the active profile, so the next start can ask for its history before boot answers. */
export function rememberActiveProfile(id: string | null): void {
  try {
    if (id) window.localStorage.setItem(LAST_PROFILE_KEY, id)
    else window.localStorage.removeItem(LAST_PROFILE_KEY)
  } catch {
    // No storage (a locked-down browser): the history just starts after boot.
  }
}

/** The profile active when the app was last used (rememberActiveProfile), if any. */
export function lastActiveProfile(): string | null {
  try {
    return window.localStorage.getItem(LAST_PROFILE_KEY)
  } catch {
    return null
  }
}

/** Starts `bookdrop[name](req)` now, for callEarlyOr to take (start-early.ts). */
export function startEarly<K extends CallName>(name: K, req: Req<K>): void {
  if (early.size === 0) setTimeout(() => early.clear(), FORGET_AFTER_MS)
  early.set(keyOf(name, req), (bookdrop[name] as CallFn<K>)(req))
}
