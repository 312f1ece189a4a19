/**
 * Follows what became of the photos this phone sent (issue 31): GET /photos every few seconds while
 * one is still on its way (queued, being sent, being read by the server), every ten seconds
 * otherwise. The same call tells the page when its pairing ended (ended on the computer, timed
 * out): it answers 403, and the page says so instead of waiting for the next photo to fail.
 * A poll does not keep the pairing alive: the computer's 30 idle minutes count only what the person does.
 */
import type { PhonePhotoProgress, PhoneRefusal } from '../../contract/phone'

const FOLLOW_MS = 2_000
const IDLE_MS = 10_000

export interface Follower {
  /** Follows a photo by its id (its outcome named an upload). */
  add(id: string): void
  start(): void
  stop(): void
}

export function follower(o: { show(p: PhonePhotoProgress): void; ended(r: PhoneRefusal): void }): Follower {
  const following = new Set<string>()
  let timer: ReturnType<typeof setTimeout> | null = null
  let running = false

  const schedule = (ms: number) => {
    if (!running) return
    if (timer) clearTimeout(timer)
    timer = setTimeout(() => void poll(), ms)
  }

  async function poll(): Promise<void> {
    timer = null
    let res: Response
    try {
      res = await fetch('/photos', { cache: 'no-store' })
    } catch {
      return schedule(following.size ? FOLLOW_MS * 2 : IDLE_MS) // unreachable for now: the next poll tries again
    }
    let body: unknown = null
    try {
      body = await res.json()
    } catch {
      // not JSON: a captive portal, a proxy
    }
    if (res.status === 403 && body && typeof body === 'object' && 'error' in body && (body as PhoneRefusal).kind === 'session') {
      running = false
      return o.ended(body as PhoneRefusal)
    }
    if (res.ok && body && typeof body === 'object' && Array.isArray((body as { photos?: unknown }).photos)) {
      for (const p of (body as { photos: PhonePhotoProgress[] }).photos) {
        if (!following.has(p.id)) continue
        o.show(p)
        if (p.final) following.delete(p.id)
      }
    }
    schedule(following.size ? FOLLOW_MS : IDLE_MS)
  }

  return {
    add(id) {
      following.add(id)
      schedule(FOLLOW_MS)
    },
    start() {
      if (running) return
      running = true
      schedule(following.size ? FOLLOW_MS : IDLE_MS)
    },
    stop() {
      running = false
      if (timer) clearTimeout(timer)
      timer = null
    },
  }
}
