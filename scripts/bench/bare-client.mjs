#!/usr/bin/env node
// The bare client of `npm run bench`'s whole-process scenario: what the headless mode does for a folder
// of receipts, with nothing else. It reads each file once, base64s it into the same JSON body the
// engine sends, POSTs it with the same concurrency, and polls every job to completion with the same
// schedule (1 s, rising by 1.6 up to 30 s). No queue, no database, no watcher, no retries.
// Plain JavaScript on purpose: it is measured as a process, started the cheapest way.
//
//   node scripts/bench/bare-client.mjs '{"baseUrl":"…/v1","key":"svc_sk_…","dir":"…","concurrency":3}'
import { randomUUID } from 'node:crypto'
import { readFile, readdir } from 'node:fs/promises'
import { basename, join } from 'node:path'

const o = JSON.parse(process.argv[2] ?? '{}')
const names = (await readdir(o.dir)).filter((n) => !n.startsWith('.')).sort()
const today = new Date().toISOString().slice(0, 10)
const folder = basename(o.dir)
const headers = { 'X-API-Key': o.key, 'Content-Type': 'application/json' }

async function send(name) {
  const bytes = await readFile(join(o.dir, name))
  const body = JSON.stringify({
    prompt: `Record an expense from the receipt ${name} (saved in ${folder} on ${today}).`,
    process_type: 'async',
    attachments: [{ type: 'base64', name, file: bytes.toString('base64') }],
  })
  const res = await fetch(`${o.baseUrl}/expenses`, {
    method: 'POST',
    headers: { ...headers, 'Idempotency-Key': randomUUID() },
    body,
  })
  const json = await res.json()
  if (!res.ok) throw new Error(`${name}: ${res.status} ${json.message}`)
  return json.data.job_reference
}

async function follow(ref) {
  let wait = 1000
  for (;;) {
    await new Promise((r) => setTimeout(r, wait))
    const res = await fetch(`${o.baseUrl}/jobs/${ref}`, { headers })
    const json = await res.json()
    if (json.data?.status === 'completed' || json.data?.status === 'failed') return json.data.status
    wait = Math.min(30_000, wait * 1.6)
  }
}

let next = 0
const polls = []
await Promise.all(
  Array.from({ length: o.concurrency }, async () => {
    while (next < names.length) {
      const name = names[next++]
      const ref = await send(name)
      polls.push(follow(ref))
    }
  }),
)
const done = await Promise.all(polls)
console.log(`bare client: ${done.filter((s) => s === 'completed').length} of ${names.length} completed`)
