#!/usr/bin/env node
// The bare client of `npm run bench`'s whole-process scenario: what the headless mode does for a folder
// of receipts, with nothing else, written as a plain loop would be: read each file, base64 it into the
// same JSON body the engine sends, POST it (three at a time), and poll every job to completion with
// the same schedule (1 s, rising by 1.6 up to 30 s), then read each record a completed job made
// (GET /expenses/{uuid}, as the engine does to show what each receipt became: issue 32). No queue, no database, no watcher, no retries,
// and nothing loaded that the loop does not use (no node:crypto: the Idempotency-Key is a counter;
// node:http only with "http": true). Plain JavaScript, started the cheapest way: it is measured as a
// process.
// It speaks fetch, the first thing a bare Node client reaches for; with "http": true it speaks
// node:http through a keep-alive agent instead, as the engine does (the bench prints that one for
// reference: it is the leanest client, and the engine's own cost is the difference).
//
//   node scripts/bench/bare-client.mjs '{"baseUrl":"…/v1","key":"svc_sk_…","dir":"…","concurrency":3}'
import { readFile, readdir } from 'node:fs/promises'

const o = JSON.parse(process.argv[2] ?? '{}')

/** fetch's subset used here, on node:http (loaded only for this variant). */
async function httpClient() {
  const http = await import('node:http')
  const agent = new http.Agent({ keepAlive: true })
  return (url, { method = 'GET', headers, body } = {}) =>
    new Promise((resolve, reject) => {
      const bytes = body === undefined ? undefined : Buffer.from(body)
      if (bytes) headers['Content-Length'] = bytes.length
      const req = http.request(url, { method, agent, headers }, (res) => {
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('error', reject)
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          resolve({ ok: res.statusCode >= 200 && res.statusCode < 300, status: res.statusCode, json: async () => JSON.parse(text) })
        })
      })
      req.on('error', reject)
      req.end(bytes)
    })
}
const request = o.http ? await httpClient() : fetch
const dir = o.dir
const names = (await readdir(dir)).filter((n) => !n.startsWith('.')).sort()
const today = new Date().toISOString().slice(0, 10)
const folder = dir.slice(dir.lastIndexOf('/') + 1)
const run = `${process.pid}-${Date.now()}`

async function send(name, i) {
  const bytes = await readFile(`${dir}/${name}`)
  const body = JSON.stringify({
    prompt: `Record an expense from the receipt ${name} (saved in ${folder} on ${today}).`,
    process_type: 'async',
    attachments: [{ type: 'base64', name, file: bytes.toString('base64') }],
  })
  const res = await request(`${o.baseUrl}/expenses`, {
    method: 'POST',
    headers: { 'X-API-Key': o.key, 'Content-Type': 'application/json', 'Idempotency-Key': `bare-${run}-${i}` },
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
    const res = await request(`${o.baseUrl}/jobs/${ref}`, { headers: { 'X-API-Key': o.key } })
    const json = await res.json()
    if (json.data?.status === 'completed') {
      // What the receipt became: each record the job made, read once (issue 32).
      const uuids = json.data.resource_uuids ?? (json.data.resource_uuid ? [json.data.resource_uuid] : [])
      for (const uuid of uuids) {
        const rec = await request(`${o.baseUrl}/expenses/${uuid}`, { headers: { 'X-API-Key': o.key } })
        await rec.json()
      }
      return 'completed'
    }
    if (json.data?.status === 'failed') return json.data.status
    wait = Math.min(30_000, wait * 1.6)
  }
}

let next = 0
const polls = []
await Promise.all(
  Array.from({ length: o.concurrency }, async () => {
    while (next < names.length) {
      const i = next++
      polls.push(follow(await send(names[i], i)))
    }
  }),
)
const done = await Promise.all(polls)
console.log(`bare client: ${done.filter((s) => s === 'completed').length} of ${names.length} completed`)
