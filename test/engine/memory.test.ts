/**
 * The engine's heap kept near what is live while files keep coming (src-main/core/engine/memory.ts):
 * what busy files left behind past the headroom is collected by real V8; a quiet engine, and garbage
 * under the headroom, are left alone.
 */
import { describe, expect, it } from 'vitest'
import { HeapKeeper } from '../../src-main/core/engine/memory'
import { type EngineEvents, TypedEmitter } from '../../src-main/core/events'

const MB = 1024 * 1024
const nextTurn = () => new Promise((r) => setImmediate(r))
const fileHandled = (events: TypedEmitter<EngineEvents>) =>
  events.emit('upload', { upload: { id: 1 }, previous: null } as unknown as EngineEvents['upload'])

/** About `mb` MB of objects, reachable only through the WeakRef returned. */
function garbage(mb: number): WeakRef<object> {
  return new WeakRef({ rows: Array.from({ length: mb * 20_000 }, (_, i) => ({ i, s: `row ${i}` })) })
}

describe('the heap kept near what is live', () => {
  it('collects what busy files left past the headroom, and leaves a quiet engine alone', async () => {
    const events = new TypedEmitter<EngineEvents>()
    const keeper = new HeapKeeper(events, 3_600_000, 4 * MB)
    try {
      const left = garbage(16)
      await nextTurn()
      // Garbage, but nothing handled: no collection.
      expect(keeper.tick()).toBe(false)
      expect(left.deref()).toBeDefined() // nothing collected it on its own
      await nextTurn() // a WeakRef keeps its target alive until the turn that read it ends

      fileHandled(events)
      expect(keeper.tick()).toBe(true)
      expect(left.deref()).toBeUndefined()
      // Busy again, but the heap is back near what is live: left alone.
      fileHandled(events)
      expect(keeper.tick()).toBe(false)
    } finally {
      keeper.stop()
    }
  })

  it('stops listening when the engine closes', () => {
    const events = new TypedEmitter<EngineEvents>()
    const keeper = new HeapKeeper(events, 3_600_000, 0)
    keeper.stop()
    void garbage(4)
    fileHandled(events)
    expect(keeper.tick()).toBe(false)
  })
})
