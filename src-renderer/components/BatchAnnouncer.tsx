import { useEffect, useRef, useState } from 'react'
import { batchAnnouncement } from '../lib/batch'
import type { Upload } from '../lib/types'
import { useApp } from '../store'

/** The current batch's announcement (lib/batch.ts), or null without a batch. */
function announcementOf(s: ReturnType<typeof useApp.getState>): { batch: number; text: string } | null {
  const first = s.batch[0]
  if (first === undefined) return null
  const rows: Upload[] = []
  for (const id of s.batch) {
    const u = s.live[id]
    if (u) rows.push(u)
  }
  const text = batchAnnouncement(rows, s.session?.state ?? 'active', s.batchOpen > 0)
  return text ? { batch: first, text } : null
}

/**
 * Tells screen readers, once, each change of the current batch's status: started, waiting (paused,
 * no connection), all sent, done with its true counts. One polite region for the whole window, so
 * the news is heard on any screen; the same words are never said twice for one batch.
 */
export function BatchAnnouncer() {
  const now = useApp((s) => announcementOf(s)?.text ?? null)
  const batch = useApp((s) => s.batch[0] ?? null)
  const [said, setSaid] = useState('')
  const heard = useRef<{ batch: number | null; texts: Set<string> }>({ batch: null, texts: new Set() })
  useEffect(() => {
    if (heard.current.batch !== batch) heard.current = { batch, texts: new Set() }
    if (!now || heard.current.texts.has(now)) return
    heard.current.texts.add(now)
    setSaid(now)
  }, [now, batch])
  return (
    <div
      className="sr-only"
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-testid="batch-announcer"
    >
      {said}
    </div>
  )
}
