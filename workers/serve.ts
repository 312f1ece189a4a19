/**
 * The worker side of a TaskPool (pool.ts): a worker entry calls `serve(tasks)` with the functions it
 * offers. One message at a time: `{id, task, input}` in, `{id, ok, value | message}` out. A task that
 * throws answers its message (the pool raises it as TaskError); the worker stays up for the next.
 */
import { parentPort } from 'node:worker_threads'
import type { TaskTable } from './pool'

export function serve(tasks: TaskTable): void {
  const port = parentPort
  if (!port) throw new Error('serve() runs inside a worker thread only')
  port.on('message', (m: { id: number; task: string; input: unknown }) => {
    const fn = Object.hasOwn(tasks, m.task) ? tasks[m.task] : undefined
    void (async () => {
      try {
        if (!fn) throw new Error(`no task "${m.task}"`)
        const value = await (fn as (input: unknown) => unknown)(m.input)
        port.postMessage({ id: m.id, ok: true, value })
      } catch (e) {
        port.postMessage({ id: m.id, ok: false, message: e instanceof Error ? e.message : String(e) })
      }
    })()
  })
}
