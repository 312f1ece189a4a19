// A worker for the pool's tests, speaking the protocol of workers/serve.ts in plain JavaScript:
// each task misbehaves the way a hostile document can make a parser misbehave.
import { parentPort } from 'node:worker_threads'

const tasks = {
  echo: (x) => x,
  fail: (message) => {
    throw new Error(message)
  },
  spin: () => {
    for (;;);
  },
  grow: () => {
    const keep = []
    for (;;) keep.push(new Array(1e5).fill({ a: keep.length }))
  },
  wait: (ms) => new Promise((r) => setTimeout(() => r(ms), ms)),
  exit: () => process.exit(3),
  pid: () => ({ threadId: (globalThis.__tid ??= Math.random()) }),
}

parentPort.on('message', async ({ id, task, input }) => {
  try {
    parentPort.postMessage({ id, ok: true, value: await tasks[task](input) })
  } catch (e) {
    parentPort.postMessage({ id, ok: false, message: e.message })
  }
})
